"""Mutants of the bulk plan's money rules: each a small change the simulation must notice.

Each mutant replaces one exact text, which occurs once in its file, with another, and
says which money rule the change breaks. `python -m tests.simulation.mutate` applies each
to a copy of the package and explores schedules until one breaks a rule (the mutant is
killed) or the budget runs out (it survived). A survivor is either argued equivalent
here (`equivalent`: why no schedule can tell it from the code), or a hole in the
simulation that the gate reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["MUTANTS", "PACKAGE", "Mutant"]

PACKAGE = Path(__file__).resolve().parents[2] / "leadenrich"
"""The package the mutants change (copies of it)."""


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    """Relative to the package."""
    old: str
    new: str
    breaks: str
    """The money rule the change breaks, in a line."""
    equivalent: str | None = None
    """Why no schedule can tell the mutant from the code, when it survives for that reason."""

    def applied(self, source: str) -> str:
        """`source` (the file's text) with the change made."""
        count = source.count(self.old)
        assert count == 1, f"mutant {self.name}: its old text occurs {count} times in {self.file}"
        return source.replace(self.old, self.new)


MUTANTS: list[Mutant] = [
    # The service's clock, read from its stamps (service_time.py).
    Mutant(
        "slack_zeroed",
        "_bulk/service_time.py",
        "_SLACK = 3.0",
        "_SLACK = 0.0",
        "stamps of nodes seconds apart are read as ordered: an earlier record of the lead is "
        "taken for its own, or its own ruled older than its request",
    ),
    Mutant(
        "slack_halved",
        "_bulk/service_time.py",
        "_SLACK = 3.0",
        "_SLACK = 1.5",
        "stamps of nodes up to 3 s apart are read as ordered when they are not",
    ),
    Mutant(
        "resolution_ignored",
        "_bulk/service_time.py",
        "return resolution + 2 * _SLACK * self._scale",
        "return 2 * _SLACK * self._scale",
        "stamps to the second or the minute are ordered as if exact",
    ),
    Mutant(
        "older_than_request_without_margin",
        "_bulk/service_time.py",
        "+ max(known) - self._margin(aware)",
        "+ max(known)",
        "a lead's own record is ruled older than its request by a stamp a node's clock or its "
        "resolution put early: the paid lead is reported not charged and sent again",
    ),
    Mutant(
        "proof_by_any_request",
        "_bulk/service_time.py",
        "any(later >= left and value > made for",
        "any(value > made for",
        "a record is proven a lead's own by a stamp of a request that left before the lead's",
    ),
    Mutant(
        "date_header_rules_for_ever",
        "_bulk/service_time.py",
        "if dated and aware and not self._made:",
        "if dated and aware:",
        "a front end's Date header ahead of the stamps keeps ruling out a lead's own record "
        "once the run's own stamps read the service's clock",
        equivalent="for the money rules: the `Date` headers only ever decide for a lead of the run "
        "that lost it (`_older` ignores them for an earlier run's, whose floor is unknown), and "
        "there a record they rule out leaves the lead maybe charged (lost.py), never not charged; "
        "the next run, reading the stamps alone, takes the record. It costs a rerun's lookup, "
        "no credit and no record; the checks ask no run to settle what its own stamps prove",
    ),
    # What a lookup's findings decide (lost.py, lookup.py).
    Mutant(
        "not_charged_by_a_date_header",
        "_bulk/lost.py",
        "(hit is not None and hit.unread is not None)",
        "(hit is not None and hit.undated is not None)",
        "a lead whose record only a Date header ruled out is reported not charged",
    ),
    Mutant(
        "unproven_record_taken_at_once",
        "_bulk/lost.py",
        "_UNPROVEN_LOOKS = 4",
        "_UNPROVEN_LOOKS = 1",
        "a lost job takes the lead's latest record at its first look, while its own may still "
        "wait in the queue: an earlier record stands in for the paid one",
        equivalent=(
            "for the money rules, since a record a job's last look takes without proof is "
            "provisional (lost.py): how often a run looks first decides only which record that "
            "run reports (an earlier one of the lead, or the job's own once stored), never a "
            "credit; the next run looks once more and takes the latest, and the checks judge "
            "the record a lead ends with. The looks keep a run's own answer right where the "
            "queue is slow for minutes"
        ),
    ),
    Mutant(
        "claimed_records_looked_at",
        "_bulk/lookup.py",
        "if lead.id not in self._claimed and (key := self._key(lead)) in self._wanted:",
        "if (key := self._key(lead)) in self._wanted:",
        "a record already given to a lead is taken again as a lost lead's own",
        equivalent="a record is claimed only as the own record of a lead whose key is its "
        "input's fingerprint (the spec: `input` is 'the lead as submitted'), and that lead is "
        "done: never wanted by a lookup again. So a claimed record is never among a wanted "
        "lead's candidates; only a service storing another input than the one sent could put "
        "it there, and that would hide every lead's own record from its lookup first",
    ),
    Mutant(
        "page_limit_fallback_removed",
        "_bulk/lookup.py",
        "        if self._limit.refused(error):\n            return 0.0\n",
        "",
        "a service that refuses a page of 100 leaves every lost lead maybe charged for ever",
    ),
    Mutant(
        "newest_first_taken_on_trust",
        "_bulk/lookup.py",
        "return self._newest_first and self._order == {True}",
        "return self._newest_first",
        "a lookup stops early on a listing whose stamps never showed its order, and misses a "
        "paid record further on",
    ),
    # When the service must be done with a lost request (settling.py).
    Mutant(
        "gateway_5xx_done_at_once",
        "_bulk/settling.py",
        "if not waited and isinstance(error, InternalServerError):",
        "if False:",
        "a gateway's 5xx is taken as the service being done at once: looked up before a late "
        "intake, the paid lead is reported not charged",
    ),
    Mutant(
        "late_intake_ignored",
        "_bulk/settling.py",
        "intake_by = reached + max(service.intake, waited)",
        "intake_by = reached + waited",
        "a timed-out request is taken as taken in by the time the client gave up",
    ),
    Mutant(
        "sync_settled_before_its_time",
        "_bulk/settling.py",
        "return parked.settled_by is not None and began >= parked.settled_by",
        "return parked.settled_by is not None",
        "a lost sync lead not found is called not charged before the service must be done with it",
    ),
    Mutant(
        "queue_moved_past_any_job",
        "_bulk/settling.py",
        "start >= parked.intake_by and began >= end + self._service.settle",
        "began >= end + self._service.settle",
        "the queue is taken to have moved past a lost job by a job sent before it was taken in",
    ),
    Mutant(
        "queue_moved_past_without_settle",
        "_bulk/settling.py",
        "start >= parked.intake_by and began >= end + self._service.settle",
        "start >= parked.intake_by and began >= end",
        "the queue is taken to have moved past a lost job before its enrichment could end",
    ),
    Mutant(
        "old_lines_taken_as_sync",
        "_bulk/settling.py",
        "as_job = True if sent.as_job is None else sent.as_job",
        "as_job = bool(sent.as_job)",
        "a 1.0 checkpoint's unanswered lead (maybe a job) is looked up as a sync request and sent again",
    ),
    Mutant(
        "deduped_job_proves_the_queue",
        "_bulk/plan.py",
        "self._settling.job_ended(item.key, lead is not None and not lead.deduped)",
        "self._settling.job_ended(item.key, lead is not None)",
        "a deduped job, which never waited for a slot, is taken to show the queue moved past a lost one",
    ),
    # The plan's guards (plan.py, tasks.py, emails.py, ownership.py).
    Mutant(
        "deduped_record_claimed",
        "_bulk/plan.py",
        "        if not lead.deduped:\n            self.claimed.append(lead.id)",
        "        self.claimed.append(lead.id)",
        "a deduped answer claims the record of the lead it repeats, which a lost lead then never finds",
        # Only a checkpoint 1.1 left shows it (`schedule._left_by_1_1`): 1.2's plan never
        # has a lead deduped against the record of one still looked for (a lead left maybe
        # charged keeps its email); 1.1's could, and the rerun then sends the paid lead
        # again (free only by the email's dedupe: `paid_lead_sent_again`).
    ),
    Mutant(
        "forgotten_jobs_reported",
        "_bulk/plan.py",
        "        if isinstance(error, NotFoundError):\n            return self._forgotten(poll, error)\n",
        "",
        "a job the service forgot is reported maybe charged on every rerun instead of looked up",
    ),
    Mutant(
        "5xx_not_ambiguous",
        "_bulk/tasks.py",
        "return not error.refunded",
        "return False",
        "a 5xx after a charge is reported failed, not charged: a rerun sends the paid lead again",
    ),
    Mutant(
        "same_email_at_once",
        "_bulk/emails.py",
        "return email is None or (not self._holders.get(email, set()) - {item.key} and not self.kept(item))",
        "return True",
        "two leads with one email are at the service at once: both may be charged",
    ),
    Mutant(
        "email_freed_while_another_lead_holds_it",
        "_bulk/emails.py",
        "            holders.discard(item.key)\n            if not holders:\n                del self._holders[email]",
        "            del self._holders[email]",
        "the first of two leads of one email an earlier run left unanswered settles, and a third of "
        "that email goes while the second may still be at the service: both may be charged",
    ),
    Mutant(
        "owner_check_skipped",
        "_bulk/ownership.py",
        "if owners and not (yield from _same_account(checkpoint, resume)):",
        "if False and not (yield from _same_account(checkpoint, resume)):",
        "a checkpoint is resumed with another account's key: its leads are sent again there",
    ),
    # Writing before sending (steps.py, checkpoint_file.py), stopping (runner.py).
    Mutant(
        "sent_before_the_start_line_is_on_disk",
        "_bulk/steps.py",
        '            yield Effect("written", (started,))',
        "            pass",
        "a lead leaves before its start line is on disk: killed then, the rerun sends it again",
    ),
    Mutant(
        "line_reported_before_synced",
        "_bulk/checkpoint_file.py",
        "                self._queue.append((line.encode(), written))",
        "                self._queue.append((line.encode(), Future()))\n                written.set_result(None)",
        "the checkpoint file reports a start line on disk before it is written and synced",
    ),
    Mutant(
        "async_loop_left_without_stop",
        "_bulk/runner.py",
        '        plan.stop(LeadEnrichError("not started: the run was stopped"))\n        try:',
        "        try:",
        "leaving the async loop does not stop the plan: leads are sent after the user stopped",
    ),
    Mutant(
        "threaded_loop_left_without_stop",
        "_bulk/runner.py",
        '        plan.stop(LeadEnrichError("not started: the run was stopped"))\n        pool.shutdown(',
        "        pool.shutdown(",
        "leaving the blocking runner's loop does not stop the plan: leads are sent after the user stopped",
    ),
    Mutant(
        "forgotten_job_without_its_creation_time",
        "_bulk/settling.py",
        "times = self._job_times.get(item.key) if error is not None else None",
        "times = None",
        "a job of the run the service forgot is looked up with no floor: a record it deduped, "
        "stored long before, is taken for its charge",
    ),
    Mutant(
        "record_taken_without_proof_for_good",
        "_bulk/lost.py",
        "return _take(pick, proven=False, provisional=True)",
        "return _take(pick, proven=False)",
        "a lost job still queued when its last look takes an older record of the lead is never "
        "looked at again: the record it paid for is never reported",
    ),
    Mutant(
        "provisional_record_kept",
        "_bulk/lost.py",
        "return _take(latest or parked.provisional, proven=False)",
        "return _take(parked.provisional, proven=False)",
        "the run after a record taken without proof keeps that record though a newer one of the "
        "lead, the one its job paid for, is listed",
    ),
    Mutant(
        "maybe_charged_lead_lets_go_of_its_email",
        "_bulk/emails.py",
        "            self._kept.setdefault(email, set()).add(item.key)\n",
        "",
        "a lead left maybe charged, perhaps still queued, lets another lead of its email go: both "
        "may be charged",
    ),
    Mutant(
        "maybe_charged_not_counted_in_the_budget",
        "_bulk/plan.py",
        "self._spent + self._maybe + self._reserved >= self._max_credits",
        "self._spent + self._reserved >= self._max_credits",
        "credits that may have been charged are not counted against max_credits: the run spends "
        "more than it was allowed",
    ),
    # The retry policy (_retry.py).
    Mutant(
        "charging_call_retried_after_a_drop",
        "_retry.py",
        "retryable = not error.request_sent or call.idempotent",
        "retryable = True",
        "an enrichment whose connection dropped after it was sent is sent again: charged twice",
    ),
    Mutant(
        "charging_call_retried_after_a_5xx",
        "_retry.py",
        "retryable = isinstance(error, InternalServerError) and call.idempotent",
        "retryable = isinstance(error, InternalServerError)",
        "an enrichment that met a 5xx after its charge is sent again: charged twice",
    ),
]

assert len({m.name for m in MUTANTS}) == len(MUTANTS), "two mutants share a name"
