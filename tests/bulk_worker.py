"""A bulk run in a process of its own, for the tests that kill it with SIGKILL.

    python tests/bulk_worker.py CHECKPOINT STRATEGY COUNT [CONCURRENCY]

The key, the server's address and its time scale come from the environment
(LEADENRICH_API_KEY, LEADENRICH_BASE_URL, LEADENRICH_TIME_SCALE), as a user's script
run against `leadenrich fake-server` gets them.
"""

from __future__ import annotations

import sys
from typing import Literal

from leadenrich import BulkOptions, LeadEnrich


def rows(count: int) -> list[dict[str, str]]:
    """Distinct leads without emails: nothing dedupes, so a lead sent twice is charged twice."""
    return [{"company": f"Killed {i}", "domain": f"killed{i}.com"} for i in range(count)]


def main() -> None:
    checkpoint, count = sys.argv[1], int(sys.argv[3])
    strategy: Literal["sync", "async"] = "async" if sys.argv[2] == "async" else "sync"
    options: BulkOptions = {"checkpoint": checkpoint, "strategy": strategy, "progress": False}
    if len(sys.argv) > 4:
        options["concurrency"] = int(sys.argv[4])
    with LeadEnrich() as client:
        client.leads.enrich_many(rows(count), **options)


if __name__ == "__main__":
    main()
