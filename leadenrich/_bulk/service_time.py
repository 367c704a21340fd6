"""The service's clock, as its own answers tell it: never this machine's clock.

A lead whose answer was lost is looked for among the stored leads with its input. Which
of them is its own (stored after its request left) is read on the service's clock only:
this machine's may be minutes off or step between two runs, and the service may write
its local time with no offset (the spec says only "ISO 8601"). The service's answers
tell three things of that clock:

- A record or job that one of the run's own requests created is stamped no earlier than
  the service's time when that request left. So a record of the lead surely later than
  such a stamp, of a request that left after the lead's, was stored after the lead's
  request left: it is the lead's own, proven. Only stamps with an offset prove anything:
  local time without one steps back an hour at the end of summer time.
- A stamp `S` received when this machine's clock read `t` says the service's clock read
  at least `S` at `t`: the largest such offset is a lower bound of the service's clock.
  A record stamped surely before that bound for the moment a request left was stored
  before it.
- The `Date` header of each answer tells the same, to the second, but of a front end's
  clock, which may not be the stamps' (a proxy's): ahead of them, it would make a lead's
  own record look older than its request; behind them, it bounds nothing closely. So it
  only ever keeps a run from taking a record (the lead is then reported maybe charged,
  and a rerun looks again), never decides that a lead was not stored; and only until a
  stamp of the run's own making reads the stamps' clock itself.

"Surely" allows for the stamps' resolution (as fine as any stamp has shown) and for each
stamp being up to `_SLACK` off. The bound is close once the run has received a stamp of
its own making or a `Date` header: a lost job whose record the run cannot prove takes, at
its last look, the latest record of the lead that passes the bound by the stamps and by
the `Date` headers alike (a `Date` behind the stamps may then let an earlier record of
the lead pass: it is reported charged, and nothing is paid twice). Stamps with an offset and stamps without one are never compared with each
other (a `Date` header is in UTC: it bounds only stamps with an offset).
"""

from __future__ import annotations

import functools
import threading
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime

__all__ = ["ServiceTime", "same_kind", "seconds"]

# How far a stamp may be off the service's clock either way (in its seconds), on top of
# the stamps' own resolution: nodes whose clocks are a few seconds apart, a clock stepped
# by its NTP. Two
# stamps tell which record came first only when they are further apart than twice this
# and the resolution (`_margin`).
_SLACK = 3.0

_NAIVE_EPOCH = datetime(1970, 1, 1)


class ServiceTime:
    """What the service's stamps tell of its clock (thread-safe).

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
        self._dated: float | None = None
        """The same of the `Date` headers: a front end's clock, which may not be the
        stamps' (so it only ever adds to what keeps a record from being a lead's)."""
        self._made: list[tuple[float, float]] = []
        """Stamps with an offset of what the run's own requests created: (when the
        request left, on the run's clock; the stamp, in seconds)."""
        self._resolution: dict[bool, float] = {}
        """Per kind of stamp: the finest resolution any stamp has shown (a stamp to the
        minute may be up to a minute earlier than what it stamps)."""
        self._close: set[bool] = set()
        """The kinds of stamp of which the run has received one of its own making: the
        lower bound is then off by no more than that request took."""

    def observe(self, stamp: datetime | None, at: float) -> None:
        """A stamp of the service's, in an answer received when the run's clock read `at`."""
        if stamp is None:
            return
        aware = stamp.tzinfo is not None
        offset = seconds(stamp) - at * self._scale
        shown = 0.0 if stamp.microsecond else 1.0 if stamp.second else 60.0
        with self._lock:
            if offset > self._offsets.get(aware, float("-inf")):
                self._offsets[aware] = offset
            self._resolution[aware] = min(shown, self._resolution.get(aware, shown))

    def observe_date(self, header: str, at: float) -> None:
        """An answer's `Date` header (a front end's clock, to the second), received when
        the run's clock read `at`: a lower bound of the service's clock that only ever
        rules records out (a clock behind the stamps' would bound nothing closely)."""
        dated = _http_date(header)
        if dated is None:
            return
        offset = dated - at * self._scale
        with self._lock:
            self._dated = offset if self._dated is None else max(self._dated, offset)
            self._close.add(True)

    def made(self, stamp: datetime | None, left: float, at: float) -> None:
        """A record or job a request of the run that left at `left` created, stamped
        `stamp`, received at `at`."""
        self.observe(stamp, at)
        if stamp is None:
            return
        with self._lock:
            self._close.add(stamp.tzinfo is not None)
            if stamp.tzinfo is not None:
                self._made.append((left, seconds(stamp)))

    def close(self, stamp: datetime) -> bool:
        """Whether the lower bound that `stamp` is read by came from a stamp of the run's
        own making, so is off by no more than that request took."""
        with self._lock:
            return (stamp.tzinfo is not None) in self._close

    def after(self, stamp: datetime | None, left: float) -> bool:
        """Whether a record stamped `stamp` was proven stored after a request that left
        at `left`: it is surely later than something the run created by a request that
        left later."""
        if stamp is None or stamp.tzinfo is None:
            return False
        value = seconds(stamp) - self._margin(True)
        with self._lock:
            return any(later >= left and value > made for later, made in self._made)

    def older(self, stamp: datetime, than: datetime) -> bool:
        """Whether a record stamped `stamp` was surely stored before one stamped `than`."""
        return same_kind(stamp, than) and seconds(stamp) < seconds(than) - self._margin(
            stamp.tzinfo is not None
        )

    def _margin(self, aware: bool) -> float:
        """How far apart two stamps of a kind must be to tell which came first: the
        finest resolution its stamps have shown (a minute until one shows seconds), and
        each stamp up to `_SLACK` of the service's seconds off (a fake server's nodes run
        at its scale)."""
        with self._lock:
            resolution = self._resolution.get(aware, 60.0)
        return resolution + 2 * _SLACK * self._scale

    def before(self, stamp: datetime, left: float, *, dated: bool = False) -> bool:
        """Whether a record stamped `stamp` reads as stored before a request that left at
        `left` (see the module's text for the little this may decide): by the stamps, or
        with `dated`, by the `Date` headers too until a stamp of the run's own making
        reads the stamps' clock closely (a front end's `Date` ahead of it would then only
        make the lead's own record look older)."""
        aware = stamp.tzinfo is not None
        with self._lock:
            offsets = [self._offsets.get(aware)]
            if dated and aware and not self._made:
                offsets.append(self._dated)
        known = [offset for offset in offsets if offset is not None]
        if not known:
            return False
        return seconds(stamp) < left * self._scale + max(known) - self._margin(aware)


@functools.lru_cache(maxsize=16)
def _http_date(header: str) -> float | None:
    """A `Date` header as seconds (None unless it reads as a date with a zone): the
    answers of one second share one, so each is parsed once."""
    try:
        date = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return None if date.tzinfo is None else seconds(date)


def same_kind(first: datetime, second: datetime) -> bool:
    """Whether two stamps can be compared: both with an offset, or both without."""
    return (first.tzinfo is None) == (second.tzinfo is None)


def seconds(stamp: datetime) -> float:
    """`stamp` as seconds in its own frame (naive stamps in theirs): only ever compared
    with a stamp of the same kind."""
    if stamp.tzinfo is not None:
        return stamp.timestamp()
    return (stamp - _NAIVE_EPOCH) / timedelta(seconds=1)
