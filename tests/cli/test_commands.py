"""Every command against a fake server: readable output, JSON output, exit code 0."""

from __future__ import annotations

import re

import pytest

from leadenrich import EmailFindOut, JobOut, LeadPage, MobileFindOut, UsageOut
from leadenrich.testing import FakeServer

from .conftest import Result, Run

ACME = ("--company", "Acme Robotics", "--domain", "acme-robotics.com")
FAST = ("--poll-interval", "0.01")


def value_of(result: Result, key: str) -> str:
    """The value of a `key  value` line of readable output."""
    match = re.search(rf"^{re.escape(key)}  +(.*)$", result.out, re.MULTILINE)
    assert match, f"no {key!r} line in:\n{result.out}"
    return match[1]


def assert_aligned(text: str) -> None:
    """Every `key  value` line starts its value in the same column."""
    starts = {m.end() - m.start() for m in re.finditer(r"^\S.*?  +(?=\S)", text, re.MULTILINE)}
    assert len(starts) == 1, text


def test_health_needs_no_key(run: Run, server: FakeServer) -> None:
    result = run.bare("health", "--base-url", server.url)
    assert result.code == 0
    assert value_of(result, "status") == "ok"
    assert value_of(result, "version") == "1.0.0"
    assert run.bare("health", "--base-url", server.url, "--json").json() == {
        "status": "ok",
        "version": "1.0.0",
    }


def test_no_key_says_how_to_try_the_fake_server(run: Run) -> None:
    result = run.bare("usage")
    assert result.code == 2
    assert result.error == (
        "leadenrich: error: no --api-key or --base-url given: pass --api-key and --base-url or set the "
        "LEADENRICH_API_KEY and LEADENRICH_BASE_URL environment variables. To try the SDK without a key, "
        'use the bundled fake server (pip install "leadenrich[fake]"): run `leadenrich fake-server` in '
        "another terminal and export the variables it prints"
    )


def test_usage(run: Run, server: FakeServer) -> None:
    result = run("usage")
    assert result.code == 0
    assert value_of(result, "plan") == "growth"
    assert value_of(result, "leads used").startswith("0 of 1000 this month")
    assert value_of(result, "mobile credits") == "100 left (0 used of 100 bought)"
    assert_aligned(result.out)
    usage = UsageOut.model_validate(run("usage", "--json").json())
    assert usage.api_calls_this_month.this_key == 2


@pytest.mark.usefixtures("terminal")
def test_enrich_starts_a_job_by_default(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--name", "Ada Lovelace")
    assert result.code == 0
    (job,) = server.state.jobs()
    assert value_of(result, "job") == job.job_id
    assert value_of(result, "status") == "queued"
    assert f"leadenrich jobs get {job.job_id} --wait" in result.err
    assert job.result is None or job.result.input.name == "Ada Lovelace"


def test_enrich_prints_the_job_id_alone_when_captured(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME)  # stdout is not a terminal here, as in J=$(leadenrich enrich ...)
    assert result.code == 0
    (job,) = server.state.jobs()
    assert result.out == f"{job.job_id}\n"
    assert result.err == f"follow it with: leadenrich jobs get {job.job_id} --wait\n"


@pytest.mark.usefixtures("terminal")
@pytest.mark.parametrize("mode", [(), ("--sync",), ("--wait", *FAST)])
def test_enrich_quiet_prints_only_the_id(run: Run, server: FakeServer, mode: tuple[str, ...]) -> None:
    result = run("enrich", *ACME, "-q", *mode)
    assert result.code == 0
    assert result.err == ""
    (job_or_lead,) = server.state.leads() if mode else server.state.jobs()
    expected = job_or_lead.id if mode else job_or_lead.job_id  # type: ignore[union-attr]
    assert result.out == f"{expected}\n"


def test_enrich_quiet_and_json_do_not_mix(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--quiet", "--json")
    assert result.code == 2
    assert "argument --json: not allowed with argument -q/--quiet" in result.error
    assert server.state.jobs() == []


@pytest.mark.parametrize(
    "command", [("jobs", "get"), ("leads", "get"), ("leads", "delete"), ("mobile", "get")]
)
def test_an_id_with_whitespace_is_refused_before_sending(
    run: Run, server: FakeServer, command: tuple[str, ...]
) -> None:
    # What J=$(leadenrich enrich ...) captured when it printed labelled lines.
    captured = "job job_1\nstatus queued"
    result = run(*command, captured)
    assert result.code == 2
    assert result.error.endswith(
        "must not contain spaces or line breaks, got 'job job_1\\nstatus queued': pass the id alone"
    )
    assert server.state.requests() == []


def test_enrich_with_a_callback(run: Run, server: FakeServer) -> None:
    hook = server.callback_url("cli")
    created = run("enrich", *ACME, "--callback-url", hook, "--json").json()
    assert set(created) == {"job_id", "status"}
    assert server.state.wait_until(lambda: len(server.state.received_callbacks("cli")) == 1)
    assert server.state.received_callbacks("cli")[0]["job_id"] == created["job_id"]


def test_enrich_sync_prints_the_lead_readably(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--name", "Ada Lovelace", "--title", "VP Engineering", "--sync")
    assert result.code == 0
    (lead,) = server.state.leads()
    enrichment = lead.enrichment
    assert value_of(result, "lead") == lead.id
    assert value_of(result, "company") == "Acme Robotics (acme-robotics.com)"
    assert value_of(result, "contact") == "Ada Lovelace, VP Engineering"
    assert value_of(result, "score") == f"{enrichment.opportunity_score}/100"
    assert value_of(result, "tags") == ", ".join(enrichment.tags)
    assert value_of(result, "pain points") == ", ".join(enrichment.pain_points)
    first = enrichment.buying_committee[0]
    assert value_of(result, "committee").startswith(f"{first.name}, {first.title}")
    assert len(result.out.splitlines()) > 15
    assert_aligned(result.out)
    assert server.state.charged("enrichment", key=server.api_key) == 1


def test_enrich_sync_json_is_the_lead(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--email", "ada@acme-robotics.com", "--sync", "--json")
    assert result.code == 0
    assert result.json() == server.state.leads()[0].model_dump(mode="json")
    assert result.out.startswith('{\n  "id"')  # indented, as model_dump_json(indent=2)


def test_enrich_wait_polls_the_job(run: Run, server: FakeServer) -> None:
    result = run("enrich", *ACME, "--wait", *FAST, "--json")
    assert result.code == 0
    (job,) = server.state.jobs()
    assert job.status == "done"
    assert job.result is not None
    assert result.json()["id"] == job.result.id


def test_a_known_email_is_deduped(run: Run, server: FakeServer) -> None:
    run("enrich", *ACME, "--email", "ada@acme-robotics.com", "--sync")
    again = run("enrich", *ACME, "--email", "ada@acme-robotics.com", "--sync")
    assert value_of(again, "deduped").startswith("yes")
    assert server.state.charged("enrichment", key=server.api_key) == 1


def test_jobs_get(run: Run, server: FakeServer) -> None:
    job_id = run("enrich", *ACME, "--json").json()["job_id"]
    now = run("jobs", "get", job_id)
    assert now.code == 0
    assert value_of(now, "job") == job_id
    assert value_of(now, "kind") == "lead.enrich"
    done = JobOut.model_validate(run("jobs", "get", job_id, "--wait", *FAST, "--json").json())
    assert done.status == "done"
    assert done.result is not None
    readable = run("jobs", "get", job_id)
    assert value_of(readable, "status") == "done"
    assert value_of(readable, "lead") == done.result.id  # the lead follows the job


def test_email_find(run: Run, server: FakeServer) -> None:
    hit = run("email", "find", "--first-name", "Ada", "--last-name", "Lovelace", "--domain", "acme.com")
    assert hit.code == 0
    assert value_of(hit, "state") == "found"
    assert value_of(hit, "email") == "ada.lovelace@acme.com"
    miss = run("email", "find", "--linkedin-url", "https://linkedin.com/in/nobody", "--json")
    assert miss.code == 0  # a miss is an answer, not an error
    assert EmailFindOut.model_validate(miss.json()).state == "not_found"
    assert server.state.charged("email", key=server.api_key) == 1


@pytest.mark.parametrize(
    "person",
    [
        ("--first-name", "Ada"),
        ("--first-name", "Ada", "--last-name", "Lovelace"),
        ("--linkedin-url", "https://linkedin.com/in/ada", "--domain", "acme.com"),
        (),
    ],
)
def test_email_and_mobile_need_a_valid_combination(
    run: Run, server: FakeServer, person: tuple[str, ...]
) -> None:
    for command in ("email", "mobile"):
        result = run(command, "find", *person)
        assert result.code == 2
        assert (
            "either --linkedin-url alone, or --first-name + --last-name + (--company-name or --domain)"
            in (result.error)
        )
    assert server.state.requests() == []


def test_mobile_find_then_get(run: Run, server: FakeServer) -> None:
    pending = run("mobile", "find", "--linkedin-url", "https://linkedin.com/in/ada")
    assert pending.code == 0
    assert value_of(pending, "state") == "pending"
    lookup_id = value_of(pending, "lookup")
    assert f"leadenrich mobile get {lookup_id} --wait" in pending.err
    settled = MobileFindOut.model_validate(run("mobile", "get", lookup_id, "--wait", *FAST, "--json").json())
    assert settled.state == "settled"
    assert settled.mobile is not None
    assert value_of(run("mobile", "get", lookup_id), "mobile") == settled.mobile


def test_mobile_find_wait(run: Run, server: FakeServer) -> None:
    found = run(
        "mobile",
        "find",
        "--first-name",
        "Ada",
        "--last-name",
        "Lovelace",
        "--company-name",
        "Acme",
        "--wait",
        *FAST,
    )
    assert found.code == 0
    assert value_of(found, "state") == "settled"
    assert value_of(found, "mobile").startswith("+")
    refunded = run("mobile", "find", "--linkedin-url", "https://linkedin.com/in/landline", "--wait", *FAST)
    assert refunded.code == 0
    assert value_of(refunded, "state") == "refunded"
    assert server.state.charged("mobile", key=server.api_key) == 1


def test_leads_list_get_delete(run: Run, server: FakeServer) -> None:
    assert run("leads", "list").out.strip() == "no leads"
    for domain in ("acme.com", "globex.com", "initech.com"):
        run("enrich", "--company", domain.split(".")[0].title(), "--domain", domain, "--sync")
    newest, middle, oldest = server.state.leads()[::-1]

    table = run("leads", "list")
    assert table.code == 0
    header, *rows, _, footer = table.out.splitlines()
    assert header.split() == ["ID", "COMPANY", "DOMAIN", "CONTACT", "SCORE", "CREATED"]
    assert [row.split()[0] for row in rows] == [newest.id, middle.id, oldest.id]
    assert footer == "leads 1-3 of 3"
    page = run("leads", "list", "--limit", "1", "--skip", "1")
    assert page.out.splitlines()[-1] == "lead 2 of 3"
    assert run("leads", "list", "--skip", "1", "--limit", "2").out.splitlines()[-1] == "leads 2-3 of 3"
    assert run("leads", "list", "--skip", "3").out.strip() == "no leads after the first 3"
    assert [lead.id for lead in LeadPage.model_validate(run("leads", "list", "--json").json())] == [
        newest.id,
        middle.id,
        oldest.id,
    ]

    assert value_of(run("leads", "get", oldest.id), "company") == "Acme (acme.com)"
    assert run("leads", "get", middle.id, "--json").json() == middle.model_dump(mode="json")
    deleted = run("leads", "delete", newest.id)
    assert deleted.code == 0
    assert value_of(deleted, "deleted") == newest.id
    assert run("leads", "delete", middle.id, "--json").json() == {
        "id": middle.id,
        "deleted": True,
        "message": None,
    }
    assert [lead.id for lead in server.state.leads()] == [oldest.id]


def test_connection_options_go_before_or_after_the_command(run: Run, server: FakeServer) -> None:
    before = run.bare("--base-url", server.url, "--api-key", server.api_key, "usage", "--json")
    after = run.bare("usage", "--json", "--base-url", server.url, "--api-key", server.api_key)
    assert before.code == after.code == 0
    mixed = run.bare("--base-url", server.url, "usage", "--api-key", server.api_key, "--timeout", "5")
    assert mixed.code == 0


def test_the_environment_gives_key_and_url(
    run: Run, server: FakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEADENRICH_API_KEY", server.api_key)
    monkeypatch.setenv("LEADENRICH_BASE_URL", server.url)
    result = run.bare("usage", "--json", secrets=(server.api_key,))
    assert result.code == 0
    assert result.json()["tier"] == "growth"
    # An option wins over the environment.
    other = server.add_key("scale")
    assert run.bare("usage", "--json", "--api-key", other).json()["tier"] == "scale"


def test_help_documents_exit_codes_and_environment(run: Run) -> None:
    result = run.bare("--help")
    assert result.code == 0
    for text in ("LEADENRICH_API_KEY", "LEADENRICH_BASE_URL", "exit codes:", "130", "enrich-file"):
        assert text in result.out
    for code in range(11):
        assert re.search(rf"^  {code:<4}", result.out, re.MULTILINE)
    assert re.search(r"^  10   --wait gave up while the job or lookup still runs$", result.out, re.MULTILINE)
    # One code a line, and no word of another version's codes: the caveats are in docs/cli.md.
    assert re.search(r"^exit codes:\n(  \d+ +\S.*\n){13}\n", result.out, re.MULTILINE), result.out
    assert "LEADENRICH_EXIT_CODES" not in result.out
    assert "2.0" not in result.out
    assert len(result.out.splitlines()) <= 60
    file_help = run.bare("enrich-file", "--help").out
    assert "OUTPUT.checkpoint.jsonl" in file_help


def test_help_quotes_the_sdks_defaults(run: Run) -> None:
    # The parser is standard library only (for a fast --help), so it repeats them.
    from leadenrich._cli._parser import build_parser
    from leadenrich._config import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, LONG_RUNNING_READ_TIMEOUT
    from leadenrich._polling import (
        DEFAULT_JOB_TIMEOUT,
        DEFAULT_LOOKUP_TIMEOUT,
        DEFAULT_POLL_INTERVAL,
        FIRST_LOOK,
    )

    parser = build_parser()
    assert parser.parse_args(["jobs", "get", "j"]).wait_timeout == DEFAULT_JOB_TIMEOUT
    assert parser.parse_args(["mobile", "get", "m"]).wait_timeout == DEFAULT_LOOKUP_TIMEOUT
    text = " ".join(run.bare("jobs", "get", "--help").out.split())
    assert f"(default: {DEFAULT_TIMEOUT.read:g}; a synchronous enrichment gets at least " in text
    assert f"gets at least {LONG_RUNNING_READ_TIMEOUT:g})" in text
    assert f"(default: {DEFAULT_MAX_RETRIES};" in text
    assert f"(default: {DEFAULT_JOB_TIMEOUT:g})" in text
    assert f"first looked at {FIRST_LOOK:g} s old" in text
    assert f"pauses growing from {DEFAULT_POLL_INTERVAL:g} s" in text


def test_version(run: Run) -> None:
    from leadenrich import __version__

    result = run.bare("--version")
    assert result.code == 0
    assert result.out.strip() == f"leadenrich {__version__}"
