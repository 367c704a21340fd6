# pyright: strict
"""The `notebook` extra: a DataFrame in, a bulk run with a progress bar (tqdm), and the
result and its preview as DataFrames (pandas).

    python .ci/smoke/notebook.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import ipywidgets  # type: ignore[import-untyped]
import pandas as pd  # type: ignore[import-untyped]

from leadenrich.testing import FakeServer, client_for


def main() -> int:
    rows = pd.DataFrame({"company": ["Globex", "Initech"], "domain": ["globex.com", "initech.com"]})
    # A checkpoint of its own: one of another run's fake server is refused, as it should be.
    with tempfile.TemporaryDirectory() as scratch, FakeServer() as server, client_for(server) as client:
        checkpoint = Path(scratch) / "leads.checkpoint.jsonl"
        preview = client.leads.preview_many(rows, checkpoint=checkpoint).to_pandas()
        result = client.leads.enrich_many(rows, checkpoint=checkpoint, progress=True)
    table = result.to_pandas()
    problems: list[str] = []
    if len(preview) != 2 or len(table) != 2 or result.succeeded != 2:
        problems.append(f"the preview:\n{preview}\nthe result ({result!r}):\n{table}")
    elif sorted(table["input_domain"]) != ["globex.com", "initech.com"] or set(table["status"]) != {
        "enriched"
    }:
        problems.append(f"the result's table lost the leads or their outcomes:\n{table}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        versions = f"pandas {pd.__version__}, ipywidgets {ipywidgets.__version__}"
        print(f"notebook: a DataFrame in, 2 leads enriched with a progress bar, DataFrames out ({versions})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
