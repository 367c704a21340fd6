"""Every kind of failure: its exit code, one line on stderr, and never the API key."""

from __future__ import annotations

import csv
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadenrich import LeadEnrich
from leadenrich.testing import FakeServer
from tests.helpers import MakeServer

from .conftest import Run

ACME = ("--company", "Acme", "--domain", "acme.com")
FAST = ("--poll-interval", "0.01")


def test_a_bad_key_exits_3_without_showing_it(run: Run, server: FakeServer) -> None:
    bad = "le_live_" + "0" * 32
    result = run("usage", key=bad)
    assert result.code == 3
    assert "401" in result.error
    assert result.error == (
        "leadenrich: error: 401 Unauthorized from GET /api/v1/usage: missing or invalid API key; "
        "check the key given with --api-key or in LEADENRICH_API_KEY: it must be whole, as the "
        f"dashboard showed it, not revoked, and a key of the service at {server.url}"
    )
    assert result.out == ""


def test_a_key_of_any_shape_is_never_shown(run: Run) -> None:
    result = run("leads", "list", key="my-own-secret-key")
    assert result.code == 3
    # Even where argparse quotes the command line back.
    typo = run.bare(
        "usage", "--api-key", "my-own-secret-key", "my-own-secret-key", secrets=("my-own-secret-key",)
    )
    assert typo.code == 2
    assert "unrecognized arguments: ***" in typo.err
    mistyped = run.bare("usage", "--api-kye", "le_live_" + "1" * 32, secrets=("le_live_" + "1" * 32,))
    assert mistyped.code == 2


def test_a_plan_without_api_access_exits_3(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--sync", key=server.add_key("starter"))
    assert result.code == 3
    assert "403" in result.error


def test_no_credits_left_exits_4(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--sync", key=server.add_key(monthly_leads=0, credits=0))
    assert result.code == 4
    assert "402" in result.error


def test_a_rate_limit_exits_5(run: Run, make_server: MakeServer) -> None:
    # One request per 30 real seconds: the second is refused, and --max-retries 0 reports it at once.
    server = make_server(sync_per_minute=1, rate_window_seconds=6000.0)
    assert run("usage", server=server).code == 0
    result = run("usage", "--max-retries", "0", server=server)
    assert result.code == 5
    assert "429" in result.error
    assert "rate limit exceeded" in result.error


@pytest.mark.parametrize(
    "argv",
    [
        ("leads", "get", "ld_missing"),
        ("leads", "delete", "ld_missing"),
        ("jobs", "get", "job_missing"),
        ("mobile", "get", "mob_missing"),
    ],
)
def test_an_unknown_id_exits_6(run: Run, argv: tuple[str, ...]) -> None:
    result = run(*argv)
    assert result.code == 6
    assert "404" in result.error


def test_a_422_exits_2(run: Run) -> None:
    result = run("leads", "list", "--limit", "1000")
    assert result.code == 2
    assert "422" in result.error
    assert "query.limit" in result.error


def test_an_invalid_lead_exits_2_before_sending(run: Run, server: FakeServer) -> None:
    result = run("enrich", "--company", "Acme", "--domain", "https://acme.com", "--sync")
    assert result.code == 2
    assert "bare domain" in result.error
    assert server.state.requests() == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("enrich", "--company", "Acme"), "--domain"),
        (("usage", "--timeout", "0"), "must be a number of seconds > 0"),
        (("usage", "--max-retries", "-1"), "must be 0 or more"),
        (("leads", "list", "--limit", "0"), "must be 1 or more"),
        (("leads",), "required: ACTION"),
        (("enrich", *ACME, "--sync", "--wait"), "not allowed with argument"),
    ],
)
def test_bad_options_exit_2(run: Run, argv: tuple[str, ...], message: str) -> None:
    result = run.bare(*argv)
    assert result.code == 2
    assert message in result.err


def test_a_callback_needs_the_default_mode(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--sync", "--callback-url", server.callback_url())
    assert result.code == 2
    assert "--callback-url needs the default mode" in result.error
    assert server.state.requests() == []


def test_no_command_prints_help(run: Run) -> None:
    result = run.bare()
    assert result.code == 2
    assert "enrich-file" in result.err


def test_a_missing_key_or_url_exits_2(run: Run, server: FakeServer) -> None:
    no_key = run.bare("usage", "--base-url", server.url)
    assert no_key.code == 2
    assert "--api-key" in no_key.error
    assert "LEADENRICH_API_KEY" in no_key.error
    no_url = run.bare("usage", "--api-key", server.api_key, secrets=(server.api_key,))
    assert no_url.code == 2
    assert "LEADENRICH_BASE_URL" in no_url.error
    bad_url = run.bare(
        "usage", "--api-key", server.api_key, "--base-url", "ftp://x", secrets=(server.api_key,)
    )
    assert bad_url.code == 2
    assert "http://" in bad_url.error


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield int(listener.getsockname()[1])


def test_an_unreachable_service_exits_7(run: Run, closed_port: int) -> None:
    result = run.bare(
        "usage", "--api-key", "k" * 20, "--base-url", f"http://127.0.0.1:{closed_port}", "--max-retries", "0"
    )
    assert result.code == 7
    assert "before the request was sent" in result.error


@pytest.mark.parametrize("codes", ["", "2.0", "1.0"])
def test_enrich_file_stops_at_the_first_connection_failure_and_exits_7(
    run: Run, closed_port: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codes: str
) -> None:
    # An outage is not 23 failed leads: the run stops, and the exit code says why: 7, as
    # `usage` gives. LEADENRICH_EXIT_CODES=1.0 (deprecated) gives 1.0's 1, and a note of 7.
    monkeypatch.setenv("LEADENRICH_EXIT_CODES", codes)
    outage = 1 if codes == "1.0" else 7
    source, out = tmp_path / "leads.csv", tmp_path / "out.csv"
    source.write_text("company,domain\n" + "".join(f"Co{n},co{n}.com\n" for n in range(23)))
    unreachable = (
        "--api-key",
        "k" * 20,
        "--base-url",
        f"http://127.0.0.1:{closed_port}",
        "--max-retries",
        "0",
    )
    estimated = run.bare("enrich-file", str(source), "-o", str(out), *unreachable)
    assert estimated.code == outage
    assert estimated.note == (
        None
        if codes != "1.0"
        else "leadenrich: note: exit status 1, 1.0's, as LEADENRICH_EXIT_CODES=1.0 asks; without it 7 "
        "(the service out of reach), the only code from 2.0"
    )
    assert estimated.error.startswith(
        "leadenrich: error: GET /api/v1/usage failed before the request was sent"
    )
    assert estimated.error.endswith("; no lead was sent")
    assert not out.exists()
    # Without the estimate, the first lead meets the outage.
    result = run.bare(
        "enrich-file", str(source), "-o", str(out), *unreachable, "--no-estimate", "--concurrency", "1"
    )
    assert result.code == outage
    summary, error = result.err.splitlines()[:2]
    assert (result.note is None) == (codes != "1.0")
    assert (
        summary == f"leadenrich: 23 leads: 0 enriched, 1 failed, 22 not started; 0 credits spent; wrote {out}"
    )
    assert error.startswith(
        "leadenrich: error: POST /api/v1/leads/enrich failed before the request was sent: "
    )
    assert error.endswith(
        f"; the run stopped at line 2 of {source}, with 0 of 23 leads enriched: run the same command "
        "again once the service answers (nothing is paid twice)"
    )
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert [row["status"] for row in rows] == ["failed"] + ["skipped"] * 22
    assert rows[0]["error_type"] == "APIConnectionError"


def test_a_silent_service_exits_7(run: Run, silent_port: int) -> None:
    result = run.bare(
        "usage",
        "--api-key",
        "k" * 20,
        "--base-url",
        f"http://127.0.0.1:{silent_port}",
        "--timeout",
        "0.2",
        "--max-retries",
        "0",
    )
    assert result.code == 7
    assert "timed out" in result.error


@pytest.mark.parametrize("value", ["2", "v2", "1.1"])
def test_an_unknown_exit_code_setting_fails_before_anything_is_sent(
    run: Run, server: FakeServer, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("LEADENRICH_EXIT_CODES", value)
    result = run("enrich", *ACME, "--wait", *FAST)
    assert result.code == 2
    assert result.error == (
        "leadenrich: error: LEADENRICH_EXIT_CODES must be 1.0 (1.0's exit codes, until 2.0) or 2.0 "
        f"(today's, as when it is not set), not {value!r}"
    )
    assert server.state.jobs() == []
    assert server.state.charged("enrichment") == 0


def test_a_failed_job_exits_8(run: Run, server: FakeServer) -> None:
    failed = run("enrich", "--company", "Doomed", "--domain", "doomed.fail", "--wait", *FAST)
    assert failed.code == 8
    assert "enrichment_failed" in failed.error
    (job,) = server.state.jobs()
    # jobs get --wait shows the failed job, then fails too.
    shown = run("jobs", "get", job.job_id, "--wait", *FAST, "--json")
    assert shown.code == 8
    assert shown.json()["status"] == "failed"
    assert f"enrichment job {job.job_id} failed" in shown.error
    assert run("jobs", "get", job.job_id).code == 0  # a look without --wait is not a failure


@pytest.mark.parametrize("codes", ["2.0", "1.0", ""])
def test_a_wait_that_gives_up_exits_10_and_says_how_to_go_on(
    run: Run, make_server: MakeServer, monkeypatch: pytest.MonkeyPatch, codes: str
) -> None:
    # 10, not a failed job's 8: the job is still running, and a script may look again later.
    # LEADENRICH_EXIT_CODES=1.0 (deprecated) gives 8, as 1.0 did, and a note of 10.
    monkeypatch.setenv("LEADENRICH_EXIT_CODES", codes)
    still = 8 if codes == "1.0" else 10
    server = make_server(enrichment_seconds=(1000.0, 1000.0), mobile_lookup_seconds=(1000.0, 1000.0))
    result = run("enrich", *ACME, "--wait", "--wait-timeout", "0.2", "--poll-interval", "0.05", server=server)
    assert result.code == still
    assert result.note == (
        None
        if codes != "1.0"
        else "leadenrich: note: exit status 8, 1.0's, as LEADENRICH_EXIT_CODES=1.0 asks; without it 10 "
        "(still running, look again later), the only code from 2.0"
    )
    (job,) = server.state.jobs()
    assert f"leadenrich jobs get {job.job_id} --wait" in result.error
    again = run("jobs", "get", job.job_id, "--wait", "--wait-timeout", "0.2", *FAST, server=server)
    assert again.code == still
    lookup = run(
        "mobile",
        "find",
        "--linkedin-url",
        "https://www.linkedin.com/in/ada",
        "--wait",
        "--wait-timeout",
        "0.2",
        *FAST,
        server=server,
    )
    assert lookup.code == still
    assert "leadenrich mobile get mob_" in lookup.error
    assert server.state.jobs()[0].status in ("queued", "running")


def test_a_failed_sync_enrichment_exits_1(run: Run) -> None:
    result = run("enrich", "--company", "Doomed", "--domain", "doomed.fail", "--sync")
    assert result.code == 1
    assert "502" in result.error


def test_ctrl_c_exits_130_with_one_line(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: LeadEnrich) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(LeadEnrich, "usage", interrupted)
    result = run("usage")
    assert result.code == 130
    assert result.err == "leadenrich: interrupted\n"


def test_an_unexpected_failure_is_one_line(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: LeadEnrich) -> None:
        raise RuntimeError("something\nbroke")

    monkeypatch.setattr(LeadEnrich, "usage", broken)
    result = run("usage")
    assert result.code == 1
    assert result.error == "leadenrich: error: unexpected RuntimeError: something broke"


def test_the_sdks_python_advice_reads_as_options_and_commands() -> None:
    # shell_advice() rewrites the SDK's advice by its exact words: reworded there, it
    # would tell a shell user to call client.usage().
    from leadenrich import LeadEnrichError, _endpoints
    from leadenrich import _errors as sdk_errors
    from leadenrich._cli._messages import shell_advice

    advice = [
        _endpoints._FIND_THE_LEAD,  # pyright: ignore[reportPrivateUsage]
        _endpoints._CHECK_USAGE,  # pyright: ignore[reportPrivateUsage]
        *sdk_errors._HINTS.values(),  # pyright: ignore[reportPrivateUsage]
        *sdk_errors._FALLBACK_HINTS.values(),  # pyright: ignore[reportPrivateUsage]
    ]
    with pytest.raises(LeadEnrichError) as unreachable:
        LeadEnrich("k" * 20, base_url="http://127.0.0.1:1", max_retries=0).usage()
    advice.append(str(unreachable.value))
    for make in (
        lambda: LeadEnrich(base_url="http://127.0.0.1:1"),
        lambda: LeadEnrich("k" * 20),
        lambda: LeadEnrich(),
        lambda: LeadEnrich("k k", base_url="http://127.0.0.1:1"),
        lambda: LeadEnrich("k" * 20, base_url="127.0.0.1:1"),
        lambda: LeadEnrich("k" * 20, base_url="http://[::1"),
    ):
        with pytest.raises(LeadEnrichError) as missing:
            make()
        advice.append(str(missing.value))
    for text in advice:
        shell = shell_advice(text)
        assert not re.search(r"client\.|\w=|\(\)|api_key|base_url", shell), shell


def test_a_run_cut_short_says_to_run_the_same_command_again(tmp_path: Path) -> None:
    # enrich-file writes the rows a Ctrl-C left unfinished with read_checkpoint's words.
    from leadenrich import read_checkpoint
    from leadenrich._cli._messages import shell_advice

    unfinished = read_checkpoint([{"company": "Acme", "domain": "acme.com"}], tmp_path / "none.jsonl")
    message = shell_advice(str(unfinished.outcomes[0].error))
    assert message == "not finished in the checkpoint: run the same command again to go on"
