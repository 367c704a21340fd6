"""Whose a checkpoint is, confirmed before a run or a preview sends anything of its leads.

A checkpoint names the service and the keys its leads were sent with (`_owner.py`). A run
against another service is refused. A run with another key may be of the same account (a
rotated key, a colleague's): the service shows a stored lead only to a key of the account
that owns it (the spec's 404 for a lead "not owned by the calling key's account"), so a
few of the checkpoint's records and jobs are asked for, a GET each, which charges
nothing. One found, the key is the account's, and a run names it among the owners. None found, or none
to ask for while leads may be in flight, the run is refused: looked up or sent again on
another account, its leads could be charged twice.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .. import _endpoints
from .._endpoints import Call
from .._errors import LeadEnrichError, NotFoundError
from .._owner import Owner
from .._steps import Send, Steps
from .checkpoint import Checkpoint, Resume

__all__ = ["confirm"]

_THIS_MACHINE = ("127.0.0.1", "localhost", "::1")
_ASKED = 3
"""Records asked for at most: one may have been deleted since."""


def confirm(checkpoint: Checkpoint, resume: Resume, owner: Owner, *, adopt: bool) -> Steps[None]:
    """Raise LeadEnrichError unless `owner` may resume what `checkpoint` holds (`resume`);
    with `adopt`, name it among the owners (a run, not a preview)."""
    owners = resume.owners
    if owner in owners:
        return
    if owners and owners[0].service != owner.service:
        theirs = owners[0].service
        local = urlsplit(theirs).hostname in _THIS_MACHINE
        raise LeadEnrichError(
            f"checkpoint {checkpoint.journal.name} belongs to another service: its leads were sent "
            f"to {theirs}, and this client sends to {owner.service}. Nothing was sent. "
            + (
                "That was a server on this machine (the bundled fake server starts empty on "
                "every run): pass a new checkpoint file"
                if local
                else "Resume it with the base_url it was written with, or pass a new checkpoint "
                "file: looked up or sent again here, its leads could be charged twice"
            )
        )
    if owners and not (yield from _same_account(checkpoint, resume)):
        raise LeadEnrichError(
            f"checkpoint {checkpoint.journal.name} belongs to another account: it was written with "
            "another API key, and the service shows none of its records or jobs to this one. "
            "Nothing was sent. Resume it with the key it was written with, or pass a new "
            "checkpoint file: looked up or sent again on another account, its leads could be "
            "charged twice"
        )
    if adopt:
        checkpoint.owned_by(owner)


def _same_account(checkpoint: Checkpoint, resume: Resume) -> Steps[bool]:
    """Whether the client's key is shown a record or a job of the checkpoint: with
    nothing to ask about, it is not taken for the account's (a checkpoint is one
    account's, and the leads it holds may be in flight)."""
    asked: list[Call[Any]] = [_endpoints.get_lead(lead.id) for lead in list(resume.records.values())[:_ASKED]]
    asked += [_endpoints.get_job(job_id) for job_id in list(resume.jobs.values())[:_ASKED]]
    for call in asked:
        try:
            yield Send(call)
        except NotFoundError:
            continue
        return True
    return False
