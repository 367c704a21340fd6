"""One per-key budget for every process on a key, kept in Redis.

Each paced request costs one round trip: a Lua script that does what the local `_Window`
does (a sliding-window log of send times) on a list in Redis, on the Redis server's clock,
so every worker on every machine books its place in the same log. The local window books
every place too, and tells Redis of those it took while Redis did not answer. The
enrichment slots are a sorted set of leases, renewed by a background thread while they
are held, so the slots of a process that dies come back when its leases run out.

redis-py is imported when the first request is paced, never by `import leadenrich`; a
client given a shared budget checks that it is installed.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import threading
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from ._errors import LeadEnrichError
from ._redis_scripts import ACQUIRE, GIVE_BACK, RENEW, RESERVE
from ._shared_budget import SharedBudget, masked_url

if TYPE_CHECKING:
    import asyncio
    from collections.abc import AsyncGenerator, Sequence

__all__ = ["AsyncSharedSlots", "SharedPacing", "SharedSlots", "key_base"]

logger = logging.getLogger("leadenrich")

Bucket = Literal["sync", "async"]
T = TypeVar("T")

# The registered scripts, by their place in a connection's tuple (after the client); the
# async client has the first two, the renewing thread uses the sync one.
_RESERVE, _ACQUIRE, _RENEW, _GIVE_BACK = 1, 2, 3, 4


@dataclass(frozen=True)
class _Script(Generic[T]):
    """One run of a registered script, and what its answer means, for both kinds of client."""

    index: int
    keys: list[str]
    args: list[str]
    result: Callable[[Any], T]
    unanswered: Callable[[], None] | None = None
    """What to do when Redis did not answer: it may have run the script all the same."""


@dataclass(frozen=True)
class _AsyncRedis:
    """One event loop's async Redis client with its scripts, and what closes it with the loop."""

    scripts: tuple[Any, ...]
    closer: AsyncGenerator[None, None]


def key_base(prefix: str, api_key: str) -> str:
    """The start of this key's Redis names: a hash of the API key, never the key."""
    import hashlib

    return f"{prefix}:{hashlib.sha256(api_key.encode()).hexdigest()[:32]}"


class _Link:
    """Whether Redis answers, and what a failure turns into (a warning or an error)."""

    def __init__(self, budget: SharedBudget) -> None:
        self._budget = budget
        self._down_until: float | None = None
        self._lock = threading.Lock()

    def usable(self) -> bool:
        with self._lock:
            return self._down_until is None or time.monotonic() >= self._down_until

    def failed(self, exc: Exception) -> None:
        where = masked_url(self._budget.url)
        if self._budget.on_failure == "raise":
            raise LeadEnrichError(
                f"the shared budget at {where} did not answer ({type(exc).__name__}: {exc}); "
                "nothing was sent. Start Redis, or pass SharedBudget(on_failure='local') "
                "to pace each process alone while it is away"
            ) from exc
        with self._lock:
            first = self._down_until is None
            self._down_until = time.monotonic() + self._budget.recheck
        if first:
            logger.warning(
                "the shared budget at %s did not answer (%s: %s); this process paces itself "
                "alone until it does",
                where,
                type(exc).__name__,
                exc,
            )

    def answered(self, answer: T) -> T:
        """Redis's `answer`, noted (and logged when Redis was down until now)."""
        with self._lock:
            was_down, self._down_until = self._down_until is not None, None
        if was_down:
            logger.info("the shared budget at %s answers again", masked_url(self._budget.url))
        return answer


_links: dict[SharedBudget, _Link] = {}
_links_lock = threading.Lock()


def _link(budget: SharedBudget) -> _Link:
    # One per budget and process: a web app that makes a client per request still logs
    # one warning per outage, and every client waits out the same `recheck`.
    with _links_lock:
        return _links.setdefault(budget, _Link(budget))


class SharedPacing:
    """The Redis side of one Pacer: the shared windows, the slot leases, and the link."""

    def __init__(
        self, budget: SharedBudget, api_key: str, windows: dict[Bucket, tuple[int, float]], slots: int
    ) -> None:
        if importlib.util.find_spec("redis") is None:
            # Said when the client is made, not at its first request.
            raise ModuleNotFoundError(
                "RateLimits(shared=...) needs redis-py, which the redis extra installs: "
                'pip install "leadenrich[redis]"',
                name="redis",
            )
        self.budget = budget
        base = key_base(budget.prefix, api_key)
        self._window_keys: dict[Bucket, str] = {"sync": f"{base}:sync", "async": f"{base}:async"}
        self._windows = windows
        self.slots_key = f"{base}:slots"
        self.given_back_key = f"{base}:given_back"
        self.slots = slots
        self.link = _link(budget)
        # Redis clients and scripts, made on first use. An async client's connections
        # belong to the event loop that opened them: each loop gets one of its own, closed
        # as that loop shuts down (a script may run one asyncio.run() after another).
        self._sync: Any = None
        self._async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _AsyncRedis] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()
        self.leases = _Leases(self)

    def _redis_errors(self) -> tuple[type[Exception], ...]:
        import redis

        return (redis.RedisError, OSError)

    def _connect(self, client_class: Any, retry_class: Any) -> Any:
        from redis.backoff import NoBackoff

        # No retries inside redis-py: a Redis that does not answer within the timeout
        # once is down for this request, which then goes on locally.
        return client_class.from_url(
            self.budget.url,
            socket_timeout=self.budget.timeout,
            socket_connect_timeout=self.budget.timeout,
            retry=retry_class(NoBackoff(), 0),
        )

    def _client(self) -> Any:
        with self._lock:
            if self._sync is None:
                import redis
                from redis.retry import Retry

                client = self._connect(redis.Redis, Retry)
                self._sync = (
                    client,
                    client.register_script(RESERVE),
                    client.register_script(ACQUIRE),
                    client.register_script(RENEW),
                    client.register_script(GIVE_BACK),
                )
            return self._sync

    async def _async_client(self) -> Any:
        import asyncio

        loop = asyncio.get_running_loop()
        made = self._async.get(loop)
        if made is None:
            import redis.asyncio
            from redis.asyncio.retry import Retry

            from ._loop_pools import closed_with_the_loop

            client = self._connect(redis.asyncio.Redis, Retry)
            closer = closed_with_the_loop(client)
            await closer.__anext__()
            made = _AsyncRedis(
                (client, client.register_script(RESERVE), client.register_script(ACQUIRE)), closer
            )
            self._async[loop] = made
        return made.scripts

    def close(self) -> None:
        """Close the connections to Redis (they open again if the pacer is used again).

        The renewing thread stops first, so no lease is given back on a connection being
        closed; the leases still to give back are given back here.
        """
        self.drop(self.leases.stop())
        with self._lock:
            made, self._sync = self._sync, None
        if made is not None:
            made[0].close()

    async def aclose(self) -> None:
        """Close the running loop's connections to Redis, then `close`; another loop's
        close with that loop (they cannot be closed from this one)."""
        import asyncio

        made = self._async.pop(asyncio.get_running_loop(), None)
        if made is not None:
            await made.closer.aclose()

        # Stopping the renewing thread may wait for a Redis call: not on the event loop.
        await asyncio.to_thread(self.close)

    def _run(self, script: _Script[T]) -> T | None:
        """A script's result; None while Redis is away, or when it does not answer (after the
        link has decided whether that is an error)."""
        if self.link.usable():
            try:
                answer = self._client()[script.index](keys=script.keys, args=script.args)
            except self._redis_errors() as exc:
                self._failed(script, exc)
            else:
                return script.result(self.link.answered(answer))
        return None

    async def _arun(self, script: _Script[T]) -> T | None:
        """`_run` without blocking the event loop."""
        if self.link.usable():
            try:
                scripts = await self._async_client()
                answer = await scripts[script.index](keys=script.keys, args=script.args)
            except self._redis_errors() as exc:
                self._failed(script, exc)
            else:
                return script.result(self.link.answered(answer))
        return None

    def _failed(self, script: _Script[Any], exc: Exception) -> None:
        if script.unanswered is not None:
            script.unanswered()
        self.link.failed(exc)

    def _reserve(self, bucket: Bucket, after: float, ages: Sequence[float]) -> _Script[float]:
        limit, period = self._windows[bucket]
        args = [str(limit), repr(period), repr(after), *map(repr, ages)]
        # Unanswered, the place may still be booked: that only holds the fleet back.
        return _Script(_RESERVE, [self._window_keys[bucket]], args, float)

    def reserve(self, bucket: Bucket, after: float, ages: Sequence[float]) -> float | None:
        """Book a place `after` seconds from now at the earliest, once the places taken
        `ages` seconds ago without Redis are in the log; returns the seconds to wait before
        sending, or None when Redis is away (pace locally)."""
        return self._run(self._reserve(bucket, after, ages))

    async def areserve(self, bucket: Bucket, after: float, ages: Sequence[float]) -> float | None:
        """`reserve` without blocking the event loop."""
        return await self._arun(self._reserve(bucket, after, ages))

    def _acquire(self, token: str) -> _Script[bool]:
        return _Script(
            _ACQUIRE,
            [self.slots_key, self.given_back_key],
            [str(self.slots), repr(self.budget.lease), token],
            bool,
            # The lease may have been granted, or be on its way: give it back.
            unanswered=lambda: self.leases.drop_later(token),
        )

    def try_acquire(self, token: str) -> bool | None:
        """Take a lease for `token`: True, False when all are taken, None when Redis is away."""
        return self._run(self._acquire(token))

    async def atry_acquire(self, token: str) -> bool | None:
        """`try_acquire` without blocking the event loop."""
        return await self._arun(self._acquire(token))

    def drop(self, tokens: list[str]) -> bool:
        """Give leases back, granted or not; False when Redis did not answer (a granted
        lease then runs out by itself, unless given back again)."""
        if not tokens:
            return True
        try:
            self._client()[_GIVE_BACK](
                keys=[self.slots_key, self.given_back_key], args=[repr(self.budget.lease), *tokens]
            )
        except Exception as exc:  # a connection closed under the renewing thread included
            logger.debug("could not give back %d enrichment slot leases: %s", len(tokens), exc)
            return False
        return True

    def renew(self, tokens: list[str]) -> None:
        if not tokens:
            return
        try:
            kept = int(self._client()[_RENEW](keys=[self.slots_key], args=[repr(self.budget.lease), *tokens]))
        except Exception as exc:  # never let the renewing thread die
            logger.debug("could not renew %d enrichment slot leases: %s", len(tokens), exc)
            return
        if kept < len(tokens):
            logger.debug("%d enrichment slot leases ran out before they were renewed", len(tokens) - kept)

    def poll_interval(self) -> float:
        """How often a waiter asks for a free slot: often next to the lease, at most 5 Hz."""
        return min(self.budget.lease / 20, 0.2)


class _Leases:
    """The slot leases this process holds, renewed by a daemon thread while any is held.

    A process that dies takes the thread with it, so its leases run out after `lease`
    seconds and the slots are free again for the others.
    """

    def __init__(self, pacing: SharedPacing) -> None:
        self._pacing = pacing
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._held: list[str] = []
        # Acquisitions made while Redis was away: they hold a local slot but no lease.
        self._unleased = 0
        self._to_drop: list[str] = []
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def _check_fork(self) -> None:
        # A forked child inherits the parent's list but not its leases nor its thread.
        if os.getpid() != self._pid:
            self._reset()

    def new_token(self) -> str:
        self._check_fork()
        return f"{os.getpid()}-{os.urandom(12).hex()}"

    def answered(self, token: str, taken: bool | None) -> bool:
        """Whether a try for `token` got the slot: its lease `taken`, or Redis away (None),
        when the local slot is enough. Records the slot then."""
        if taken is False:
            return False
        self.held(token if taken else None)
        return True

    def held(self, token: str | None) -> None:
        """Record a slot taken, with its lease `token`, or None when Redis was away."""
        with self._changed:
            if token is None:
                self._unleased += 1
                return
            self._held.append(token)
            if self._thread is None:
                self._thread = threading.Thread(target=self._keep, name="leadenrich-leases", daemon=True)
                self._thread.start()

    def released(self) -> str | None:
        """The lease to give back for a slot released (None: that slot had none)."""
        with self._changed:
            if self._unleased:
                self._unleased -= 1
                return None
            return self._held.pop() if self._held else None

    def drop_later(self, token: str) -> None:
        """Have the renewing thread give `token` back (for code that must not block); it
        tries again until Redis answers."""
        with self._changed:
            if token in self._held:
                self._held.remove(token)
            if token not in self._to_drop:
                self._to_drop.append(token)
            if self._thread is None:
                self._thread = threading.Thread(target=self._keep, name="leadenrich-leases", daemon=True)
                self._thread.start()
            self._changed.notify()

    def stop(self) -> list[str]:
        """Stop the renewing thread (after the Redis call it may be making); returns the
        leases released but not given back yet, for the caller to give back.

        Leases still held are no longer renewed and run out; the next slot taken starts
        a new thread.
        """
        with self._changed:
            thread, self._stopping = self._thread, True
            self._changed.notify()
        if thread is not None and thread is not threading.current_thread():
            thread.join(3 * self._pacing.budget.timeout)
        with self._changed:
            self._stopping = False
            to_drop, self._to_drop = self._to_drop, []
        return to_drop

    def _keep(self) -> None:
        every = self._pacing.budget.lease / 3
        # A give-back Redis did not answer is tried again sooner than a renewal, then less
        # and less often: a lease whose grant went unanswered may be granted when a
        # frozen Redis wakes, and holds the slot until it is given back.
        retry: float | None = None
        while True:
            with self._changed:
                if (retry is not None or not self._to_drop) and not self._stopping:
                    self._changed.wait(every if retry is None else retry)
                if self._stopping:
                    self._thread = None
                    return
                to_drop, self._to_drop = self._to_drop, []
                held = list(self._held)
                if not held and not to_drop:
                    self._thread = None
                    return
            if self._pacing.drop(to_drop):
                retry = None
            else:
                retry = self._pacing.poll_interval() if retry is None else min(2 * retry, every)
                with self._changed:
                    self._to_drop[:0] = to_drop
            self._pacing.renew(held)


_Semaphore = TypeVar("_Semaphore", threading.BoundedSemaphore, "asyncio.Semaphore")


class _Slots(ABC, Generic[_Semaphore]):
    """What both kinds of slots do alike: release one."""

    _pacing: SharedPacing
    _local: _Semaphore

    def release(self) -> None:
        token = self._pacing.leases.released()
        self._local.release()
        if token is not None:
            self._give_back(token)

    @abstractmethod
    def _give_back(self, token: str) -> None:
        """Give the Redis lease `token` back, as the client's kind of I/O does it."""


class SharedSlots(_Slots[threading.BoundedSemaphore]):
    """The enrichment slots of a sync client: this process's semaphore, then a Redis lease.

    Same calls as the `threading.BoundedSemaphore` it stands for.
    """

    def __init__(self, pacing: SharedPacing) -> None:
        self._pacing = pacing
        self._local = threading.BoundedSemaphore(pacing.slots)

    def acquire(self, blocking: bool = True, timeout: float | None = None) -> bool:
        start = time.monotonic()
        if not self._local.acquire(blocking, timeout):
            return False
        pacing = self._pacing
        token = pacing.leases.new_token()
        try:
            while True:
                if pacing.leases.answered(token, pacing.try_acquire(token)):
                    return True
                left = None if timeout is None else timeout - (time.monotonic() - start)
                if not blocking or (left is not None and left <= 0):
                    self._local.release()
                    return False
                wait = pacing.poll_interval()
                time.sleep(wait if left is None else min(wait, left))
        except BaseException:
            # Redis failed with on_failure="raise", or an interrupt (the lease may have
            # been granted as it came): keep no slot.
            pacing.leases.drop_later(token)
            self._local.release()
            raise

    def _give_back(self, token: str) -> None:
        self._pacing.drop([token])


class AsyncSharedSlots(_Slots["asyncio.Semaphore"]):
    """The enrichment slots of an async client: an asyncio semaphore, then a Redis lease.

    Same calls as the `asyncio.Semaphore` it stands for; `release` does not wait for
    Redis: the renewing thread gives the lease back.
    """

    def __init__(self, pacing: SharedPacing) -> None:
        import asyncio

        self._pacing = pacing
        self._local: asyncio.Semaphore = asyncio.Semaphore(pacing.slots)

    async def acquire(self) -> bool:
        await self._local.acquire()
        pacing = self._pacing
        token = pacing.leases.new_token()
        try:
            while True:
                if pacing.leases.answered(token, await pacing.atry_acquire(token)):
                    return True
                await _asleep(pacing.poll_interval())
        except BaseException:
            # Cancelled (a deadline) while asking: the lease may have been granted.
            pacing.leases.drop_later(token)
            self._local.release()
            raise

    def _give_back(self, token: str) -> None:
        self._pacing.leases.drop_later(token)


async def _asleep(seconds: float) -> None:
    # Leases, rechecks and slot polls are Redis's real time, not the service's.
    import asyncio

    await asyncio.sleep(seconds)
