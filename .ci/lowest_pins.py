"""The lowest versions the wheel's requirements allow here, as pip constraints (`name==floor`).

Every other venv installs the newest versions, so nothing else holds the floors of
pyproject.toml to what the SDK needs; .ci/smoke_dist.sh installs the wheel on these too.

A floor can be lower than another floor's own requirement allows: mcp 2.3 needs pydantic
2.12, where the core's floor is 2.6. Such a floor is raised to the lowest version the
pinned distributions together accept (read from their metadata through pip, without
installing anything), and stderr says which and why; with the extras that raise nothing,
the pins are pyproject.toml's floors as written.

    python .ci/lowest_pins.py WHEEL [EXTRA...]
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from email.parser import Parser
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version


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


def floors_needed(requires: dict[str, list[str]], pinned: set[str]) -> dict[str, tuple[Version, str]]:
    """The floor each pinned distribution's own requirements set on the others (of
    `requires`: name -> its Requires-Dist lines), with the one that sets it."""
    needed: dict[str, tuple[Version, str]] = {}
    for owner, lines in requires.items():
        for line in lines:
            requirement = Requirement(line)
            name = canonicalize_name(requirement.name)
            marker = requirement.marker
            if name not in pinned or (marker is not None and not marker.evaluate({"extra": ""})):
                continue
            for spec in requirement.specifier:
                if spec.operator == ">=" and (name not in needed or Version(spec.version) > needed[name][0]):
                    needed[name] = (Version(spec.version), owner)
    return needed


def requirements_of(pins: list[str]) -> dict[str, list[str]]:
    """Each pinned distribution's Requires-Dist, as pip resolves the pins alone."""
    pip = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-deps", "--ignore-installed"]
    report = subprocess.run(
        [*pip, "--report", "-", *pins],
        capture_output=True,
        text=True,
        check=True,
    )
    installs: list[dict[str, Any]] = json.loads(report.stdout)["install"]
    return {
        canonicalize_name(item["metadata"]["name"]): list(item["metadata"].get("requires_dist", []))
        for item in installs
    }


def raised(pins: list[str]) -> list[str]:
    """`pins` with each floor raised to what the other pinned distributions need, until
    no pin moves (a raised pin's own requirements may raise another)."""
    versions: dict[str, str] = {
        canonicalize_name(name): version for name, _, version in (pin.partition("==") for pin in pins)
    }
    while True:
        needed = floors_needed(requirements_of([f"{n}=={v}" for n, v in versions.items()]), set(versions))
        moved = {name: floor for name, floor in needed.items() if floor[0] > Version(versions[name])}
        for name, (floor, owner) in moved.items():
            print(f"{name} {versions[name]} raised to {floor}: {owner} needs it", file=sys.stderr)
            versions[name] = str(floor)
        if not moved:
            return [f"{name}=={version}" for name, version in versions.items()]


def main(wheel: str, *extras: str) -> int:
    with zipfile.ZipFile(wheel) as archive:
        [name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = archive.read(name).decode()
    print("\n".join(raised(lowest_pins(metadata, list(extras)))))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
