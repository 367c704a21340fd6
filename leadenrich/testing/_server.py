"""FakeServer: the fake Lead Enrichment API on a real HTTP port, for tests and development."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from typing_extensions import Self

from .. import RateLimits, ServiceClock
from ._accounts import DEFAULT
from ._records import FaultKind
from ._settings import FakeSettings, Tier, overridden
from ._state import FakeState

if TYPE_CHECKING:
    from ._thread import ServerThread

__all__ = ["FakeServer"]


class FakeServer:
    """A fake of the Lead Enrichment API v1 on 127.0.0.1, on a free port.

    `FakeServer()` is tuned for tests: enrichments and lookups finish within a fraction
    of a second, the limits are the spec's, and `api_key` is a ready Growth key. Pass a
    `FakeSettings` or any of its fields as keywords to change that.

    Args:
        settings: How the server behaves; `FakeSettings()` when omitted.
        host: The address to listen on.
        port: The port to listen on; 0 picks a free one.
        **overrides: FakeSettings fields to change, such as `time_scale=1.0`.

    Examples:
        >>> from leadenrich import LeadEnrich
        >>> from leadenrich.testing import FakeServer
        >>> with FakeServer() as server:
        ...     client = LeadEnrich(api_key=server.api_key, base_url=server.url)
        ...     lead = client.leads.enrich_sync({"company": "Acme", "domain": "acme.com"})
    """

    def __init__(
        self,
        settings: FakeSettings | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        **overrides: Any,
    ) -> None:
        self.settings: FakeSettings = overridden(
            settings if settings is not None else FakeSettings(), overrides
        )
        self.state: FakeState = FakeState(self.settings)
        """What the server remembers: requests, charges, jobs, leads, lookups, callbacks."""
        self.api_key: str = self.state.accounts.add_key(user="default")
        """A ready key of the settings' tier (Growth by default), of the user `default`."""
        self._host = host
        self._port = port
        self._thread: ServerThread | None = None
        self._url: str | None = None

    @property
    def url(self) -> str:
        """The base URL to give the SDK, such as `http://127.0.0.1:54321` (no `/api/v1`).

        Examples:
            >>> with FakeServer() as server:
            ...     client = LeadEnrich(api_key=server.api_key, base_url=server.url)
        """
        if self._url is None:
            raise RuntimeError(
                "the fake server is not running: use `with FakeServer() as server:` or start()"
            )
        return self._url

    @property
    def api_url(self) -> str:
        """`url` with the `/api/v1` prefix, for raw HTTP clients.

        Examples:
            >>> import httpx
            >>> httpx.get(f"{server.api_url}/health").json()
            {'status': 'ok', 'version': '1.0.0'}
        """
        return self.url + "/api/v1"

    @property
    def clock(self) -> ServiceClock:
        """The service clock of this server: a client given it waits as fast as the server runs.

        Every wait of the SDK (poll intervals, back-offs, `Retry-After`, which this server
        sends in the service's seconds, pacing windows, deadlines) then lasts
        `time_scale` of its real length. [`client_for`][leadenrich.testing.client_for]
        and the pytest fixtures hand out clients on this clock.

        Examples:
            >>> FakeServer(time_scale=0.01).clock
            ServiceClock(scale=0.01)
        """
        return ServiceClock(self.settings.time_scale)

    @property
    def rate_limits(self) -> RateLimits:
        """The client budget that matches this server's limits and ceiling, for a client
        on the real clock: its window is this server's scaled one, in real seconds.

        A client paced to it neither collects 429s nor waits real minutes. A client on
        [`clock`][leadenrich.testing.FakeServer.clock] counts the spec's 60-second window
        instead, as [`client_for`][leadenrich.testing.client_for] sets up.

        Examples:
            >>> client = LeadEnrich(api_key=server.api_key, base_url=server.url, rate_limits=server.rate_limits)
        """
        settings = self.settings
        return RateLimits(
            sync_per_minute=settings.sync_per_minute,
            async_per_minute=settings.async_per_minute,
            period=settings.rate_window,
            concurrent_enrichments=settings.max_concurrent_enrichments,
        )

    @property
    def running(self) -> bool:
        """Whether the server is serving (between `start()` and `stop()`).

        Examples:
            >>> server = FakeServer()
            >>> server.running
            False
        """
        return self._thread is not None

    def start(self) -> Self:
        """Start serving on a background thread; returns once connections are accepted.

        `with FakeServer() as server:` starts and stops it for you; `start()` and `stop()`
        are for a server that outlives one block, such as a notebook's.

        Examples:
            >>> server = FakeServer().start()
            >>> server.url
            'http://127.0.0.1:54321'
        """
        if self._thread is not None:
            raise RuntimeError("the fake server is already running")
        # Imported here: fastapi and uvicorn cost ~0.5 s, and only a running server needs them.
        try:
            from ._app import serve
        except ModuleNotFoundError as exc:
            raise ModuleNotFoundError(
                f"the fake server needs {exc.name}, which the fake extra installs: "
                "pip install 'leadenrich[fake]'",
                name=exc.name,
            ) from exc
        thread, port = serve(self.state, self._host, self._port)
        host = f"[{self._host}]" if ":" in self._host else self._host
        self._thread, self._url = thread, f"http://{host}:{port}"
        return self

    def stop(self) -> None:
        """Stop serving. Jobs and lookups still running are cancelled (and refunded).

        Examples:
            >>> server.stop()
            >>> server.running
            False
        """
        thread, self._thread, self._url = self._thread, None, None
        if thread is not None:
            thread.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    async def __aenter__(self) -> Self:
        """`async with FakeServer() as server:`, as in an async test or a notebook cell.

        Starting and stopping wait on a thread, so the event loop goes on meanwhile.

        Examples:
            >>> async with FakeServer() as server, async_client_for(server) as client:
            ...     await client.usage()
        """
        return await asyncio.to_thread(self.start)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)

    def __repr__(self) -> str:
        where = self._url or "not running"
        return f"FakeServer({where}, time_scale={self.settings.time_scale})"

    def add_key(
        self,
        tier: Tier | None = None,
        *,
        user: str | None = None,
        monthly_leads: int | None = DEFAULT,
        credits: int | None = None,
        mobile_credits: int | None = None,
    ) -> str:
        """A new API key, of a new account or of an existing one.

        Args:
            tier: The plan: `free`, `starter` (both get 403), `growth`, `scale` or
                `enterprise`. Defaults to the settings' tier.
            user: The account's name. An existing name adds a second key to that account
                (same quota, credits and leads; `usage().api_calls_this_month.total`
                then counts both keys); then leave the plan and balances unset.
            monthly_leads: Leads included per month; None for unlimited. Defaults to
                the settings' `monthly_leads`.
            credits: Leads added by credit packs (the pool email hits also draw on).
            mobile_credits: Mobile credits bought.

        Examples:
            >>> key = server.add_key("scale", monthly_leads=1, credits=0)
            >>> second = server.add_key(user=server.state.user_of(key))
        """
        return self.state.accounts.add_key(
            tier, user=user, monthly_leads=monthly_leads, credits=credits, mobile_credits=mobile_credits
        )

    def add_credits(self, key_or_user: str, *, credits: int = 0, mobile_credits: int = 0) -> None:
        """Buy credit packs for the account of a key (or a user name), as the dashboard would.

        Examples:
            >>> server.add_credits(server.api_key, credits=500, mobile_credits=20)
            >>> client.usage().monthly_leads.credits_added
            500
        """
        user = self.state.accounts.named(key_or_user)
        self.state.accounts.add_credits(user, credits=credits, mobile_credits=mobile_credits)

    def user_of(self, key: str) -> str:
        """The name of the account a key belongs to.

        Examples:
            >>> server.user_of(server.api_key)
            'default'
        """
        return self.state.user_of(key)

    def fail_next(
        self, method: str, path: str, kind: FaultKind = "refused", *, status: int = 503, times: int = 1
    ) -> None:
        """Play a fault on the next `times` requests matching `method` and `path`.

        Args:
            method: The HTTP method, such as `GET`.
            path: A glob on the path, such as `/api/v1/jobs/*` or `/api/v1/leads`.
            kind: `refused` (answer `status` with a JSON detail, nothing done),
                `server_error` (a 5xx, nothing done), `drop_before`, `drop_after` (the work
                is done and charged, then the connection is dropped), `malformed` (the
                work is done, the JSON of its 2xx answer broken), `slow` (done, answered
                `slow_seconds` late) or `taken_late` (left waiting `slow_seconds`, as a
                service too busy to take it in, then done even if the client gave up).
            status: The status of `refused` and `server_error`.
            times: How many matching requests meet it.

        Examples:
            >>> server.fail_next("GET", "/api/v1/jobs/*", status=404)
            >>> server.fail_next("POST", "/api/v1/leads/enrich", "drop_after")
        """
        self.state.scripted.add(method, path, kind, status=status, times=times)

    def revoke_key(self, key: str) -> None:
        """Revoke a key, as a rotation would: its next requests get 401.

        Examples:
            >>> server.revoke_key(server.api_key)
        """
        self.state.accounts.revoke_key(key)

    def callback_url(self, name: str = "default", *, status: int = 204) -> str:
        """A callback_url served by this server: bodies POSTed to it are kept in
        `state.received_callbacks(name)`, and it answers `status`.

        Examples:
            >>> job = client.leads.enrich(lead, callback_url=server.callback_url("hooks"))
            >>> server.state.wait_until(lambda: server.state.received_callbacks("hooks"))
            True
        """
        return f"{self.url}/_fake/callbacks/{quote(name, safe='')}?status={status}"
