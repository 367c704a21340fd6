"""The progress rules of docs/bulk.md, for a bulk run and a preview's reading of the stored
leads: a bar only when interactive (a terminal, a notebook) unless asked for, none when
told not to, and plain lines on stderr where tqdm is not installed."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator

import pytest

from leadenrich import LeadDict
from leadenrich.testing import FakeServer
from tests.helpers import call

from .conftest import Client

pytestmark = pytest.mark.anyio

ROWS: list[LeadDict] = [
    {"company": "Acme", "domain": "acme.com"},
    {"company": "Globex", "domain": "globex.com"},
]


def stderr_is_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Called in the test: capsys puts in its own stderr only once the test runs.
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)


@pytest.fixture(autouse=True)
def not_in_a_notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)


@pytest.fixture
def in_a_notebook(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the SDK looks for; tqdm.auto, outside a real kernel, still draws a text bar.
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))


@pytest.fixture
def without_tqdm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As where tqdm is not installed: importing it fails, as it would."""
    for name in [name for name in sys.modules if name == "tqdm" or name.startswith("tqdm.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "tqdm", None)
    yield
    with pytest.raises(ImportError):
        import tqdm  # noqa: F401  (still hidden: the test ran without it)


async def enrich(client: Client, capsys: pytest.CaptureFixture[str], **options: object) -> str:
    capsys.readouterr()
    result = await call(client.leads.enrich_many(ROWS, concurrency=1, **options))
    assert result.succeeded == 2
    return capsys.readouterr().err


async def test_no_bar_unless_interactive(client: Client, capsys: pytest.CaptureFixture[str]) -> None:
    assert await enrich(client, capsys) == ""


async def test_a_terminal_gets_a_bar_that_counts_leads(
    client: Client, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stderr_is_a_terminal(monkeypatch)
    err = await enrich(client, capsys)
    assert "enriching: 100%|" in err
    assert "| 2/2 leads [" in err
    assert "lead/s" not in err
    assert await enrich(client, capsys, progress=False) == ""


@pytest.mark.usefixtures("in_a_notebook")
async def test_a_notebook_gets_a_bar(client: Client, capsys: pytest.CaptureFixture[str]) -> None:
    assert "| 2/2 leads [" in await enrich(client, capsys)


async def test_a_bar_when_asked_for_anywhere(client: Client, capsys: pytest.CaptureFixture[str]) -> None:
    assert "| 2/2 leads [" in await enrich(client, capsys, progress=True)


@pytest.mark.usefixtures("without_tqdm")
async def test_without_tqdm_plain_lines_when_asked_for(
    client: Client, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stderr_is_a_terminal(monkeypatch)
    # One line on a terminal, rewritten in place as each lead completes.
    assert await enrich(client, capsys, progress=True) == (
        "\rleadenrich: 1/2 leads\x1b[K\rleadenrich: 2/2 leads\x1b[K\n"
    )
    # Interactive, but not asked for: the default shows a bar only with tqdm.
    assert await enrich(client, capsys) == ""


@pytest.mark.usefixtures("without_tqdm")
async def test_without_tqdm_a_log_gets_a_line_a_tenth(
    client: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    rows: list[LeadDict] = [{"company": f"Co{n}", "domain": f"co{n}.com"} for n in range(24)]
    rows[5] = {"company": "Doomed", "domain": "doomed.fail"}  # the fake fails this enrichment
    capsys.readouterr()
    result = await call(client.leads.enrich_many(rows, concurrency=5, progress=True))
    assert result.failed == 1
    lines = capsys.readouterr().err.splitlines()
    # 24 leads: a line once 3, 5, 8, 10, 12, 15, 17, 20, 22 and 24 are done, not 24 lines.
    assert len(lines) == 10, lines
    assert lines[-1] == "leadenrich: 24/24 leads (1 failed or not started)"
    done = [int(line.split()[1].split("/")[0]) for line in lines]
    assert done == [3, 5, 8, 10, 12, 15, 17, 20, 22, 24]


async def test_the_preview_reading_counts_stored_leads(
    client: Client, server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    await call(client.leads.enrich_many([{**ROWS[0], "email": "ada@acme.com"}], progress=False))
    asked = [{**ROWS[1], "email": "nobody@globex.com"}]  # not stored: the whole listing is read
    capsys.readouterr()
    await call(client.leads.preview_many(asked))
    assert capsys.readouterr().err == ""
    await call(client.leads.preview_many(asked, progress=True))
    err = capsys.readouterr().err
    assert "stored leads: 1 read [" in err
    assert "lead/s" not in err


@pytest.mark.usefixtures("without_tqdm")
async def test_the_preview_reading_without_tqdm(client: Client, capsys: pytest.CaptureFixture[str]) -> None:
    await call(client.leads.enrich_many([{**ROWS[0], "email": "ada@acme.com"}], progress=False))
    capsys.readouterr()
    await call(client.leads.preview_many([{**ROWS[1], "email": "nobody@globex.com"}], progress=True))
    assert capsys.readouterr().err == "leadenrich: 1 stored lead read\n"
