"""A schedule's run told in order: the requests and their faults, what the service did,
what each run of the program saw and did, and what the SDK logged (its decisions)."""

from __future__ import annotations

from leadenrich._bulk.inputs import read_items

from .harness import World_

__all__ = ["trace"]


def trace(sim: World_) -> list[str]:
    items = read_items([row.given() for row in sim.schedule.rows])
    rows: dict[str | None, str] = {}
    for item in items:
        if item.invalid is None:
            rows.setdefault(item.key, f"row {item.index}")
    events: list[tuple[float, int, str]] = []

    def add(at: float, text: str, order: int = 1) -> None:
        events.append((at, order, text))

    for run in sim.runs:
        name = f"run {run.process.index + 1}"
        add(
            run.started,
            f"{name} starts: {run.spec}"
            if not run.process.clean
            else f"{name} starts (the last: no fault, no stop)",
            0,
        )
        if run.stopped is not None:
            add(
                run.stopped,
                f"{name}: the user {'kills the process' if run.process.dead else 'stops the run'}",
                0,
            )
        for at, outcome in zip(run.times, run.outcomes, strict=False):
            flags = [flag for flag in ("resumed", "charged", "maybe_charged") if getattr(outcome, flag)]
            what = outcome.lead.id if outcome.lead is not None else str(outcome.error)
            add(at, f"{name} gets row {outcome.index}: {outcome.status} {' '.join(flags)} {what}", 2)
        if run.raised is not None:
            add(run.times[-1] if run.times else run.started, f"{name} raised {run.raised!r}", 3)
    for sent in sim.network.sent:
        fault = f"  [{sent.fault}]" if sent.fault is not None else ""
        lead = f" {rows.get(sent.key, '?')}" if sent.key is not None else ""
        add(sent.at, f"#{sent.number} run {sent.process + 1} sends {sent.method} {sent.path}{lead}{fault}")
    for charge in sim.service.charges:
        verb = "charges" if charge.amount > 0 else "refunds"
        add(
            charge.at, f"service {verb} {rows.get(charge.key, '?')} ({charge.ref}, request #{charge.request})"
        )
    # The leads of other inputs (a listing's filler) are one line, not one each.
    unrelated = [record for record in sim.service.records if record.key not in rows]
    if unrelated:
        add(
            min(record.created for record in unrelated),
            f"service holds {len(unrelated)} leads of other inputs, stored from then on",
        )
    for record in sim.service.records:
        if record.key in rows:
            add(record.created, f"service stores {record.id} for {rows[record.key]}")
    for job in sim.service.jobs.values():
        add(job.created, f"service creates {job.id} for {rows.get(job.key, '?')} (request #{job.request})")
        if job.started is not None and job.started != job.created:
            add(job.started, f"service starts {job.id}")
        if job.finished is not None:
            add(job.finished, f"service ends {job.id}: {job.status}")
    lines = [f"{at:10.3f}  {text}" for at, _, text in sorted(events, key=lambda e: (e[0], e[1]))]
    return sorted([*lines, *sim.log], key=lambda line: float(line.split()[0]))
