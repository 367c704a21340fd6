"""Which request meets which injected fault.

A request's fault depends only on the seed, the request itself (method, path, query and
body, never the key) and how many times that same request came before, so a run of the
same requests meets the same faults whatever order concurrent requests arrive in. The
exception is an `upstream_full` burst, which refuses the enrichment requests that arrive
next, whichever they are. Faults a test asks for by name (`fail_next`) come first.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections import Counter
from dataclasses import dataclass

from ._records import FaultKind
from ._scripted import ScriptedFaults
from ._settings import FakeSettings

__all__ = ["Fault", "FaultPlan", "applies", "faults_enabled"]

_API = "/api/v1/"
_EXEMPT = frozenset({"/api/v1/health"})
_STATUSES = (500, 502, 503)
# The kinds in the order their rates share out [0, 1).
_KINDS: tuple[tuple[FaultKind, str], ...] = (
    ("server_error", "server_error_rate"),
    ("drop_before", "drop_before_rate"),
    ("drop_after", "drop_after_rate"),
    ("slow", "slow_rate"),
    ("malformed", "malformed_rate"),
    ("upstream_full", "upstream_full_rate"),
)


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    status: int = 0
    html: bool = False
    """server_error: an HTML error page (as a proxy sends) instead of a JSON body."""
    truncate: bool = False
    """malformed: cut the body in half (otherwise a junk prefix goes before it)."""


def faults_enabled(settings: FakeSettings) -> bool:
    """Whether any fault rate is set (scripted faults are played either way)."""
    return any(getattr(settings, rate) > 0 for _, rate in _KINDS)


def applies(path: str) -> bool:
    """Faults hit the API's endpoints; health (and the fake's own callback receiver) never."""
    return path.startswith(_API) and path not in _EXEMPT


def runs_enrichment(method: str, path: str) -> bool:
    """The requests an upstream_full burst refuses: enrich (both modes) and re-enrich."""
    return method == "POST" and (path == "/api/v1/leads/enrich" or path.endswith("/re-enrich"))


class FaultPlan:
    """Decides the fault of each request; safe to call from any thread."""

    def __init__(self, settings: FakeSettings, scripted: ScriptedFaults) -> None:
        self._settings = settings
        self._scripted = scripted
        self._lock = threading.Lock()
        self._seen: Counter[str] = Counter()
        self._burst_left = 0

    def decide(self, method: str, path: str, query: bytes, body: bytes) -> Fault | None:
        scripted = self._scripted.take(method, path)
        if scripted is not None:
            return Fault(scripted.kind, status=scripted.status)
        if not faults_enabled(self._settings):
            return None
        enrichment = runs_enrichment(method, path)
        digest = hashlib.sha256(b"\0".join([method.encode(), path.encode(), query, body])).hexdigest()
        with self._lock:
            occurrence = self._seen[digest]
            self._seen[digest] += 1
            if enrichment and self._burst_left > 0:
                self._burst_left -= 1
                return Fault("upstream_full")
        rng = random.Random(f"{self._settings.fault_seed}:{digest}:{occurrence}")
        draw = rng.random()
        for kind, rate in _KINDS:
            share: float = getattr(self._settings, rate)
            if draw >= share:
                draw -= share
                continue
            if kind == "upstream_full":
                if not enrichment:
                    return None
                with self._lock:
                    self._burst_left = self._settings.upstream_full_burst - 1
            status = rng.choice(_STATUSES)
            return Fault(kind, status=status, html=rng.random() < 0.5, truncate=rng.random() < 0.5)
        return None
