"""The installed `leadenrich` script, in a process of its own: exit codes, pipes, Ctrl-C."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from leadenrich._cli._enrich_file import checkpoint_for
from leadenrich.testing import FakeServer
from tests.helpers import MakeServer, age_checkpoint, installed

from .conftest import Run


@pytest.fixture(scope="module")
def script() -> str:
    """The installed `leadenrich` script (missing: a skip, or in CI a failure)."""
    return installed("leadenrich")


def environment(server: FakeServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADENRICH_")}
    return {
        **env,
        "LEADENRICH_API_KEY": server.api_key,
        "LEADENRICH_BASE_URL": server.url,
        "LEADENRICH_TIME_SCALE": str(server.settings.time_scale),  # as fake-server's exports say
    }


def test_the_script_reads_the_environment(server: FakeServer, script: str) -> None:
    done = subprocess.run(
        [script, "usage", "--json"], env=environment(server), capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tier"] == "growth"
    assert done.stderr == ""


def test_python_dash_m_runs_the_command(server: FakeServer) -> None:
    # For a Python whose scripts folder is not on PATH: the same command, the same exit codes.
    done = subprocess.run(
        [sys.executable, "-m", "leadenrich", "leads", "get", "ld_missing"],
        env=environment(server),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 6, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("leadenrich: error: 404 ")


def test_a_shell_pipeline_captures_the_job_id_and_follows_it(server: FakeServer, script: str) -> None:
    pipeline = (
        'J=$("$LEADENRICH" enrich --company Acme --domain acme.com) && '
        '"$LEADENRICH" jobs get "$J" --wait --poll-interval 0.01 --json'
    )
    done = subprocess.run(
        ["/bin/sh", "-c", pipeline],
        env={**environment(server), "LEADENRICH": script},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    (job,) = server.state.jobs()
    followed = json.loads(done.stdout)
    assert followed["job_id"] == job.job_id
    assert followed["status"] == "done"
    assert followed["result"]["input"]["company"] == "Acme"
    # The hint went to stderr, where the person running the pipeline sees it.
    assert done.stderr == f"follow it with: leadenrich jobs get {job.job_id} --wait\n"


def test_the_script_fails_with_one_line(server: FakeServer, script: str) -> None:
    done = subprocess.run(
        [script, "leads", "get", "ld_missing"],
        env=environment(server),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 6
    assert done.stdout == ""
    assert done.stderr.startswith("leadenrich: error: 404 ")
    assert len(done.stderr.splitlines()) == 1
    assert server.api_key not in done.stderr


def test_a_closed_pipe_is_not_a_traceback(server: FakeServer, script: str) -> None:
    process = subprocess.Popen(
        [script, "health"], env=environment(server), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    process.stdout.close()  # like `| head` leaving before the answer is printed
    _, err = process.communicate(timeout=30)
    assert process.returncode == 1  # the answer could not be written
    assert err == ""


def at_a_terminal(*argv: str) -> list[str]:
    """The command, run with Ctrl-C as a terminal delivers it.

    A test run started in the background (`pytest &` in a script) inherits an ignored
    SIGINT, and so would the command: the Python that runs it first catches SIGINT, and a
    caught signal is back to its default in the program it then becomes.
    """
    restore = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "os.execv(sys.argv[1], sys.argv[1:])"
    )
    return [sys.executable, "-c", restore, *argv]


def leads_file(tmp_path: Path, count: int) -> Path:
    source = tmp_path / "leads.csv"
    source.write_text("company,domain\n" + "".join(f"Co{n},co{n}.com\n" for n in range(count)))
    return source


def start_enrich_file(
    script: str, server: FakeServer, tmp_path: Path, count: int, in_flight: int
) -> tuple[subprocess.Popen[str], Path]:
    """Start enrich-file and return once `in_flight` of its leads are being enriched.

    A signal sent sooner would race the pool's start-up: it would land while the runner
    is still starting its workers, a state no user can reach by pressing Ctrl-C on a run
    they watch.
    """
    out = tmp_path / "out.csv"
    process = subprocess.Popen(
        # No estimate first: the first line on stderr is then the SDK's notice of a Ctrl-C.
        at_a_terminal(
            script, "enrich-file", str(leads_file(tmp_path, count)), "-o", str(out), "--no-estimate"
        ),
        env=environment(server),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.state.wait_until(lambda: server.state.in_flight == in_flight, timeout=20)
    return process, out


def test_ctrl_c_lets_the_leads_in_flight_finish(
    make_server: MakeServer, run: Run, tmp_path: Path, script: str
) -> None:
    # Enrichments of 0.3 s, five at a time: Ctrl-C lands while five are in flight.
    server = make_server(enrichment_seconds=(30.0, 30.0), time_scale=0.01)
    process, out = start_enrich_file(script, server, tmp_path, 12, in_flight=5)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    *notices, interrupted = err.splitlines()
    paid = server.state.charged("enrichment", key=server.api_key)
    assert interrupted == (
        f"leadenrich: interrupted; wrote {out} with {paid} of 12 leads finished so far; "
        f"the finished leads are saved in {checkpoint_for(out)}: run the same command again to go on"
    ), err
    # The SDK says it is finishing the leads in flight, unless Ctrl-C landed between two
    # outcomes (it then finishes them all the same, silently).
    assert len(notices) <= 1, err
    assert all(line.startswith("leadenrich: finishing ") for line in notices), err
    assert "Traceback" not in err
    assert 0 < paid < 12
    # The output holds the leads done so far; the others are marked not started.
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert [row["index"] for row in rows] == [str(n) for n in range(12)]
    enriched = {row["lead_id"] for row in rows if row["status"] == "enriched"}
    assert enriched == {lead.id for lead in server.state.leads()}
    assert len(enriched) == paid
    assert {row["status"] for row in rows if row["lead_id"] not in enriched} == {"skipped"}
    # The same command again enriches only the rest.
    resumed = run("enrich-file", str(tmp_path / "leads.csv"), "-o", str(out), server=server)
    assert resumed.code == 0
    assert f"({paid} from an earlier run)" in resumed.err
    assert server.state.charged("enrichment", key=server.api_key) == 12


def test_a_second_ctrl_c_abandons_them(
    make_server: MakeServer, run: Run, tmp_path: Path, script: str
) -> None:
    # Five leads, all in flight for 2 s once the first Ctrl-C is sent: the second one and
    # the CLI's 0.5 s look for busy workers happen while they still are.
    server = make_server(enrichment_seconds=(200.0, 200.0), time_scale=0.01)
    process, out = start_enrich_file(script, server, tmp_path, 5, in_flight=5)
    assert process.stderr is not None
    process.send_signal(signal.SIGINT)
    assert process.stderr.readline().startswith("leadenrich: finishing ")
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert err.startswith("leadenrich: interrupted; the leads in flight were abandoned")
    assert err.rstrip().endswith(f"or add --max-credits 0 to only write {out} from it, starting no lead")
    assert "Traceback" not in err
    assert not out.exists()  # the abandoned threads may still be writing the checkpoint
    # The abandoned leads finish on the service; the next run finds them instead of paying again.
    assert server.state.wait_until(lambda: server.state.in_flight == 0, timeout=20)
    age_checkpoint(checkpoint_for(out))  # else the rerun waits out the service's 100 s
    # As the message says: the output from the checkpoint alone, no lead started.
    only_write = run(
        "enrich-file", str(tmp_path / "leads.csv"), "-o", str(out), "--max-credits", "0", server=server
    )
    assert only_write.code in (0, 1), only_write.err  # 1 when an abandoned lead is not in the checkpoint
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert len(rows) == 5
    assert {row["status"] for row in rows} <= {"enriched", "skipped"}
    assert server.state.charged("enrichment", key=server.api_key) == 5
    # The same command again finds the abandoned leads instead of paying for them twice.
    assert run("enrich-file", str(tmp_path / "leads.csv"), "-o", str(out), server=server).code == 0
    assert server.state.charged("enrichment", key=server.api_key) == 5


def test_a_second_enrich_file_on_the_same_checkpoint_exits_11_and_sends_no_lead(
    make_server: MakeServer, tmp_path: Path, script: str
) -> None:
    # The same command twice, a moment apart (a cron job that overlaps itself). The first
    # is stopped (SIGSTOP) once it holds the checkpoint, so that it is still going on
    # however slowly the second starts, and resumed once the second has ended.
    server = make_server(enrichment_seconds=(30.0, 30.0), time_scale=0.01)
    source = leads_file(tmp_path, 12)
    out = tmp_path / "out.csv"
    command = [script, "enrich-file", str(source), "-o", str(out)]
    first = subprocess.Popen(command, env=environment(server), stderr=subprocess.PIPE, text=True)
    try:
        assert server.state.wait_until(lambda: server.state.in_flight > 0, timeout=30)
        first.send_signal(signal.SIGSTOP)
        key = server.add_key(user=server.user_of(server.api_key))
        second = subprocess.run(
            command,
            env={**environment(server), "LEADENRICH_API_KEY": key},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        first.send_signal(signal.SIGCONT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 0, err
    assert second.returncode == 11, second.stderr
    assert second.stderr.splitlines()[-1] == (
        f"leadenrich: error: checkpoint {checkpoint_for(out)} is held by a run in another process, "
        "which has not ended: no lead was sent; once it has ended, run the same command again to "
        "go on from what it recorded"
    )
    assert "Traceback" not in second.stderr
    sent = [r.path for r in server.state.requests() if r.key == key]
    assert "/api/v1/leads/enrich" not in sent, "the second run sent a lead"
    assert server.state.charged("enrichment") == 12, "a lead was charged twice"
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    assert [row["status"] for row in rows] == ["enriched"] * 12
