"""enrich-file: CSV in, CSV or JSON Lines out, resumable, with exit codes for failed leads."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Literal

import pytest

from leadenrich._cli._enrich_file import column_order
from leadenrich.testing import FakeServer

from .conftest import Run

LEADS = (
    "Company,Domain,Name,Owner\n"  # header case does not matter, Owner is not a lead field
    "Initech,initech.com,Peter Gibbons,bob\n"
    "Hooli,hooli.com,,alice\n"  # an empty cell is a missing value
    "Globex,globex.com,Hank Scorpio,\n"
)


def write(tmp_path: Path, text: str, name: str = "leads.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_csv_to_csv(run: Run, server: FakeServer, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, LEADS), "-o", str(out))
    assert result.code == 0, result.err
    assert result.out == ""
    assert result.err == (
        "leadenrich: estimate: 3 leads: 3 to enrich; at most 3 credits, 1000 left: enough\n"
        f"leadenrich: 3 leads: 3 enriched, 0 failed; 3 credits spent; wrote {out}\n"
    )
    rows = read_csv(out)
    assert [row["input_company"] for row in rows] == ["Initech", "Hooli", "Globex"]
    assert [row["status"] for row in rows] == ["enriched"] * 3
    assert rows[1]["input_name"] == ""
    assert "owner" not in {key.lower() for key in rows[0]}
    stored = {lead.id: lead for lead in server.state.leads()}
    first = stored[rows[0]["lead_id"]]
    assert first.input.name == "Peter Gibbons"
    assert rows[0]["opportunity_score"] == str(first.enrichment.opportunity_score)
    assert rows[0]["tags"] == "; ".join(first.enrichment.tags)
    assert server.state.charged("enrichment", key=server.api_key) == 3
    assert (tmp_path / "out.csv.checkpoint.jsonl").exists()


def test_csv_to_jsonl(run: Run, server: FakeServer, tmp_path: Path) -> None:
    out = tmp_path / "out.JSONL"
    result = run("enrich-file", write(tmp_path, LEADS), "--output", str(out), "--concurrency", "2")
    assert result.code == 0, result.err
    lines = out.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert [record["index"] for record in records] == [0, 1, 2]
    stored = {lead.id: lead for lead in server.state.leads()}
    assert {record["lead"]["id"] for record in records} == set(stored)
    assert records[1]["input"]["name"] is None
    # The structure is kept: the whole lead as the API returns it, lists as lists.
    for record in records:
        assert record["lead"] == stored[record["lead"]["id"]].model_dump(mode="json")
        assert isinstance(record["lead"]["enrichment"]["tags"], list)
        assert isinstance(record["lead"]["enrichment"]["buying_committee"][0], dict)
        assert record["error"] is None
        assert record["charged"] is True


def test_jsonl_keeps_the_error_as_an_object(run: Run, server: FakeServer, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = run("enrich-file", write(tmp_path, "company,domain\nDoomed,doomed.fail\n"), "-o", str(out))
    assert result.code == 1
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record["status"] == "failed"
    assert record["lead"] is None
    assert record["input"] == {
        "company": "Doomed",
        "domain": "doomed.fail",
        "name": None,
        "email": None,
        "title": None,
        "linkedin_url": None,
    }
    assert record["error"]["type"] == "InternalServerError"
    assert record["error"]["status"] == 502
    # The service's refund, and one piece of advice to go with it: nothing to look up.
    assert record["error"]["message"].endswith(
        "so nothing was charged or stored for it (nothing to look up)."
    )


def test_a_second_run_resumes_from_the_checkpoint(run: Run, server: FakeServer, tmp_path: Path) -> None:
    source, out = write(tmp_path, LEADS), tmp_path / "out.csv"
    assert run("enrich-file", source, "-o", str(out)).code == 0
    first = read_csv(out)
    again = run("enrich-file", source, "-o", str(out))
    assert again.code == 0
    assert "3 enriched (3 from an earlier run)" in again.err
    assert "0 credits spent" in again.err
    assert server.state.charged("enrichment", key=server.api_key) == 3
    assert [row["lead_id"] for row in read_csv(out)] == [row["lead_id"] for row in first]


def test_a_named_checkpoint_serves_another_output(run: Run, server: FakeServer, tmp_path: Path) -> None:
    source, checkpoint = write(tmp_path, LEADS), tmp_path / "run.jsonl"
    assert (
        run("enrich-file", source, "-o", str(tmp_path / "a.csv"), "--checkpoint", str(checkpoint)).code == 0
    )
    assert checkpoint.exists()
    assert not (tmp_path / "a.csv.checkpoint.jsonl").exists()
    result = run("enrich-file", source, "-o", str(tmp_path / "b.jsonl"), "--checkpoint", str(checkpoint))
    assert result.code == 0
    assert server.state.charged("enrichment", key=server.api_key) == 3


def test_failed_leads_exit_1_and_keep_their_row(run: Run, server: FakeServer, tmp_path: Path) -> None:
    text = "company,domain\nBroken,\nInitech,initech.com\nDoomed,doomed.fail\n"
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, text), "-o", str(out))
    assert result.code == 1
    estimate, summary, error = result.err.splitlines()
    assert (
        estimate
        == "leadenrich: estimate: 3 leads: 2 to enrich, 1 invalid; at most 2 credits, 1000 left: enough"
    )
    assert summary.startswith("leadenrich: 3 leads: 1 enriched, 2 failed; 1 credit spent")
    source = tmp_path / "leads.csv"
    # Advice for each kind: a rerun cannot mend a row, and can retry the 5xx.
    assert error == (
        f"leadenrich: error: 2 of 3 leads not enriched (see the error column of {out}), the first "
        f"on line 2 of {source}: invalid lead: domain is missing; correct the invalid row in "
        f"{source}, and run the same command again to retry the other 1 lead: nothing is paid twice"
    )
    rows = read_csv(out)
    assert [row["status"] for row in rows] == ["failed", "enriched", "failed"]
    assert [row["error_type"] for row in rows] == ["InvalidRequestError", "", "InternalServerError"]
    assert "the credit was refunded" in rows[2]["error"]
    assert "client." not in rows[2]["error"]  # no advice in Python
    assert "client." not in rows[2]["error"]
    # The first row failed, yet the enrichment columns sit between the lead and the error.
    columns = list(rows[0])
    assert columns.index("created_at") < columns.index("opportunity_score") < columns.index("error_type")


@pytest.mark.parametrize(
    ("text", "advice"),
    [
        pytest.param(
            "company,domain\nInitech,initech.com\nBroken,\n",
            "1 of 2 leads not enriched, on line 3 of {source}: invalid lead: domain is missing; "
            "correct the row in {source}",
            id="a row refused before sending: mend it",
        ),
        pytest.param(
            "company,domain\nBroken,\nInitech,initech.com\nAlso broken,https://x.io\n",
            "2 of 3 leads not enriched (see the error column of {out}), the first on line 2 of "
            "{source}: invalid lead: domain is missing; correct the 2 rows in {source}",
            id="rows refused before sending: mend them",
        ),
        pytest.param(
            "company,domain\nDoomed,doomed.fail\n",
            "1 of 1 lead not enriched, on line 2 of {source}: 502 Bad Gateway from POST "
            "/api/v1/leads/enrich: enrichment_failed: could not enrich doomed.fail: no company data "
            "was found for this domain; the credit was refunded; run the same command again to "
            "retry it: nothing is paid twice",
            id="a 5xx: a rerun may help",
        ),
    ],
)
def test_the_closing_advice_fits_the_failure(
    run: Run, server: FakeServer, tmp_path: Path, text: str, advice: str
) -> None:
    source, out = write(tmp_path, text), tmp_path / "out.csv"
    result = run("enrich-file", source, "-o", str(out), "--no-estimate")
    assert result.code == 1
    *_, error = result.err.splitlines()
    assert error == "leadenrich: error: " + advice.format(source=source, out=out)


def test_a_refused_account_gets_no_rerun_advice(run: Run, server: FakeServer, tmp_path: Path) -> None:
    # Without the estimate, the run meets the refusal: its reason says what to do, and the
    # same command again would only be refused again.
    out = tmp_path / "out.csv"
    text = "company,domain\nBroken,\nInitech,initech.com\n"
    result = run(
        "enrich-file", write(tmp_path, text), "-o", str(out), "--no-estimate", key="le_live_" + "0" * 32
    )
    assert result.code == 3
    *_, error = result.err.splitlines()
    # The refusal is named, not the invalid row before it.
    assert "the first on line 3 of " in error
    assert error.endswith(f"a key of the service at {server.url}")
    assert "run the same command again" not in error


def test_one_lead_is_one_lead(run: Run, server: FakeServer, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, "company,domain\nHooli,hooli.com\n"), "-o", str(out))
    assert result.err.splitlines() == [
        "leadenrich: estimate: 1 lead: 1 to enrich; at most 1 credit, 1000 left: enough",
        f"leadenrich: 1 lead: 1 enriched, 0 failed; 1 credit spent; wrote {out}",
    ]


def test_column_order_keeps_each_records_order() -> None:
    failed = {"index": 0, "status": "failed", "lead_id": None, "error": "x"}
    done = {"index": 1, "status": "enriched", "lead_id": "ld", "score": 5, "tags": "", "error": None}
    assert column_order([failed, done]) == ["index", "status", "lead_id", "score", "tags", "error"]
    assert column_order([done, failed]) == column_order([failed, done])


def test_max_credits_leaves_the_rest_not_started(run: Run, server: FakeServer, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    result = run(
        "enrich-file", write(tmp_path, LEADS), "-o", str(out), "--max-credits", "1", "--concurrency", "1"
    )
    assert result.code == 1
    assert "1 enriched, 0 failed, 2 not started; 1 credit spent" in result.err
    rows = read_csv(out)
    assert [row["status"] for row in rows] == ["enriched", "skipped", "skipped"]
    # In the command's terms: an option, not a Python keyword.
    assert rows[1]["error"] == "not started: --max-credits 1 is reached (1 credit spent)"
    assert result.err.rstrip().endswith("run the same command again to retry them: nothing is paid twice")
    assert server.state.charged("enrichment", key=server.api_key) == 1


@pytest.mark.parametrize(
    ("quota", "advice"),
    [
        (0, "the account has no enrichment credits left this month ('leadenrich usage' shows them)"),
        (1, "run with --max-credits auto to enrich the 1 lead that fit"),
    ],
)
def test_credits_that_cannot_pay_stop_the_run_before_sending(
    run: Run, server: FakeServer, tmp_path: Path, quota: int, advice: str
) -> None:
    # Sent anyway, every lead past the credits left would meet a 402.
    key = server.add_key(monthly_leads=quota, credits=0)
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, LEADS), "-o", str(out), key=key)
    assert result.code == 9
    assert result.error == (
        f"leadenrich: error: 3 leads: 3 to enrich; at most 3 credits, {quota} left: not enough: "
        f"{quota} of 3 leads to enrich fit; no lead was sent: {advice}"
    )
    assert server.state.leads() == []
    assert 402 not in server.state.status_counts(key)
    assert not out.exists()
    if quota:
        # What the advice says: the lead that fits is enriched, the others are not started.
        fitted = run("enrich-file", write(tmp_path, LEADS), "-o", str(out), "--max-credits", "auto", key=key)
        assert fitted.code == 1
        assert [row["status"] for row in read_csv(out)] == ["enriched", "skipped", "skipped"]
        assert server.state.charged("enrichment", key=key) == 1
        assert 402 not in server.state.status_counts(key)


def test_credits_that_cannot_pay_exit_4_with_the_1_0_codes(
    run: Run, server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A script written for 1.0 read the 402s' 4; it keeps it, nothing sent, and learns of 9.
    monkeypatch.setenv("LEADENRICH_EXIT_CODES", "1.0")
    key = server.add_key(monthly_leads=0, credits=0)
    result = run("enrich-file", write(tmp_path, LEADS), "-o", str(tmp_path / "out.csv"), key=key)
    assert result.code == 4
    assert result.note == (
        "leadenrich: note: exit status 4, 1.0's, as LEADENRICH_EXIT_CODES=1.0 asks; without it 9 "
        "(the credits left do not cover the run), the only code from 2.0"
    )
    assert server.state.leads() == []


@pytest.mark.parametrize(("tier", "quota", "code"), [("starter", 1000, 3), ("growth", 0, 4)])
def test_a_refused_account_exits_like_a_single_call(
    run: Run, server: FakeServer, tmp_path: Path, tier: Literal["starter", "growth"], quota: int, code: int
) -> None:
    # Without the estimate, which would have stopped it before sending (test_preview.py).
    key = server.add_key(tier, monthly_leads=quota, credits=0)
    out = tmp_path / "out.csv"
    result = run(
        "enrich-file", write(tmp_path, LEADS), "-o", str(out), "--concurrency", "1", "--no-estimate", key=key
    )
    assert result.code == code
    assert {row["status"] for row in read_csv(out)} <= {"failed", "skipped"}


def test_semicolons_blank_rows_and_a_bom(run: Run, server: FakeServer, tmp_path: Path) -> None:
    source = tmp_path / "excel.csv"
    source.write_text(
        "\ufeffCompany;Domain;LinkedIn URL\nInitech;initech.com;\n;;\nHooli;hooli.com;https://linkedin.com/in/gavin\n",
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    result = run("enrich-file", str(source), "-o", str(out))
    assert result.code == 0, result.err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["input"]["company"] for r in records] == ["Initech", "Hooli"]
    assert records[1]["input"]["linkedin_url"] == "https://linkedin.com/in/gavin"


def test_a_file_of_no_leads(run: Run, server: FakeServer, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, "company,domain\n"), "-o", str(out))
    assert result.code == 0
    assert out.read_text() == ""
    assert "0 leads" in result.err


MISREAD = [
    pytest.param(
        'company,domain\nInitech,initech.com\n"Hooli,hooli.com\nGlobex,globex.com\n',
        "leads.csv line 3: a quote opened here is never closed",
        id="a quote never closed",
    ),
    pytest.param(
        'company,domain\n"Hooli" Inc,hooli.com\n',
        "leads.csv line 2: a value goes on after its closing quote",
        id="a quote closed too soon",
    ),
    pytest.param(
        'company,domain\nHooli,"hooli.com\nGlobex,globex.com"\nInitech,initech.com\n',
        "leads.csv line 2: the domain value runs on to line 3",
        id="a quote closed rows later",
    ),
    pytest.param(
        "Company,Domain,company\nHooli,hooli.com,Hooli XYZ\n",
        "the header gives the lead's company in columns 1 and 3 ('Company' and 'company')",
        id="a column named twice",
    ),
    pytest.param(
        "company,domain,LinkedIn URL,linkedin_url\nHooli,hooli.com,,\n",
        "the lead's linkedin_url in columns 3 and 4 ('LinkedIn URL' and 'linkedin_url')",
        id="a column named twice, spelt two ways",
    ),
]
"""Files the reader would have misread: each names the line or the column, and exits 2."""


@pytest.mark.parametrize(
    ("inputs", "output", "message"),
    [
        (LEADS, "out.xlsx", "name it .csv or .jsonl"),
        (LEADS, "out", "name it .csv or .jsonl"),
        (LEADS, "missing/out.csv", "does not exist"),
        (LEADS, "leads.csv", "must not be the input file"),
        (
            "name,email\nAda,ada@acme.com\n",
            "out.csv",
            "has no company or domain column (its columns: name, email)",
        ),
        ("", "out.csv", "has no header row"),
        (None, "out.csv", "no such file"),
    ],
)
def test_unusable_files_exit_2_before_sending(
    run: Run, server: FakeServer, tmp_path: Path, inputs: str | None, output: str, message: str
) -> None:
    source = write(tmp_path, inputs) if inputs is not None else str(tmp_path / "absent.csv")
    result = run("enrich-file", source, "-o", str(tmp_path / output))
    assert result.code == 2
    assert message in result.error
    assert server.state.requests() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == (["leads.csv"] if inputs is not None else [])


@pytest.mark.parametrize(("inputs", "message"), MISREAD)
def test_a_file_that_would_be_misread_exits_2_naming_the_line_or_column(
    run: Run, server: FakeServer, tmp_path: Path, inputs: str, message: str
) -> None:
    out = tmp_path / "out.csv"
    result = run("enrich-file", write(tmp_path, inputs), "-o", str(out))
    assert result.code == 2
    assert message in result.error
    assert server.state.requests() == []
    assert not out.exists()


def test_columns_of_other_data_may_repeat_and_hold_line_breaks(
    run: Run, server: FakeServer, tmp_path: Path
) -> None:
    # Only the lead's fields are read: a notes column, twice and on two lines, is no error.
    text = 'company,domain,notes,notes\nHooli,hooli.com,"call back\nafter May",x\n'
    result = run("enrich-file", write(tmp_path, text), "-o", str(tmp_path / "out.csv"), "--no-estimate")
    assert result.code == 0, result.err
    assert [lead.input.company for lead in server.state.leads()] == ["Hooli"]


def test_not_utf8_exits_2(run: Run, server: FakeServer, tmp_path: Path) -> None:
    source = tmp_path / "latin.csv"
    source.write_bytes("company,domain\nCaf\xe9,cafe.com\n".encode("latin-1"))
    result = run("enrich-file", str(source), "-o", str(tmp_path / "out.csv"))
    assert result.code == 2
    assert "not UTF-8" in result.error


def test_a_terminal_gets_a_progress_bar(
    run: Run, server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    result = run("enrich-file", write(tmp_path, LEADS), "-o", str(tmp_path / "out.csv"))
    assert result.code == 0
    assert "enriching" in result.err
    assert result.err.rstrip().splitlines()[-1].startswith("leadenrich: 3 leads: 3 enriched")
