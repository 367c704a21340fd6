"""The network between the client and the model service, and the client that uses it.

`SimClient` is the real `AsyncLeadEnrich` (its retries, pacing, enrichment slots, error
mapping and parsing) with one method replaced: the attempt that would hand a request to
httpx hands it to `Network` instead, which carries it to the model service on the
world's time and plays the schedule's fault for it. A request meets its fault by its
number: the n-th request any process of the schedule lets leave.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from leadenrich import AsyncLeadEnrich
from leadenrich._base_client import check_status, connection_error
from leadenrich._endpoints import Call

from .clock import World
from .schedule import Fault
from .service import Answer, Service, lead_key, parse_body

__all__ = ["Killed", "Network", "Process", "Sent", "SimClient"]

BASE_URL = "http://service.invalid/api/v1"


class Killed(BaseException):
    """The process was killed: nothing it does reaches the world any more."""


@dataclass
class Process:
    """One run of the user's program."""

    index: int
    dead: bool = False
    clean: bool = False
    """Its requests meet no fault (the final run that checks what the others left)."""
    stop_iteration: int | None = None
    """The loop iteration in which the user stopped the run, if they did."""
    watch: Callable[[str], None] | None = None
    """Told of each `request` that leaves and each enrichment whose answer is `loss`t."""
    account: str = "own"
    """Whose key its client has: the service answers it as that account's."""
    credits_read: list[tuple[float, int]] = field(default_factory=list[tuple[float, int]])
    """When the service told it how many credits the account had left, and how many."""
    answered: list[tuple[float, Answer]] = field(default_factory=list[tuple[float, Answer]])
    """Each 2xx answer it received, and when: what its stamps could tell the run of the
    service's clock (the checks read them only when a run took an older record)."""


@dataclass(frozen=True, slots=True)
class Sent:
    """A request that left the client."""

    number: int
    process: int
    at: float
    iteration: int
    method: str
    path: str
    key: str | None
    fault: Fault | None


class _Lost:
    def __init__(self, why: str) -> None:
        self.why = why


_DROPPED = _Lost("dropped")
_TIMED_OUT = _Lost("timed out")


@dataclass(frozen=True)
class _Cut:
    answer: Answer


class _Body:
    """A 2xx answer as `parse_response` reads it (an httpx.Response costs ~75 us to make)."""

    is_success = True

    def __init__(self, status: int, content: bytes) -> None:
        self.status_code = status
        self.content = content


class Network:
    def __init__(
        self,
        world: World,
        service: Service,
        faults: dict[int, Fault],
        read_faults: dict[int, Fault],
        rng: random.Random,
    ) -> None:
        self.world = world
        self.service = service
        self.accounts: dict[str, Service] = {"own": service}
        """Each account's books; the platform's slots are modelled per account."""
        self.faults = faults
        self.read_faults = read_faults
        self.enrichments = 0
        """Enrichment requests sent so far (the faults of `faults` count them)."""
        self.rng = rng
        self.sent: list[Sent] = []
        self.pending: dict[int, set[asyncio.Future[Any]]] = {}

    def account(self, name: str) -> Service:
        """The service as the account `name` sees it: another account has no leads stored."""
        service = self.accounts.get(name)
        if service is None:
            own = self.service
            settings = replace(own.settings, others=(), filler=0, used=0)
            service = self.accounts[name] = Service(self.world, settings, own.failing)
        return service

    def _latency(self) -> float:
        return self.rng.uniform(0.005, 0.3)

    async def exchange(self, client: SimClient, call: Call[Any]) -> Any:
        process = client.process
        if process.dead:
            raise Killed
        loop = asyncio.get_running_loop()
        number = len(self.sent)
        if call.method == "POST":
            fault = self.faults.get(self.enrichments)
            self.enrichments += 1
        else:
            fault = self.read_faults.get(number - self.enrichments)
        fault = None if process.clean else fault
        body = parse_body(call.body)
        options = client._options  # pyright: ignore[reportPrivateUsage]
        read = (options.long_timeout if call.runs_enrichment else options.timeout).read
        key = lead_key(body["lead"]) if body is not None and "lead" in body else None
        self.sent.append(
            Sent(number, process.index, self.world.now, loop.iteration, call.method, call.path, key, fault)  # type: ignore[attr-defined]
        )
        if process.watch is not None:
            process.watch("request")
        if fault is not None and fault.kind == "refused":
            raise connection_error(httpx.ConnectError("connection refused"), _request(call, read))
        answer: asyncio.Future[Any] = loop.create_future()
        self.pending.setdefault(process.index, set()).add(answer)

        def deliver(outcome: Any) -> None:
            if not process.dead and not answer.done():
                answer.set_result(outcome)

        service = self.account(process.account)
        self._carry(service, call, dict(call.params or {}), body, number, fault, deliver)
        if read is not None:
            self.world.after(read, lambda: deliver(_TIMED_OUT))
        try:
            outcome = await answer
        finally:
            self.pending[process.index].discard(answer)
        return self._received(client, call, read, outcome)

    def _carry(
        self,
        service: Service,
        call: Call[Any],
        params: dict[str, Any],
        body: Any,
        number: int,
        fault: Fault | None,
        deliver: Any,
    ) -> None:
        world, up, down = self.world, self._latency(), self._latency()
        kind = fault.kind if fault is not None else None
        if kind == "drop_before":
            world.after(up, lambda: deliver(_DROPPED))
            return
        if kind == "error_before":
            world.after(up + down, lambda: deliver(Answer(502, "<html>Bad Gateway</html>")))
            return
        if kind == "rate_limited":
            assert fault is not None
            detail = f"rate limit exceeded (60 req/min), retry in {fault.seconds:g} seconds"
            refused = Answer(429, {"detail": detail}, {"Retry-After": f"{fault.seconds:g}"})
            world.after(up + down, lambda: deliver(refused))
            return
        if kind == "upstream_full":
            world.after(up + down, lambda: deliver(service._upstream_full()))  # pyright: ignore[reportPrivateUsage]
            return

        def answered(reply: Answer) -> None:
            reply = Answer(reply.status, reply.body, {**reply.headers, "date": service.http_date()})
            if kind == "drop_after":
                world.after(down, lambda: deliver(_DROPPED))
            elif kind == "error_after":
                world.after(down, lambda: deliver(Answer(502, {"detail": "bad gateway"})))
            elif kind == "cut_body" and 200 <= reply.status < 300:
                world.after(down, lambda: deliver(_Cut(reply)))
            elif kind == "slow":
                assert fault is not None
                world.after(down + fault.seconds, lambda: deliver(reply))
            else:
                world.after(down, lambda: deliver(reply))

        gateway = service.settings.gateway_timeout
        if gateway is not None:
            # The front end gives up first when the service takes longer; the service goes on.
            world.after(up + gateway, lambda: deliver(Answer(504, "<html>504 Gateway Time-out</html>")))
        intake = up + (fault.seconds if fault is not None and kind == "taken_late" else 0.0)
        world.after(intake, lambda: service.take(call.method, call.path, params, body, number, answered))

    def _received(self, client: SimClient, call: Call[Any], read: float | None, outcome: Any) -> Any:
        watch = client.process.watch
        if (
            watch is not None
            and call.method == "POST"
            and not (isinstance(outcome, Answer) and (outcome.status < 300 or outcome.status in (402, 429)))
        ):
            watch("loss")
        if isinstance(outcome, Answer):
            # What the client's `received` does with every answer.
            if call.on_date is not None and (date := outcome.headers.get("date")) is not None:
                call.on_date(date)
            if 200 <= outcome.status < 300:
                client.process.answered.append((self.world.now, outcome))
                if call.path == "/usage" and isinstance(outcome.body, dict):
                    months: dict[str, Any] = outcome.body["monthly_leads"]
                    if months["effective_limit"] is not None:
                        left = max(0, months["effective_limit"] - months["used"])
                        client.process.credits_read.append((self.world.now, left))
                return _Body(outcome.status, _content(outcome))
        # What only a failure needs, made only then (an httpx.Request costs ~50 us).
        request = _request(call, read)
        if outcome is _DROPPED:
            exc: httpx.RequestError = httpx.RemoteProtocolError(
                "Server disconnected without sending a response.", request=request
            )
            raise connection_error(exc, request) from exc
        if outcome is _TIMED_OUT:
            exc = httpx.ReadTimeout("timed out", request=request)
            raise connection_error(exc, request) from exc
        if isinstance(outcome, _Cut):
            content = _content(outcome.answer)
            return httpx.Response(
                outcome.answer.status, content=content[: len(content) // 2], request=request
            )
        assert isinstance(outcome, Answer)
        if isinstance(outcome.body, str):
            response = httpx.Response(
                outcome.status, text=outcome.body, headers=outcome.headers, request=request
            )
        elif isinstance(outcome.body, bytes):
            response = httpx.Response(
                outcome.status, content=outcome.body, headers=outcome.headers, request=request
            )
        else:
            response = httpx.Response(
                outcome.status, json=outcome.body, headers=outcome.headers, request=request
            )
        return check_status(response, client._options)  # pyright: ignore[reportPrivateUsage]

    def kill(self, process: Process) -> None:
        process.dead = True
        for answer in self.pending.pop(process.index, set()):
            if not answer.done():
                answer.set_exception(Killed())


def _content(answer: Answer) -> bytes:
    body = answer.body
    return body if isinstance(body, bytes) else json.dumps(body).encode()


_URLS: dict[str, httpx.URL] = {}


def _request(call: Call[Any], read: float | None) -> httpx.Request:
    # Parsed once per path: parsing a URL is most of what making a request costs.
    url = _URLS.get(call.path)
    if url is None:
        url = _URLS[call.path] = httpx.URL(BASE_URL + call.path)
    return httpx.Request(call.method, url, extensions={"timeout": {"read": read}})


class SimClient(AsyncLeadEnrich):
    """The real async client, on the simulated network."""

    network: Network
    process: Process

    async def _attempt(self, call: Call[Any], deadline: Any, resend: int = 0) -> Any:
        # What AsyncAPIClient._attempt does, with the network's exchange for httpx's send.
        if (delay := await self._apace_delay(call, deadline)) > 0:
            await self.clock.asleep(delay)
        if call.before_send is not None:
            call.before_send()
        return await self.network.exchange(self, call)
