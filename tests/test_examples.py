"""Every example runs against the bundled fake server and prints what it promises."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from leadenrich.testing import FakeServer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def start_example(
    name: str, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LEADENRICH_")}
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, **(env or {})},
        cwd=cwd,
    )


def run_example(name: str, *args: str, cwd: Path | None = None) -> str:
    result = start_example(name, *args, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_quickstart() -> None:
    out = run_example("quickstart.py")
    first = out.splitlines()[0]
    assert re.fullmatch(
        r"LEADENRICH_API_KEY is not set: talking to the bundled fake server at "
        r"http://127\.0\.0\.1:\d+/api/v1 \(made-up data, no real credits\)",
        first,
    ), first
    assert "Ada Lovelace at Acme Robotics (acme-robotics.com), lead ld_" in out
    assert re.search(r"^  score: +\d{1,3}/100: An? [a-z ]+ company with ", out, re.MULTILINE), out
    assert "credits used this month: 1 of 1000" in out


def test_quickstart_on_the_exports_of_a_fake_server_spends_no_real_credits() -> None:
    # What a user pastes from `leadenrich fake-server`: a key, and an address on this machine.
    with FakeServer() as server:
        exports = {
            "LEADENRICH_API_KEY": server.api_key,
            "LEADENRICH_BASE_URL": server.url,
            "LEADENRICH_TIME_SCALE": str(server.clock.scale),
        }
        done = start_example("quickstart.py", env=exports)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == (
        f"talking to {exports['LEADENRICH_BASE_URL']}/api/v1, a server on this machine (LEADENRICH_API_KEY is set; "
        "the fake that `leadenrich fake-server` starts spends no real credits)"
    )
    assert "credits used this month: 1 of 1000" in done.stdout


def test_quickstart_with_a_key_but_no_base_url_is_one_line() -> None:
    done = start_example("quickstart.py", env={"LEADENRICH_API_KEY": "le_live_half_set_0123456789"})
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("quickstart: no base_url given")
    assert "LEADENRICH_BASE_URL" in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "le_live_half_set_0123456789" not in done.stderr


def test_webhook_receiver() -> None:
    out = run_example("webhook_receiver.py")
    lines = out.splitlines()
    assert lines[0].startswith("job job_")
    assert "done, confirmed with the API: lead ld_" in lines[1]
    assert "of Initech" in lines[1]


def test_async_quickstart() -> None:
    out = run_example("async_quickstart.py")
    lines = out.splitlines()
    for company in ("Acme Robotics", "Globex", "Initech", "Hooli"):
        row = next(line for line in lines if line.startswith(company))
        assert re.search(r"score +\d{1,3}/100 .*people +\(lead ld_\w+\)$", row), row
    assert re.search(r"^4 of 4 leads enriched concurrently in \d+\.\d s$", lines[-1]), lines[-1]


def test_bulk_enrich(tmp_path: Path) -> None:
    out = run_example("bulk_enrich.py", cwd=tmp_path)
    # In the current directory, where the README says the sample goes.
    assert "no input given: wrote a sample of 20 leads to leads.csv" in out
    sample, enriched = Path("leads.csv"), Path("leads-enriched.csv")
    assert (tmp_path / sample).is_file()
    assert "20 leads from leads.csv, one row each in leads-enriched.csv:" in out
    assert "its last three rows show a failure before sending" in out
    assert "succeeded: 18 (1 deduped, 0 from an earlier run)" in out
    assert "failed:    2" in out
    assert "credits:   17" in out
    assert "row 18 (Vandelay Industries) failed: InvalidRequestError: invalid lead: domain" in out
    assert "row 19 (Defunct Dynamics) failed: InternalServerError: 502" in out
    with (tmp_path / enriched).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["status"] for row in rows].count("enriched") == 17
    assert rows[19]["status"] == "deduped"
    assert rows[19]["lead_id"] == rows[0]["lead_id"]
    assert 0 <= int(rows[0]["opportunity_score"]) <= 100

    # On the fake server, which starts empty on every run, no checkpoint is kept: nothing
    # of it would be there to resume from.
    assert "no checkpoint kept: the bundled fake server starts empty on every run" in out
    assert not (tmp_path / "leads-enriched.csv.checkpoint.jsonl").exists()
    # Without arguments again: the sample is reused.
    again = run_example("bulk_enrich.py", cwd=tmp_path)
    assert "no input given: using the sample leads.csv written by an earlier run" in again
    assert "succeeded: 18 (1 deduped, 0 from an earlier run)" in again


def test_bulk_enrich_never_takes_someone_s_leads_csv_unasked(tmp_path: Path) -> None:
    mine = "company,domain\nMine,mine.com\n"
    (tmp_path / "leads.csv").write_text(mine, encoding="utf-8")
    done = start_example("bulk_enrich.py", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("leads.csv here is not the sample: to enrich it, run python ")
    assert len(done.stderr.splitlines()) == 1
    assert (tmp_path / "leads.csv").read_text(encoding="utf-8") == mine
    assert not (tmp_path / "leads-enriched.csv").exists()


def test_email_and_mobile() -> None:
    out = run_example("email_and_mobile.py")
    lines = out.splitlines()
    assert re.fullmatch(
        r"email of Ada Lovelace: found ada\.lovelace@acme-robotics\.com \(verified, score [\d.]+\)", lines[0]
    )
    assert lines[1] == "email of Nemo Nobody: not_found, no credit charged"
    assert re.fullmatch(
        r"mobile of https://\S+/in/ada-lovelace: settled \+\d{11} \(lookup mob_\w+\)", lines[2]
    )
    assert lines[3] == "mobile of Pat Landline: refunded, no number and no credit charged"
    assert lines[4].startswith("not sent: invalid email search: linkedin_url must be given alone")
    assert lines[5] == "enrichment credits used this month (email hits included): 1"
    assert lines[6] == "mobile credits used: 1, left: 99"


@pytest.fixture
def venv_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A `python3` kernelspec that runs this interpreter, ahead of any other on the path.

    The stock spec says `python`, which resolves to whatever is first on PATH; the notebook
    must run with the SDK this test imports.
    """
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Python 3 (test)", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    # jupyter_core warns about its path migration unless this is set; warnings are errors here.
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")
    for name in [n for n in os.environ if n.startswith("LEADENRICH_")]:
        monkeypatch.delenv(name)
    return "python3"


def cell_text(cell: Any) -> str:
    """Everything a code cell showed: streams, and the plain-text form of its results."""
    parts: list[str] = []
    for output in cell.outputs:
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(output.data.get("text/plain", ""))
        elif output.output_type == "error":
            parts.append(f"{output.ename}: {output.evalue}")
    return "".join(parts)


def test_notebook(venv_kernel: str, tmp_path: Path) -> None:
    import nbformat
    from nbclient import NotebookClient

    path = EXAMPLES / "notebook.ipynb"
    committed = nbformat.read(path, as_version=4)
    nbformat.validate(committed)
    code = [cell for cell in committed.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code), "clear the outputs"

    notebook = nbformat.read(path, as_version=4)
    # A probe after the DataFrame cell reports exactly what the notebook displayed.
    probe = nbformat.v4.new_code_cell(
        "import json\nprint(json.dumps({'shape': df.shape, 'columns': list(df.columns)}))"
    )
    probe.id = "probe"
    position = next(i for i, cell in enumerate(notebook.cells) if cell.get("id") == "dataframe")
    notebook.cells.insert(position + 1, probe)
    NotebookClient(
        notebook, timeout=60, kernel_name=venv_kernel, resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    cells = {cell.id: cell for cell in notebook.cells if cell.cell_type == "code"}

    assert "talking to http://127.0.0.1:" in cell_text(cells["connect"])
    preview = cells["preview"].outputs[0].data
    assert (
        "BulkPreview(rows=7, new=7, credits_at_most=7, credits_left=1000, enough=True)"
        in preview["text/plain"]
    )
    assert "BulkPreview of 7 leads" in preview["text/html"]
    bulk = cell_text(cells["bulk-sync"])
    assert "succeeded 6, failed 1, deduped 0, credits spent 6" in bulk
    # A text bar ends at 7/7; with ipywidgets installed the bar is a widget instead.
    widget = "application/vnd.jupyter.widget-view+json"
    shows_widget = any(widget in output.get("data", {}) for output in cells["bulk-sync"].outputs)
    assert "7/7" in bulk or shows_widget, "no progress bar"
    assert "succeeded 4, failed 0" in cell_text(cells["bulk-async"])
    shown = cells["dataframe"].outputs[0].data
    for column in ("input_company", "status", "opportunity_score", "company_overview_industry", "tags"):
        assert f"<th>{column}</th>" in shown["text/html"]
    frame = json.loads(cell_text(cells["probe"]))
    assert frame["shape"][0] == 7
    assert {"index", "status", "lead_id", "opportunity_score", "error_type"} <= set(frame["columns"])
    errors = cell_text(cells["errors"])
    assert "Defunct Dynamics: InternalServerError" in errors
    assert "404: " in errors
    assert all(output.output_type != "error" for cell in cells.values() for output in cell.outputs)


EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.iterdir() if p.suffix in (".py", ".ipynb"))


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_every_example_is_tested(name: str) -> None:
    tested = {n.removeprefix("test_").replace("_", "") for n in globals() if n.startswith("test_")}
    assert Path(name).stem.replace("_", "") in tested, f"examples/{name} has no test"


def test_telemetry() -> None:
    """Prints the SDK's spans and metrics, and nothing of the fake server's."""
    out = run_example("telemetry.py")
    lines = out.splitlines()
    spans = [line for line in lines if line.startswith("span ")]
    # Only the SDK's, each attempt before the call it belongs to.
    assert all(
        re.match(r"span (leads\.enrich_and_wait|leads\.enrich_many|GET|POST) ", line) for line in spans
    )
    call = next(i for i, line in enumerate(spans) if line.startswith("span leads.enrich_and_wait "))
    assert spans[0].startswith("span POST /api/v1/leads/enrich ")
    assert spans[call - 1].startswith("span GET /api/v1/jobs/{job_id} ")
    assert "leadenrich.credits.charged=1" in spans[call]
    assert re.search(r"^span leads\.enrich_many \(\d+ ms\) leadenrich\.bulk\.leads=2, ", out, re.MULTILINE), (
        out
    )
    assert "2 enriched in bulk for 2 credits" in lines
    assert re.search(
        r"^metric leadenrich\.bulk\.leads \{'leadenrich\.bulk\.outcome': 'enriched', 'leadenrich\.bulk\.resumed': False\}: 2$",
        out,
        re.MULTILINE,
    ), out
    assert re.search(
        r"^metric leadenrich\.requests .*'url\.template': '/api/v1/jobs/\{job_id\}'", out, re.MULTILINE
    )
    assert "metric http.server" not in out
