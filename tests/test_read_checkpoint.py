"""read_checkpoint: a bulk run's result so far, read from its checkpoint without a request."""

from __future__ import annotations

from pathlib import Path

import pytest

from leadenrich import InvalidRequestError, LeadEnrichError, read_checkpoint
from leadenrich.testing import FakeServer, client_for

FIRST = {"company": "Acme", "domain": "acme.com"}
SECOND = {"company": "Globex", "domain": "globex.com"}
LATER = {"company": "Initech", "domain": "initech.com"}
INVALID = {"company": "Hooli"}  # no domain


def test_finished_rows_come_back_with_their_leads_and_the_rest_are_skipped(
    server: FakeServer, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "run.jsonl"
    with client_for(server) as client:
        client.leads.enrich_many([FIRST, SECOND], checkpoint=checkpoint, progress=False)
    sent = len(server.state.requests())

    result = read_checkpoint([FIRST, INVALID, SECOND, LATER, FIRST], checkpoint)

    assert len(server.state.requests()) == sent  # read from the file alone
    assert [o.status for o in result] == ["enriched", "failed", "enriched", "skipped", "enriched"]
    stored = {lead.input.domain: lead.id for lead in server.state.leads()}
    leads = [stored["acme.com"], stored["globex.com"], stored["acme.com"]]
    assert [o.lead.id for o in result if o.lead is not None] == leads
    assert all(o.resumed for o in result if o.status == "enriched")
    assert result.credits_spent == 0
    assert isinstance(result.outcomes[1].error, InvalidRequestError)
    assert result.outcomes[4].duplicate_of == 0
    assert "enrich_many again with the same checkpoint" in str(result.outcomes[3].error)

    # As the skipped rows' message says: the run goes on from there, paying only for the rest.
    with client_for(server) as client:
        rerun = client.leads.enrich_many([FIRST, INVALID, SECOND, LATER, FIRST], checkpoint=checkpoint)
    assert rerun.credits_spent == 1
    assert server.state.charged("enrichment") == 3


def test_without_a_checkpoint_file_every_valid_row_is_skipped(tmp_path: Path) -> None:
    result = read_checkpoint([FIRST, INVALID], tmp_path / "none.jsonl")
    assert [o.status for o in result] == ["skipped", "failed"]


def test_a_file_that_is_not_a_checkpoint_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"event": "finished", "key": "k"}\nnot json\n')
    with pytest.raises(LeadEnrichError, match=r"line 2 is not a checkpoint entry") as refused:
        read_checkpoint([FIRST], path)
    # Removing a run's checkpoint would send, and charge, every lead it finished again.
    assert "remove the file" not in str(refused.value)
    assert "mend or delete that line" in str(refused.value)
