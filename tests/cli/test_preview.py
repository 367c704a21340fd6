"""`leadenrich preview`, and the estimate `enrich-file` prints before it starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from leadenrich.testing import FakeServer

from .conftest import Run
from .test_enrich_file import MISREAD, read_csv, write

LEADS = (
    "company,domain,email\n"
    "Initech,initech.com,peter@initech.com\n"  # line 2: its email is stored
    "Hooli,hooli.com,\n"  # line 3
    "Broken,,\n"  # line 4: invalid
    "Hooli,hooli.com,\n"  # line 5: repeats line 3
    "Globex,globex.com,\n"  # line 6
)


def test_preview_prints_the_summary_and_exits_0_when_the_account_can_pay(
    run: Run, server: FakeServer, tmp_path: Path
) -> None:
    assert (
        run(
            "enrich", "--company", "Old", "--domain", "old.com", "--email", "peter@initech.com", "--sync"
        ).code
        == 0
    )
    charged = server.state.charged("enrichment")
    result = run("preview", write(tmp_path, LEADS))
    assert result.code == 0, result.err
    lines = dict(line.split("  ", 1) for line in result.out.splitlines() if not line.startswith(" "))
    assert {key.strip(): value.strip() for key, value in lines.items()} == {
        "leads": "5",
        "to enrich": "2",
        "already stored": "1 (free: the service returns the stored lead)",
        "in the checkpoint": "0 (free)",
        "repeated rows": "1 (free: they share the first one's result)",
        "invalid": "1",
        "credits at most": "2",
        "credits left": "999",
        "verdict": "enough",
        "stored leads": f"read all 1 stored lead, back to {server.state.leads()[0].created_at:%Y-%m-%d}",  # type: ignore[str-format]
    }
    assert "line 4: invalid lead: domain is missing" in result.out
    assert server.state.charged("enrichment") == charged


def test_preview_json_and_exit_9_when_the_credits_left_do_not_cover_the_run(
    run: Run, server: FakeServer, tmp_path: Path
) -> None:
    key = server.add_key(monthly_leads=1, credits=0)
    result = run("preview", write(tmp_path, LEADS), "--json", key=key)
    assert result.code == 9
    body = result.json()
    assert body["totals"]["credits_at_most"] == 3
    assert body["totals"]["credits_left"] == 1
    assert (body["totals"]["enough"], body["totals"]["fits"]) == (False, 1)
    assert body["totals"]["verdict"] == "not enough: 1 of 3 leads to enrich fit"
    assert [row["status"] for row in body["rows"]] == ["new", "new", "invalid", "duplicate", "new"]
    assert body["rows"][3]["duplicate_of"] == 1
    assert server.state.charged("enrichment") == 0


def test_preview_counts_the_checkpoint_enrich_file_would_use(run: Run, tmp_path: Path) -> None:
    source = write(tmp_path, "company,domain\nInitech,initech.com\n")
    out = tmp_path / "out.csv"
    assert run("enrich-file", source, "-o", str(out), "--no-estimate").code == 0
    checkpoint = str(tmp_path / "out.csv.checkpoint.jsonl")
    result = run(
        "preview",
        write(tmp_path, "company,domain\nInitech,initech.com\nHooli,hooli.com\n"),
        "--checkpoint",
        checkpoint,
        "--json",
    )
    assert [row["status"] for row in result.json()["rows"]] == ["checkpoint", "new"]


def test_enrich_file_prints_the_estimate_unless_told_not_to(run: Run, tmp_path: Path) -> None:
    first = write(tmp_path, "company,domain,email\nInitech,initech.com,peter@initech.com\n", "first.csv")
    quiet = run("enrich-file", first, "-o", str(tmp_path / "quiet.csv"), "--no-estimate")
    assert quiet.code == 0
    assert "estimate" not in quiet.err
    loud = run("enrich-file", write(tmp_path, LEADS), "-o", str(tmp_path / "loud.csv"))
    assert loud.err.splitlines()[0] == (
        "leadenrich: estimate: 5 leads: 2 to enrich, 1 already stored, 1 repeated, 1 invalid; "
        "at most 2 credits, 999 left: enough"
    )


@pytest.mark.parametrize(
    ("refusal", "code", "said"),
    [
        ("bad key", 3, "401 Unauthorized from GET /api/v1/usage: missing or invalid API key; check the key"),
        ("plan without the API", 3, "403 Forbidden from GET /api/v1/usage: the starter plan does not"),
        ("no credits", 4, "402 Payment Required from GET /api/v1/usage: "),
    ],
)
def test_enrich_file_sends_nothing_when_the_estimate_was_refused(
    run: Run, server: FakeServer, tmp_path: Path, refusal: str, code: int, said: str
) -> None:
    key = {"bad key": "le_live_" + "0" * 32, "plan without the API": server.add_key("starter")}.get(refusal)
    if refusal == "no credits":
        server.fail_next("GET", "/api/v1/usage", status=402)
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, LEADS), "-o", str(out), key=key)
    assert result.code == code
    assert result.error.startswith(f"leadenrich: error: {said}")
    assert result.error.endswith("; no lead was sent")
    assert [request.path for request in server.state.requests()] == ["/api/v1/usage"]
    assert not out.exists()


def test_enrich_file_goes_on_without_an_estimate_when_the_service_fails_it(
    run: Run, server: FakeServer, tmp_path: Path
) -> None:
    # A 5xx of the estimate's own requests says nothing of the leads: the run goes on.
    server.fail_next("GET", "/api/v1/usage", "server_error", status=503, times=3)
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, "company,domain\nHooli,hooli.com\n"), "-o", str(out))
    assert result.code == 0, result.err
    assert result.err.startswith("leadenrich: no estimate: 503 ")
    assert [row["status"] for row in read_csv(out)] == ["enriched"]


def test_enrich_file_max_credits_auto_stops_at_what_is_left(
    run: Run, server: FakeServer, tmp_path: Path
) -> None:
    key = server.add_key(monthly_leads=2, credits=0)
    text = "company,domain\n" + "".join(f"Co{n},co{n}.com\n" for n in range(4))
    out = tmp_path / "out.csv"
    result = run(
        "enrich-file",
        write(tmp_path, text),
        "-o",
        str(out),
        "--max-credits",
        "auto",
        "--concurrency",
        "1",
        key=key,
    )
    assert result.code == 1
    assert [row["status"] for row in read_csv(out)] == ["enriched", "enriched", "skipped", "skipped"]
    assert 402 not in server.state.status_counts(key)
    assert run("enrich-file", write(tmp_path, text), "-o", str(out), "--max-credits", "all").code == 2


def test_max_stored_bounds_the_reading(run: Run, tmp_path: Path) -> None:
    assert (
        run(
            "enrich", "--company", "Old", "--domain", "old.com", "--email", "peter@initech.com", "--sync"
        ).code
        == 0
    )
    result = run("preview", write(tmp_path, LEADS), "--max-stored", "0", "--json")
    totals = result.json()["totals"]
    # Not read, the stored email is not known: its row is counted as charged.
    assert (totals["stored_read"], totals["stored"], totals["credits_at_most"]) == (0, 0, 3)
    assert (
        "no stored lead was read: max_stored is 0"
        in run("preview", write(tmp_path, LEADS), "--max-stored", "0").out
    )


@pytest.mark.parametrize(("inputs", "message"), MISREAD)
def test_preview_refuses_what_enrich_file_refuses(
    run: Run, server: FakeServer, tmp_path: Path, inputs: str, message: str
) -> None:
    result = run("preview", write(tmp_path, inputs))
    assert result.code == 2
    assert message in result.error
    assert server.state.requests() == []
