"""The lowest versions the wheel's requirements allow here, as pip constraints (`name==floor`).

Every other venv installs the newest versions, so nothing else holds the floors of
pyproject.toml to what the SDK needs; .ci/smoke_dist.sh installs the wheel on these too.

    python .ci/lowest_pins.py WHEEL [EXTRA...]
"""

from __future__ import annotations

import sys
import zipfile
from email.parser import Parser

from packaging.requirements import Requirement


def lowest_pins(metadata: str, extras: list[str]) -> list[str]:
    pins: list[str] = []
    for line in Parser().parsestr(metadata).get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        marker = requirement.marker
        # "" stands for no extra: the requirements every install has.
        if marker is not None and not any(marker.evaluate({"extra": extra}) for extra in ["", *extras]):
            continue
        pins += [f"{requirement.name}=={s.version}" for s in requirement.specifier if s.operator == ">="]
    return pins


def main(wheel: str, *extras: str) -> int:
    with zipfile.ZipFile(wheel) as archive:
        [name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(name).decode()
    print("\n".join(lowest_pins(metadata, list(extras))))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
