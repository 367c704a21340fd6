"""The JSONL checkpoint of a bulk run: every fact about a lead, written as it is learnt.

One line per event: a lead `started` (before its request waits for a slot and leaves;
whether as a job), its `job` id (on a 202, before the first poll), its answer `lost` (when
it may still have been charged, with how long its request went unanswered),
and `finished` (with its record when there is one, `provisional` when that record was taken
without proof). A rerun reads them back: a lead with a record is done (one taken without
proof is looked up once more), a lead with a job id is polled rather than sent again,
and a lead that started without an answer is looked up among the stored leads first.

The lines go to a journal: the file (checkpoint_file.py), whose writer thread syncs each
batch to disk, or memory where a test keeps them. A run holds its journal from its start
to its end (`take`, `close`), so no two runs write one; anyone may read it meanwhile
(`load`), and reading changes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .. import _lazy_models
from .._clock import ServiceClock, wall_time
from .._errors import LeadEnrichError
from .._owner import Owner
from .service_time import same_kind

if TYPE_CHECKING:
    from .._models import LeadIn, LeadOut

__all__ = ["Checkpoint", "Journal", "Resume", "Unanswered", "fingerprint"]


def fingerprint(lead: LeadIn) -> str:
    """A stable key for a lead's content (the same lead twice gets the same key)."""
    # Only LeadIn's own fields: the server's echo of a lead may carry extra ones.
    fields = lead.model_dump(include=_lead_fields(), exclude_none=True)
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:20]


@functools.cache
def _lead_fields() -> set[str]:
    return set(_lazy_models.LeadIn.model_fields)


@dataclass(frozen=True)
class Unanswered:
    """What the checkpoint says of a lead that was sent and whose answer was not seen."""

    as_job: bool | None
    """Whether it was sent as a job, which may wait in the service's queue for as long as
    the queue takes (None where the line does not say: 1.0's did not)."""
    lost: bool = False
    """Its lost answer was written down since it last started: its request had gone out.
    (The lines' dates are this machine's, which may have stepped since: they time
    nothing.)"""
    unanswered: float = 0.0
    """Real seconds its request went unanswered before the client gave up on it (a read
    timeout): the service may have taken it in that much after the loss."""
    after: datetime | None = None
    """The latest stamp of a record the runs had received when it last started: its own
    record, stored after its request left, is no older (a stamp of the service's, so it
    compares with the service's stamps, where this machine's dates cannot)."""
    provisional: LeadOut | None = None
    """For a job whose answer was lost: the record a run took for it at its last look,
    without proof. It may be an earlier record of the same lead, taken while the job's
    own still waited in the queue: the next run looks once more, and takes the latest
    record of the lead."""
    reported: bool = False
    """The lead's last outcome is `provisional` (no run since left it maybe charged)."""


@dataclass
class Resume:
    """What an earlier run left: leads done, jobs to poll, leads that may have been charged."""

    done: dict[str, LeadOut] = field(default_factory=dict[str, "LeadOut"])
    """Keys of leads enriched earlier, with their record."""
    jobs: dict[str, str] = field(default_factory=dict[str, str])
    """Keys of leads whose job was created but not seen to its end, with the job's id."""
    uncertain: dict[str, Unanswered] = field(default_factory=dict[str, Unanswered])
    """Keys of leads that started but whose answer was lost or never came."""
    stored: datetime | None = None
    """The latest stamp of a record the runs received, as far as the file has been read."""
    owners: list[Owner] = field(default_factory=list[Owner])
    """The service and the keys of the account the runs sent its leads with (none where
    no line says: checkpoints written before 1.2 do not)."""

    @property
    def records(self) -> dict[str, LeadOut]:
        """Every lead's record a run took: those of `done`, and those taken without proof
        (which a rerun looks at once more, and never sends)."""
        taken = {
            key: sent.provisional
            for key, sent in self.uncertain.items()
            if sent.reported and sent.provisional is not None
        }
        return {**taken, **self.done}


def _lost(resume: Resume, key: str, unanswered: float) -> None:
    """Note the loss of a lead's answer, if it started (a line for one that did not is
    from no run of this SDK, and says nothing to act on)."""
    if (sent := resume.uncertain.get(key)) is not None:
        resume.uncertain[key] = replace(sent, lost=True, unanswered=unanswered)


def _key(raw: object) -> str:
    # 1.0 numbered identical rows (`fingerprint#1`); they are one lead now.
    return str(raw).split("#")[0]


class Journal(Protocol):
    """Where a checkpoint's lines are kept: a file (`CheckpointFile`), or memory in a test.

    One run holds it (`take`, until `close`) and appends to it; anyone reads it (`read`),
    and reading changes nothing.
    """

    name: str
    """What messages call it: the file's path."""
    failure: LeadEnrichError | None
    """Why lines could not be kept, once they could not: nothing more is kept."""

    def read(self) -> bytes:
        """Every complete line kept so far; a line still being written is not one yet."""
        ...

    def take(self) -> bytes:
        """Hold the journal for this run alone until `close`, cut a torn last line, and
        return every complete line. Raises `CheckpointInUse` (a LeadEnrichError) when
        another run holds it."""
        ...

    def append(self, line: str) -> Future[None]:
        """Keep `line` (one JSON entry and its newline); done once it is safely kept,
        whatever becomes of whoever waits for it."""
        ...

    def close(self) -> None:
        """Keep what was appended, then let go (blocking)."""
        ...


class Checkpoint:
    """Every fact of a bulk run, one JSON line per event, appended to its journal (a file
    that a writer thread flushes and syncs, unless given another journal)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, journal: Journal | None = None) -> None:
        if journal is None:
            if path is None:
                raise TypeError("Checkpoint needs a path or a journal")
            from .checkpoint_file import CheckpointFile

            journal = CheckpointFile(Path(path))
        self.journal = journal
        self.clock: ServiceClock = ServiceClock()
        """The clock whose dates the lines carry: the run's, once a run takes the checkpoint."""

    @property
    def failure(self) -> LeadEnrichError | None:
        """Why the checkpoint could not be written, once it could not: nothing more is."""
        return self.journal.failure

    def load(self) -> Resume:
        """Read what the runs so far wrote, as a reader: the file is left as it is, and a
        line still being written (or torn by a kill) is not read."""
        return self._resume(self.journal.read())

    def take(self) -> Resume:
        """Hold the checkpoint for this run until `close`, and read what earlier runs wrote.

        Raises:
            CheckpointInUse: Another run holds it; nothing was written.
        """
        return self._resume(self.journal.take())

    def owned_by(self, owner: Owner) -> None:
        """Name `owner` among the checkpoint's owners (written before any lead's line of
        this run)."""
        # With a key of no lead, as every line has one: 1.1 reads past the line.
        entry = {"event": "owner", "key": "", "service": owner.service, "account": owner.account}
        self._write({**entry, "at": self._now()})

    def _resume(self, complete: bytes) -> Resume:
        resume = Resume()
        for number, line in enumerate(complete.decode("utf-8", errors="replace").splitlines(), 1):
            if line.strip():
                self._apply(line, number, resume)
        return resume

    def _apply(self, line: str, number: int, resume: Resume) -> None:
        try:
            entry: Any = json.loads(line)
            key = _key(entry["key"])
            event = entry["event"]
        except (ValueError, KeyError, TypeError):
            raise LeadEnrichError(
                f"checkpoint {self.journal.name} line {number} is not a checkpoint entry: if the "
                "file is a run's checkpoint, mend or delete that line (every other line keeps a "
                "lead from being sent and charged again); if it is not, pass the run's checkpoint"
            ) from None
        if event == "owner":
            resume.owners.append(Owner(str(entry["service"]), str(entry["account"])))
            return
        if key in resume.done:
            return
        if event == "started":
            # Sent again: an earlier loss says nothing of when this request reached the service.
            resume.uncertain[key] = Unanswered(entry.get("as_job"), after=resume.stored)
        elif event == "job":
            resume.jobs[key] = str(entry["job_id"])
        elif event == "lost":
            _lost(resume, key, float(entry.get("unanswered", 0.0)))
        elif event == "finished":
            self._apply_finished(key, entry, resume)

    @staticmethod
    def _apply_finished(key: str, entry: Any, resume: Resume) -> None:
        if entry.get("lead") is not None:
            try:
                lead = _lazy_models.LeadOut.model_validate(entry["lead"])
            except _lazy_models.ValidationError:
                return
            stamp, latest = lead.created_at, resume.stored
            if stamp is not None and (latest is None or (same_kind(stamp, latest) and stamp > latest)):
                resume.stored = stamp
            resume.jobs.pop(key, None)
            if entry.get("provisional"):
                earlier = resume.uncertain.get(key, Unanswered(as_job=True))
                resume.uncertain[key] = replace(earlier, provisional=lead, reported=True)
                return
            resume.done[key] = lead
        elif entry.get("maybe_charged"):
            if (sent := resume.uncertain.get(key)) is not None:
                # Its record, if taken before, is still looked at, but no more its outcome.
                resume.uncertain[key] = replace(sent, reported=False)
                _lost(resume, key, sent.unanswered)
            return
        # Done, or ended without a charge (refused, failed and refunded): nothing to chase.
        resume.uncertain.pop(key, None)
        resume.jobs.pop(key, None)

    def started(self, key: str, index: int, *, as_job: bool) -> Future[None]:
        """The lead's request is about to leave (`as_job`: to create a job); done once that
        is on disk."""
        return self._write(
            {"event": "started", "key": key, "index": index, "as_job": as_job, "at": self._now()}
        )

    def job(self, key: str, job_id: str) -> Future[None]:
        """The service created `job_id` for the lead; done once that is on disk."""
        return self._write({"event": "job", "key": key, "job_id": job_id, "at": self._now()})

    def lost(self, key: str, unanswered: float) -> None:
        """The lead's answer was lost: it may have been charged, its record not seen yet.
        `unanswered`: real seconds its request went without an answer (0 unless it timed out)."""
        self._write({"event": "lost", "key": key, "unanswered": unanswered, "at": self._now()})

    def finished(
        self,
        key: str,
        index: int,
        status: str,
        lead: LeadOut | None,
        error: LeadEnrichError | None,
        maybe_charged: bool,
        *,
        provisional: bool = False,
    ) -> None:
        """The lead's outcome; `provisional`: its `lead` was taken without proof, and the next
        run looks once more (`Unanswered.provisional`)."""
        entry: dict[str, Any] = {
            "event": "finished",
            "key": key,
            "index": index,
            "status": status,
            "at": self._now(),
        }
        if lead is not None:
            entry["lead"] = lead.model_dump(mode="json")
            if provisional:
                entry["provisional"] = True
        if error is not None:
            entry["error"] = {"type": type(error).__name__, "message": str(error)}
            entry["maybe_charged"] = maybe_charged
        self._write(entry)

    def _now(self) -> str:
        return wall_time(self.clock).isoformat()

    def _write(self, entry: dict[str, Any]) -> Future[None]:
        return self.journal.append(json.dumps(entry, separators=(",", ":")) + "\n")

    def close(self) -> None:
        """Write what is queued, then let go of the file and its lock (blocking)."""
        self.journal.close()
