# pyright: strict
"""The `redis` extra without a Redis server (the suite runs it against a real one): a
client given a shared budget is made, imports redis-py when it paces its first request,
and meets a Redis that does not answer as documented: refused before anything is sent
(`on_failure="raise"`), or paced alone with one warning (`"local"`, the default).

    python .ci/smoke/redis_budget.py
"""

from __future__ import annotations

import logging
import socket
import sys

import redis

from leadenrich import LeadEnrichError, RateLimits, SharedBudget
from leadenrich.testing import FakeServer, client_for


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> int:
    url = f"redis://127.0.0.1:{closed_port()}/0"
    problems: list[str] = []
    warnings: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: warnings.append(record.getMessage())  # type: ignore[method-assign]
    logging.getLogger("leadenrich").addHandler(handler)
    with FakeServer() as server:
        refusing = RateLimits(shared=SharedBudget(url, on_failure="raise"))
        with client_for(server, rate_limits=refusing) as client:
            try:
                client.usage()
                problems.append("on_failure='raise': the call went through with Redis away")
            except LeadEnrichError as exc:
                if "nothing was sent" not in str(exc):
                    problems.append(f"on_failure='raise' raised {exc}")
        sent = len(server.state.requests())
        with client_for(server, rate_limits=RateLimits(shared=url)) as client:
            client.usage()
        answered = len(server.state.requests()) - sent
    if sent:
        problems.append(f"on_failure='raise' sent {sent} requests")
    if answered != 1 or not any("paces itself alone" in warning for warning in warnings):
        problems.append(f"on_failure='local': {answered} requests answered, warnings {warnings}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"redis: redis-py {redis.__version__}, a budget with Redis away refused or paced alone")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
