"""Property tests: whatever the service answers and whatever the caller passes, only a
LeadEnrichError escapes (or a TypeError, where a type checker would have said so).

Answers go through the clients' real request path on an httpx.MockTransport; the SDK's
clock is a fake one that moves only when the SDK sleeps, so retries and polls cost
nothing. Examples are derandomized, and few: the suite stays fast and CI reproducible.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import math
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from itertools import islice
from pathlib import Path
from typing import Any, get_args, get_type_hints

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import leadenrich
from leadenrich import (
    AsyncLeadEnrich,
    LeadDict,
    LeadEnrich,
    LeadEnrichError,
    LeadIn,
    RateLimitError,
    RateLimits,
    ServiceClock,
)
from leadenrich._errors import status_error
from leadenrich.testing import ManualClock
from leadenrich.webhooks import parse_event
from tests.helpers import USAGE, job_out, lead_out

BASE = "https://api.test"
KEY = "le_live_property_0123456789abcdef"
LEAD: LeadDict = {"company": "Acme", "domain": "acme.com"}
PERSON = {"first_name": "Ada", "last_name": "Lovelace", "domain": "acme.com"}

PROFILE = settings(
    derandomize=True,
    deadline=None,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow],
)


CLOCK = ManualClock()
"""One clock for the module: hypothesis reruns a test body many times, and no client
here ever sleeps for real."""


# --- answers -------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _mutated(body: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A valid body with one field dropped or replaced: the near misses are what break parsers."""
    keys = sorted(body)
    drop = st.sampled_from(keys).map(lambda k: {n: v for n, v in body.items() if n != k})
    replace = st.tuples(st.sampled_from(keys), JSON).map(lambda kv: {**body, kv[0]: kv[1]})
    return st.just(body) | drop | replace


VALID = [
    lead_out(),
    job_out(status="done", result=lead_out()),
    job_out(status="running"),
    {"job_id": "job_1", "status": "queued"},
    {"items": [lead_out()], "total": 1, "limit": 50, "skip": 0},
    USAGE,
    {"state": "found", "email": "ada@acme.com"},
    {"lookup_id": "mob_1", "state": "settled", "mobile": "+15555550100"},
    {"detail": "upstream_full: busy"},
    {"detail": [{"loc": ["body", "lead"], "msg": "bad", "type": "value_error"}]},
    {"detail": f"echoing the key {KEY}"},
]

BODIES = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=64).map(str.encode),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.sampled_from(VALID).flatmap(_mutated).map(lambda v: json.dumps(v).encode()),
    # Nested deeper than the json module's recursion limit.
    st.sampled_from([5, 999, 1000, 100_000]).map(lambda depth: b"[" * depth + b"]" * depth),
    st.sampled_from(
        [b"", b"null", b"<html><h1>502 Bad Gateway</h1></html>", b'{"detail": "x"', b"\xff\xfe\x00"]
    ),
)

HEADER_VALUE = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=20)
HEADERS = st.dictionaries(
    st.sampled_from(["retry-after", "content-type", "content-encoding", "x-request-id", "www-authenticate"]),
    HEADER_VALUE
    | st.sampled_from(
        [
            "1",
            "0",
            "-1",
            "nan",
            "inf",
            "1e400",
            "2.5",
            "application/json; charset=bogus",
            "gzip",
            "br",
            "zstd",
        ]
    ),
    max_size=3,
)

STATUSES = st.sampled_from(
    [200, 201, 202, 204, 301, 400, 401, 402, 403, 404, 409, 422, 429, 500, 502, 503]
) | st.integers(100, 599)

TRANSPORT_ERRORS = st.sampled_from(
    [
        httpx.ConnectError("refused"),
        httpx.ConnectTimeout("slow connect"),
        httpx.ReadTimeout("slow read"),
        httpx.WriteTimeout("slow write"),
        httpx.PoolTimeout("no connection"),
        httpx.ReadError("reset"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.LocalProtocolError("bad"),
        httpx.UnsupportedProtocol("gopher"),
        httpx.ProxyError("proxy"),
    ]
)

ANSWER = st.one_of(st.tuples(STATUSES, HEADERS, BODIES), TRANSPORT_ERRORS)


class Script:
    """Answers in order, the last one repeated (retries and polls meet it again)."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.sent = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        answer = self.answers[min(self.sent, len(self.answers) - 1)]
        self.sent += 1
        if isinstance(answer, Exception):
            raise answer
        status, headers, body = answer
        return httpx.Response(status, headers=headers, content=body)


ENDPOINTS: dict[str, Callable[[Any], Any]] = {
    "health": lambda c: c.health(),
    "usage": lambda c: c.usage(),
    "enrich": lambda c: c.leads.enrich(LEAD),
    "enrich_sync": lambda c: c.leads.enrich_sync(LEAD),
    "enrich_and_wait": lambda c: c.leads.enrich_and_wait(LEAD, timeout=30),
    "list": lambda c: c.leads.list(),
    "iter": lambda c: c.leads.iter(page_size=2),
    "get": lambda c: c.leads.get("ld_1"),
    "delete": lambda c: c.leads.delete("ld_1"),
    "re_enrich": lambda c: c.leads.re_enrich("ld_1"),
    "enrich_many": lambda c: c.leads.enrich_many([LEAD, {**LEAD, "company": "Other"}], progress=False),
    "enrich_many_auto": lambda c: c.leads.enrich_many([LEAD], max_credits="auto", progress=False),
    "preview_many": lambda c: c.leads.preview_many([LEAD, {**LEAD, "email": "ada@acme.com"}], progress=False),
    "job": lambda c: c.jobs.get("job_1"),
    "wait": lambda c: c.jobs.wait("job_1", timeout=30),
    "email": lambda c: c.email.find(**PERSON),
    "mobile": lambda c: c.mobile.find(**PERSON),
    "lookup": lambda c: c.mobile.get("mob_1"),
    "mobile_wait": lambda c: c.mobile.find_and_wait(**PERSON, timeout=30),
}


def run_sync(call: Callable[[Any], Any], handler: Callable[[httpx.Request], httpx.Response]) -> Any:
    with httpx.Client(transport=httpx.MockTransport(handler)) as http:
        client = LeadEnrich(KEY, base_url=BASE, clock=CLOCK, http_client=http, rate_limits=RateLimits())
        result = call(client)
        return list(islice(result, 5)) if inspect.isgenerator(result) else result


def run_async(call: Callable[[Any], Any], handler: Callable[[httpx.Request], httpx.Response]) -> Any:
    async def main() -> Any:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
            client = AsyncLeadEnrich(
                KEY, base_url=BASE, clock=CLOCK, http_client=http, rate_limits=RateLimits()
            )
            result = call(client)
            if inspect.isasyncgen(result):
                items = []
                async for item in result:
                    items.append(item)
                    if len(items) == 5:
                        break
                return items
            return await result

    return asyncio.run(main())


def only_typed_errors(run: Callable[[], Any]) -> None:
    """Run; anything but a LeadEnrichError propagates and fails the example."""
    error: LeadEnrichError | None = None
    try:
        run()
    except LeadEnrichError as exc:
        error = exc
    assert error is None or KEY not in str(error)


def waits_are_possible(clock: ManualClock, before: int) -> None:
    """Every wait asked of the clock is one time.sleep and asyncio.sleep can do."""
    assert all(0 <= s <= threading.TIMEOUT_MAX for s in clock.sleeps[before:])


@PROFILE
@given(endpoint=st.sampled_from(sorted(ENDPOINTS)), answers=st.lists(ANSWER, min_size=1, max_size=3))
def test_any_answer_is_a_result_or_a_typed_error_sync(endpoint: str, answers: list[Any]) -> None:
    before = len(CLOCK.sleeps)
    only_typed_errors(lambda: run_sync(ENDPOINTS[endpoint], Script(answers)))
    waits_are_possible(CLOCK, before)


@PROFILE
@given(endpoint=st.sampled_from(sorted(ENDPOINTS)), answers=st.lists(ANSWER, min_size=1, max_size=3))
def test_any_answer_is_a_result_or_a_typed_error_async(endpoint: str, answers: list[Any]) -> None:
    before = len(CLOCK.sleeps)
    only_typed_errors(lambda: run_async(ENDPOINTS[endpoint], Script(answers)))
    waits_are_possible(CLOCK, before)


@settings(PROFILE, max_examples=150)
@given(body=BODIES | JSON | st.dictionaries(st.text(max_size=8), JSON, max_size=4))
def test_any_callback_body_is_an_event_or_a_typed_error(body: Any) -> None:
    try:
        parse_event(body)
    except LeadEnrichError:
        pass
    except TypeError:
        assert not isinstance(body, (bytes, str, Mapping))


# --- arguments -----------------------------------------------------------------------


def service(request: httpx.Request) -> httpx.Response:
    """A well-behaved service, so that valid arguments go all the way through."""
    path, method = request.url.path.removeprefix("/api/v1"), request.method
    body: Any
    status = 200
    if path == "/health":
        body = {"status": "ok"}
    elif path == "/usage":
        body = USAGE
    elif path == "/leads/enrich":
        lead = json.loads(request.content)["lead"]
        if request.url.params.get("mode") == "sync":
            body = lead_out(input=lead, created_at="2099-01-01T00:00:00Z")
        else:
            status, body = 202, {"job_id": "job_1", "status": "queued"}
    elif path.startswith("/jobs/"):
        body = job_out(path.split("/")[-1], status="done", result=lead_out())
    elif path == "/leads":
        body = {"items": []}
    elif path.startswith("/leads/"):
        body = {"id": "ld_1", "deleted": True} if method == "DELETE" else lead_out()
    elif path == "/email/find":
        body = {"state": "found", "email": "ada@acme.com"}
    elif path == "/mobile/find":
        status, body = 202, {"lookup_id": "mob_1", "state": "pending"}
    else:
        body = {"lookup_id": path.split("/")[-1], "state": "settled", "mobile": "+15555550100"}
    return httpx.Response(status, json=body)


SCRATCH = Path(tempfile.mkdtemp(prefix="leadenrich-properties-"))
"""Where checkpoints go: strategies are built at import, so its path is chosen then."""


@pytest.fixture(autouse=True, scope="module")
def scratch() -> Iterator[Path]:
    # Filled at every setup: a worker may run this module's tests in two stretches, the
    # first one's teardown having emptied it.
    SCRATCH.mkdir(exist_ok=True)
    (SCRATCH / "garbage.jsonl").write_bytes(b"\x00\xffnot json\n{]\n")
    (SCRATCH / "a-directory").mkdir(exist_ok=True)
    yield SCRATCH
    shutil.rmtree(SCRATCH, ignore_errors=True)


ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers() | st.sampled_from([0, -1, 1, 2**63, -(2**63), 10**30]),
    st.floats() | st.sampled_from([0.0, -0.0, 1e-300, 1e300, math.inf, -math.inf, math.nan]),
    st.text(max_size=12),
    st.binary(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=6), st.integers() | st.text(max_size=6), max_size=3),
    st.builds(object),
    st.just(httpx.Timeout(1.0)),
)

# What each kind of parameter accepts; None means "the type checker lets anything by".
Check = Callable[[Any], bool] | None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_str_mapping(v: Any) -> bool:
    return isinstance(v, Mapping) and all(isinstance(k, str) for k in v)


def _is_str_to_str(v: Any) -> bool:
    return _is_str_mapping(v) and all(isinstance(x, str) for x in v.values())


def _is_lead(v: Any) -> bool:
    return isinstance(v, LeadIn) or _is_str_mapping(v)


KINDS: dict[str, tuple[st.SearchStrategy[Any], Check]] = {
    "id": (
        st.sampled_from(["ld_1", "job_1", "mob_1", "", " ", ".", "..", "a/b", "ü?#%"]) | st.text(max_size=12),
        lambda v: isinstance(v, str),
    ),
    "text": (
        st.sampled_from(["Ada", "https://linkedin.com/in/ada", "acme.com", ""]) | st.text(max_size=12),
        lambda v: v is None or isinstance(v, str),
    ),
    "int": (st.integers(-3, 600), _is_int),
    "opt_int": (st.integers(-3, 5), lambda v: v is None or _is_int(v)),
    "float": (st.floats(-1, 100) | st.sampled_from([0.001, 1e9]), _is_number),
    "opt_float": (st.floats(-1, 100), lambda v: v is None or _is_number(v)),
    "lead": (
        st.sampled_from(
            [LEAD, {"company": "A"}, {"company": "A", "domain": "https://a.com"}, {**LEAD, "x": 1}]
        )
        | st.dictionaries(st.sampled_from(["company", "domain", "email", "name", 1]), ANYTHING, max_size=4)
        | st.just(LeadIn(company="Obj", domain="obj.com")),
        _is_lead,
    ),
    "leads": (
        st.lists(
            st.sampled_from([LEAD, {**LEAD, "company": "B"}, {"company": "NoDomain"}, 7, None]), max_size=4
        ),
        None,
    ),
    "callback": (st.sampled_from([None, print, lambda *_: None]), lambda v: v is None or callable(v)),
    "progress": (
        st.sampled_from([None, False, True, lambda *_: None]),
        lambda v: v is None or isinstance(v, bool) or callable(v),
    ),
    "strategy": (st.sampled_from(["sync", "async", "fast", ""]), lambda v: v in ("sync", "async")),
    "max_credits": (
        st.integers(-3, 5) | st.sampled_from(["auto", "all", "AUTO"]),
        lambda v: v is None or v == "auto" or _is_int(v),
    ),
    "checkpoint": (
        st.sampled_from(["run.jsonl", "garbage.jsonl", "a-directory", "deep/er/run.jsonl"]).map(
            lambda n: str(SCRATCH / n)
        ),
        lambda v: v is None or isinstance(v, (str, os.PathLike)),
    ),
    "url": (
        st.sampled_from(["https://hooks.test/x", "not a url", "ftp://x", ""]),
        lambda v: v is None or isinstance(v, str),
    ),
    "timeout": (
        st.floats(-1, 100) | st.just(httpx.Timeout(2.0)),
        lambda v: v is None or _is_number(v) or isinstance(v, httpx.Timeout),
    ),
    "client_timeout": (
        st.floats(-1, 100) | st.just(httpx.Timeout(2.0)),
        lambda v: _is_number(v) or isinstance(v, httpx.Timeout),
    ),
    "headers": (
        st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2),
        lambda v: v is None or _is_str_to_str(v),
    ),
    "limits": (st.just(RateLimits()), lambda v: v is None or isinstance(v, RateLimits)),
    "query": (
        st.dictionaries(st.text(max_size=5), st.text(max_size=5) | st.integers() | st.booleans(), max_size=2),
        lambda v: (
            v is None or (_is_str_mapping(v) and all(isinstance(x, (str, int, float)) for x in v.values()))
        ),
    ),
    "clock": (st.just(CLOCK), lambda v: v is None or isinstance(v, ServiceClock)),
}

PERSON_PARAMS: dict[str, str] = dict.fromkeys(
    ("linkedin_url", "first_name", "last_name", "company_name", "domain"), "text"
)
REQUEST_PARAMS = {"timeout": "timeout", "extra_headers": "headers", "extra_query": "query"}
EXTRA_PARAMS = {"extra_headers": "headers", "extra_query": "query"}
WAIT_PARAMS = {"timeout": "float", "poll_interval": "opt_float", "on_progress": "callback", **EXTRA_PARAMS}
BULK_PARAMS = {
    "leads": "leads",
    "concurrency": "int",
    "max_credits": "max_credits",
    "checkpoint": "checkpoint",
    "progress": "progress",
    "poll_interval": "opt_float",
    "strategy": "strategy",
}
CONSTRUCTOR = {
    "api_key": "text",
    "base_url": "url",
    "timeout": "client_timeout",
    "max_retries": "int",
    "default_headers": "headers",
    "rate_limits": "limits",
    "max_retry_after": "float",
    "upstream_full_retries": "int",
    "clock": "clock",
}
METHODS: dict[str, dict[str, str]] = {
    "health": REQUEST_PARAMS,
    "usage": REQUEST_PARAMS,
    "with_options": CONSTRUCTOR,
    "leads.enrich": {"lead": "lead", "callback_url": "url", **REQUEST_PARAMS},
    "leads.enrich_sync": {"lead": "lead", **REQUEST_PARAMS},
    "leads.enrich_and_wait": {"lead": "lead", **WAIT_PARAMS},
    "leads.enrich_many": BULK_PARAMS,
    "leads.enrich_iter": BULK_PARAMS,
    "leads.preview_many": {
        "leads": "leads",
        "checkpoint": "checkpoint",
        "max_stored": "opt_int",
        "progress": "progress",
    },
    "leads.list": {"limit": "int", "skip": "int", **REQUEST_PARAMS},
    "leads.iter": {"page_size": "int", **REQUEST_PARAMS},
    "leads.get": {"lead_id": "id", **REQUEST_PARAMS},
    "leads.delete": {"lead_id": "id", **REQUEST_PARAMS},
    "leads.re_enrich": {"lead_id": "id", **REQUEST_PARAMS},
    "jobs.get": {"job_id": "id", **REQUEST_PARAMS},
    "jobs.wait": {"job_id": "id", **WAIT_PARAMS},
    "email.find": {**PERSON_PARAMS, **REQUEST_PARAMS},
    "mobile.find": {**PERSON_PARAMS, **REQUEST_PARAMS},
    "mobile.get": {"lookup_id": "id", **REQUEST_PARAMS},
    "mobile.wait": {"lookup_id": "id", **WAIT_PARAMS},
    "mobile.find_and_wait": {**PERSON_PARAMS, **WAIT_PARAMS},
}


def parameter_names(method: Any) -> set[str]:
    """The keywords a method takes, those of a `**kwargs: Unpack[SomeTypedDict]` included."""
    names: set[str] = set()
    # The SDK imports the models it names in annotations for type checkers only, so that
    # importing a client defines none: the public names resolve them here.
    public = {name: getattr(leadenrich, name) for name in leadenrich.__all__}
    hints = get_type_hints(method, localns=public, include_extras=True)
    for parameter in inspect.signature(method).parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            (typed_dict,) = get_args(hints[parameter.name])
            names |= set(get_type_hints(typed_dict, localns=public))
        else:
            names.add(parameter.name)
    return names


def test_the_tables_cover_every_public_parameter() -> None:
    client = LeadEnrich(KEY, base_url=BASE, clock=CLOCK)
    found: dict[str, set[str]] = {}
    for namespace in ("", "leads", "jobs", "email", "mobile"):
        owner = getattr(client, namespace) if namespace else client
        for name, method in inspect.getmembers(owner, callable):
            if not name.startswith("_") and name not in ("close",):
                found[f"{namespace}.{name}".lstrip(".")] = parameter_names(method)
    assert found == {name: set(params) for name, params in METHODS.items()}
    assert set(inspect.signature(LeadEnrich).parameters) - {"http_client"} == set(CONSTRUCTOR)


def arguments(table: dict[str, str]) -> st.SearchStrategy[dict[str, tuple[Any, bool]]]:
    """Some of the parameters, each a plausible value or anything at all, with whether it
    is of a type the annotation allows."""

    def one(kind: str) -> st.SearchStrategy[tuple[Any, bool]]:
        plausible, check = KINDS[kind]
        anything = ANYTHING
        if kind == "checkpoint":
            # Arbitrary text would be a path a run writes to, anywhere on the disk: paths
            # come from the plausible ones (in a scratch directory) only.
            anything = ANYTHING.filter(lambda v: not isinstance(v, (str, bytes, os.PathLike)))
        return (plausible | anything).map(lambda v: (v, check is None or check(v)))

    return st.fixed_dictionaries({}, optional={name: one(kind) for name, kind in table.items()})


def call_method(client: Any, name: str, kwargs: dict[str, Any]) -> Any:
    owner, _, method = name.rpartition(".")
    target = getattr(getattr(client, owner) if owner else client, method)
    positional = [kwargs.pop(p) for p in ("lead", "leads", "lead_id", "job_id", "lookup_id") if p in kwargs]
    if name in ("leads.enrich", "leads.enrich_sync", "leads.enrich_and_wait") and not positional:
        positional = [LEAD]
    if name in ("leads.enrich_many", "leads.enrich_iter", "leads.preview_many") and not positional:
        positional = [[LEAD]]
    if (
        name.endswith((".get", ".delete", ".re_enrich", ".wait"))
        and not positional
        and name != "mobile.find_and_wait"
    ):
        positional = ["x_1"]
    if name in ("email.find", "mobile.find", "mobile.find_and_wait") and not any(
        k in kwargs for k in PERSON_PARAMS
    ):
        kwargs.update(PERSON)
    return target(*positional, **kwargs)


def check_call(run: Callable[[], Any], args: dict[str, tuple[Any, bool]]) -> None:
    """Run; a TypeError is fine only if some argument was of a type the annotation refuses,
    and anything but a LeadEnrichError or a TypeError propagates and fails the example."""
    error: LeadEnrichError | TypeError | None = None
    try:
        run()
    except (LeadEnrichError, TypeError) as exc:
        error = exc
    if isinstance(error, TypeError):
        assert not all(ok for _, ok in args.values()), f"TypeError for well-typed arguments: {error}"
    assert error is None or KEY not in str(error)


@settings(PROFILE, max_examples=300)
@given(data=st.data(), name=st.sampled_from(sorted(METHODS)))
def test_any_arguments_to_any_method_sync(data: st.DataObject, name: str) -> None:
    args = data.draw(arguments(METHODS[name]))

    def run() -> None:
        with httpx.Client(transport=httpx.MockTransport(service)) as http:
            client = LeadEnrich(KEY, base_url=BASE, clock=CLOCK, http_client=http, rate_limits=None)
            result = call_method(client, name, {k: v for k, (v, _) in args.items()})
            if inspect.isgenerator(result):
                list(islice(result, 10))

    check_call(run, args)


@settings(PROFILE, max_examples=300)
@given(data=st.data(), name=st.sampled_from(sorted(METHODS)))
def test_any_arguments_to_any_method_async(data: st.DataObject, name: str) -> None:
    args = data.draw(arguments(METHODS[name]))

    async def main() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(service)) as http:
            client = AsyncLeadEnrich(KEY, base_url=BASE, clock=CLOCK, http_client=http, rate_limits=None)
            result = call_method(client, name, {k: v for k, (v, _) in args.items()})
            if inspect.isasyncgen(result):
                async for _ in result:
                    pass
            elif inspect.isawaitable(result):
                await result

    check_call(lambda: asyncio.run(main()), args)


@settings(PROFILE, max_examples=150)
@given(args=arguments(CONSTRUCTOR))
def test_any_client_options(args: dict[str, tuple[Any, bool]]) -> None:
    def run() -> None:
        kwargs = {k: v for k, (v, _) in args.items()}
        kwargs.setdefault("api_key", KEY)
        kwargs.setdefault("base_url", BASE)
        kwargs.setdefault("clock", CLOCK)
        with httpx.Client(transport=httpx.MockTransport(service)) as http:
            client = LeadEnrich(**kwargs, http_client=http)
            assert KEY not in repr(client)
            client.usage()

    check_call(run, args)


@settings(PROFILE, max_examples=80)
@given(
    args=arguments(
        {
            "sync_per_minute": "int",
            "async_per_minute": "int",
            "period": "float",
            "concurrent_enrichments": "int",
        }
    )
)
def test_any_rate_limits(args: dict[str, tuple[Any, bool]]) -> None:
    def run() -> None:
        limits = RateLimits(**{k: v for k, (v, _) in args.items()})
        with httpx.Client(transport=httpx.MockTransport(service)) as http:
            client = LeadEnrich(KEY, base_url=BASE, clock=CLOCK, http_client=http, rate_limits=limits)
            client.usage()
            client.leads.enrich_sync(LEAD)

    check_call(run, args)


# --- what the properties found, pinned ----------------------------------------------


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_json_nested_too_deep_is_a_typed_error(depth: int) -> None:
    nested = b"[" * depth + b"]" * depth
    for status in (404, 502):
        with pytest.raises(LeadEnrichError, match=str(status)):
            run_sync(
                ENDPOINTS["usage"], lambda request, status=status: httpx.Response(status, content=nested)
            )
    with pytest.raises(LeadEnrichError, match="not JSON"):
        parse_event(nested)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"api_key": "le_live_\u200bsecret"}, LeadEnrichError, "api_key contains characters"),
        ({"api_key": "le_live_s\u00e9cret"}, LeadEnrichError, "api_key contains characters"),
        ({"api_key": False}, TypeError, "api_key must be a str"),
        ({"base_url": "https://api.test/\x00"}, LeadEnrichError, "base_url is not a valid URL"),
        ({"default_headers": {"X-Team": "caf\u00e9"}}, LeadEnrichError, "X-Team"),
        ({"default_headers": {"bad name": "x"}}, LeadEnrichError, "bad name"),
        ({"default_headers": {"X-Count": 3}}, TypeError, "str values"),
        ({"timeout": math.inf}, LeadEnrichError, "at most"),
        ({"timeout": httpx.Timeout(5.0, read=1e12)}, LeadEnrichError, "timeout.read"),
        ({"max_retry_after": math.inf}, LeadEnrichError, "at most"),
    ],
)
def test_bad_client_options_fail_at_construction(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    # Each used to pass construction and fail on the first call, with a UnicodeEncodeError,
    # an httpx.InvalidURL or an OverflowError; the key never shows in the message.
    with pytest.raises(error, match=message) as raised:
        LeadEnrich(**{"api_key": KEY, "base_url": BASE, "clock": CLOCK, **options})
    assert "secret" not in str(raised.value)


def test_a_wait_forever_is_refused_before_anything_is_sent() -> None:
    sent: list[httpx.Request] = []
    with pytest.raises(LeadEnrichError, match="timeout must be at most"):
        run_sync(
            lambda c: c.leads.enrich_and_wait(LEAD, timeout=math.inf), lambda r: sent.append(r) or service(r)
        )
    assert sent == []


def test_leads_that_are_not_rows_are_an_invalid_request() -> None:
    # `leads` is annotated `Iterable[LeadLike] | Any` (for DataFrames), so no type checker
    # flags `None`: it is an InvalidRequestError, not a TypeError.
    with pytest.raises(LeadEnrichError, match="leads must be an iterable"):
        run_sync(lambda c: c.leads.enrich_many(None), service)


@pytest.mark.parametrize("name", ["", "a-directory"])
def test_a_checkpoint_that_cannot_be_read_is_a_typed_error(name: str) -> None:
    path = str(SCRATCH / name) if name else ""
    with pytest.raises(LeadEnrichError, match="cannot be read"):
        run_sync(lambda c: c.leads.enrich_many([LEAD], checkpoint=path, progress=False), service)


@pytest.mark.parametrize("value", ["inf", "1e400", "nan", "-1"])
def test_a_retry_after_no_clock_can_wait_is_ignored(value: str) -> None:
    # A bulk run waits out whatever a 429 asks: "inf" used to reach time.sleep and raise
    # OverflowError there.
    request = httpx.Request("GET", BASE + "/api/v1/usage")
    error = status_error(httpx.Response(429, headers={"Retry-After": value}, request=request))
    assert isinstance(error, RateLimitError)
    assert error.retry_after is None
