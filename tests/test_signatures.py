"""Every method that takes its keywords as `**x: Unpack[SomeTypedDict]` names them at run
time too: `inspect.signature` (and so `help()`, IPython's `?` and Jupyter's Shift-Tab)
shows each key of the TypedDict as a keyword with its default, on both clients and on the
raw views."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leadenrich import AsyncLeadEnrich, BulkOptions, ClientSettings, LeadEnrich, PersonQuery
from tests.helpers import help_text
from tests.test_surface import NAMESPACES

# The defaults public-api.md's tables give; a keyword of with_options left out keeps the
# client's setting.
DEFAULTS: dict[str, dict[str, Any]] = {
    "BulkOptions": {
        "concurrency": 5,
        "max_credits": None,
        "checkpoint": None,
        "progress": None,
        "poll_interval": None,
        "strategy": "sync",
    },
    "PersonQuery": dict.fromkeys(PersonQuery.__annotations__),
    "ClientSettings": dict.fromkeys(ClientSettings.__annotations__, "<unchanged>"),
}
TYPED_DICTS: dict[str, Any] = {
    "BulkOptions": BulkOptions,
    "PersonQuery": PersonQuery,
    "ClientSettings": ClientSettings,
}
UNPACK = re.compile(r"^Unpack\[(\w+)\]$")


def methods() -> Iterator[tuple[str, Any]]:
    """Every public method of both clients, their namespaces and their raw views."""
    for client in (
        LeadEnrich("k", base_url="https://api.test"),
        AsyncLeadEnrich("k", base_url="https://api.test"),
    ):
        owners = [("", client), ("with_raw_response.", client.with_raw_response)]
        for name in NAMESPACES:
            namespace = getattr(client, name)
            owners += [(f"{name}.", namespace), (f"{name}.with_raw_response.", namespace.with_raw_response)]
        for prefix, owner in owners:
            for attr, member in inspect.getmembers(owner, inspect.ismethod):
                if not attr.startswith("_"):
                    yield f"{type(client).__name__}.{prefix}{attr}", member


def unpacked(method: Any) -> str | None:
    """The TypedDict a method's `**keywords` are written as, in its source's annotations."""
    for annotation in method.__func__.__annotations__.values():
        if isinstance(annotation, str) and (match := UNPACK.match(annotation)):
            return match[1]
    return None


SPREAD = [(name, method, typed) for name, method in methods() if (typed := unpacked(method)) is not None]


def test_every_method_of_the_issue_takes_a_typed_dict() -> None:
    # The scan above must find what it is meant to: every such method of both clients.
    found = {name.partition(".")[2] for name, _, _ in SPREAD}
    assert found == {
        "leads.enrich_many",
        "leads.enrich_iter",
        "email.find",
        "email.with_raw_response.find",
        "mobile.find",
        "mobile.find_and_wait",
        "mobile.with_raw_response.find",
        "with_options",
    }
    assert len(SPREAD) == 2 * len(found)


@pytest.mark.parametrize(("name", "method", "typed"), SPREAD, ids=[name for name, _, _ in SPREAD])
def test_the_run_time_signature_names_each_key_of_the_typed_dict(name: str, method: Any, typed: str) -> None:
    parameters = inspect.signature(method).parameters
    assert not [p for p in parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD]
    typed_dict = TYPED_DICTS[typed]
    keys = list(typed_dict.__annotations__)
    # The keys come first among the keywords, in the TypedDict's order.
    keywords = [p.name for p in parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    assert keywords[: len(keys)] == keys
    for key in keys:
        parameter = parameters[key]
        expected = DEFAULTS[typed][key]
        shown = repr(parameter.default) if expected == "<unchanged>" else parameter.default
        assert shown == expected, f"{name}: {key}"
        # The annotation as the TypedDict writes it (a string, as every annotation of
        # the SDK's signatures is), with an alias spelled out: no bare `MaxCredits`.
        written = typed_dict.__annotations__[key].__forward_arg__
        assert parameter.annotation == SPELLED.get(written, written), f"{name}: {key}"


SPELLED = {
    "MaxCredits": "int | Literal['auto'] | None",
    "ProgressOption": "bool | Callable[[BulkOutcome], object] | None",
    "Strategy": "Literal['sync', 'async']",
}


def test_help_shows_the_keywords() -> None:
    client = LeadEnrich("k", base_url="https://api.test")
    [signature] = [
        line for line in help_text(client.leads.enrich_many).splitlines() if line.startswith("enrich_many(")
    ]
    # Every type spelled out, as a reader can write it: no alias they cannot import.
    assert signature.startswith(
        "enrich_many(leads: 'Iterable[LeadIn | LeadDict | Mapping[str, Any]] | DataFrameLike', *, "
        "concurrency: 'int' = 5, max_credits: \"int | Literal['auto'] | None\" = None, "
    )
    assert "progress: 'bool | Callable[[BulkOutcome], object] | None' = None" in signature
    assert "strategy: \"Literal['sync', 'async']\" = 'sync'" in signature
    # Args names every keyword, and the twins' help (enrich_iter, the async client's) is
    # as complete.
    twin = AsyncLeadEnrich("k", base_url="https://api.test")
    for method in (
        client.leads.enrich_many,
        client.leads.enrich_iter,
        twin.leads.enrich_many,
        twin.leads.enrich_iter,
    ):
        text = help_text(method)
        args = text[text.index("Args:") : text.index("Examples:")]
        for key in ("leads", *BulkOptions.__annotations__):
            assert f"    {key}: " in args, key
    assert "][" not in (BulkOptions.__doc__ or "")  # no link syntax of the reference in help()
    assert "checkpoint: 'str | os.PathLike[str] | None' = None" in signature
    assert "**options" not in signature
    person = help_text(client.email.find)
    assert "find(*, linkedin_url: 'str | None' = None, first_name: 'str | None' = None" in person


def test_a_runs_defaults_are_those_its_signature_shows() -> None:
    # The bulk runner takes the options with defaults of its own: they must agree.
    from leadenrich._bulk.runner import prepare

    written = inspect.signature(prepare).parameters
    assert {key: written[key].default for key in BulkOptions.__annotations__} == DEFAULTS["BulkOptions"]


def test_a_keyword_the_signature_does_not_show_is_still_refused() -> None:
    client = LeadEnrich("k", base_url="https://api.test")
    with pytest.raises(TypeError, match="unknown setting"):
        client.with_options(max_retrys=3)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    with pytest.raises(TypeError):
        inspect.signature(client.leads.enrich_many).bind([], concurency=3)


def test_the_api_reference_shows_the_run_time_signature() -> None:
    # mkdocs reads the source through griffe; docs/extensions/run_time.py gives
    # it the signature help() shows.
    import griffe

    root = Path(__file__).resolve().parent.parent
    extensions = griffe.load_extensions(str(root / "docs" / "extensions" / "run_time.py"))
    module = griffe.load(
        "leadenrich._resources.mobile", extensions=extensions, search_paths=[str(root)], resolve_aliases=False
    )
    method = module["Mobile.find_and_wait"]
    shown = [(p.name, p.kind.value, p.default) for p in method.parameters]
    expected = inspect.signature(LeadEnrich("k", base_url="https://api.test").mobile.find_and_wait)
    assert [name for name, _, _ in shown[1:]] == list(expected.parameters)
    assert ("first_name", "keyword-only", "None") in shown
