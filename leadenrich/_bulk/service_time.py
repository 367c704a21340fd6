"""The service's clock, as its own stamps tell it: never this machine's clock.

A lead whose answer was lost is looked for among the stored leads created since its
request left. "Since" must be read on the service's clock: this machine's may be minutes
off, and the service may write its local time with no offset (the spec says only "ISO
8601"). So the plan learns the service's clock from the stamps in its answers: a stamp
`S` received when this machine's clock read `t` says the service's clock read at least
`S` at `t`. The largest such offset is a lower bound of the service's clock at any moment
of this machine's; a record stamped before that bound for a request's departure was
stored before the request left, and is not its record.

The bound is close once the run has received a record one of its own requests created:
that one was stamped between the request leaving and its answer, so the bound is off by
no more than that request took. Until then it may be far off (old records are all the run
has seen), and a record that passes it is undecided: it may be an earlier record of the
same lead, and is taken only at the lead's last lookup (plan.py).

Stamps with an offset and stamps without one are never compared with each other. Nor
are they compared with the `Date` header: a proxy in front of the service may write that
one on a clock of its own, and a bound taken from a clock ahead of the stamps' would pass
a lead's own record off as stored before its request.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

__all__ = ["ServiceTime", "same_kind", "seconds"]

# What a record's stamp may lag its true creation and still be read as "not before the
# request left": whole-second stamps, and a service's clock stepped back by its NTP.
_SLACK = 2.0

_NAIVE_EPOCH = datetime(1970, 1, 1)


class ServiceTime:
    """The lower bound of the service's clock, learnt from its stamps (thread-safe).

    Times on this machine's side are the run's clock (`ServiceClock.now()`, in the
    service's seconds) times `scale` (real seconds per service second), since stamps are
    real dates.
    """

    def __init__(self, scale: float) -> None:
        self._scale = scale
        self._lock = threading.Lock()
        self._offsets: dict[bool, float] = {}
        """Per kind of stamp (with an offset or not): the largest stamp minus this
        machine's real seconds when it was received."""
        self._close: set[bool] = set()
        """The kinds of stamp whose bound a record of the run's own has made close."""

    def observe(self, stamp: datetime | None, at: float) -> None:
        """A stamp of the service's, in an answer received when the run's clock read `at`."""
        if stamp is None:
            return
        aware = stamp.tzinfo is not None
        offset = seconds(stamp) - at * self._scale
        with self._lock:
            if offset > self._offsets.get(aware, float("-inf")):
                self._offsets[aware] = offset

    def created(self, stamp: datetime | None, at: float) -> None:
        """A record one of the run's own requests created, received when the run's clock
        read `at`: the bound is close from now on."""
        self.observe(stamp, at)
        if stamp is not None:
            with self._lock:
                self._close.add(stamp.tzinfo is not None)

    def close(self, stamp: datetime) -> bool:
        """Whether the bound that `stamp` is read by is close (see the module's text)."""
        with self._lock:
            return (stamp.tzinfo is not None) in self._close

    def before(self, stamp: datetime, sent: float) -> bool:
        """Whether a record stamped `stamp` was stored before a request that left when the
        run's clock read `sent`: only when the service's clock, as learnt, proves it."""
        aware = stamp.tzinfo is not None
        with self._lock:
            offset = self._offsets.get(aware)
        if offset is None:
            return False
        return seconds(stamp) < sent * self._scale + offset - _SLACK


def same_kind(first: datetime, second: datetime) -> bool:
    """Whether two stamps can be compared: both with an offset, or both without."""
    return (first.tzinfo is None) == (second.tzinfo is None)


def seconds(stamp: datetime) -> float:
    """`stamp` as seconds in its own frame (naive stamps in theirs): only ever compared
    with a stamp of the same kind."""
    if stamp.tzinfo is not None:
        return stamp.timestamp()
    return (stamp - _NAIVE_EPOCH) / timedelta(seconds=1)
