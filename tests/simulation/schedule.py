"""A schedule: what one simulated world holds and what its user does, drawn from a seed.

A schedule is plain data (the rows, the service's readings of the spec's open points,
the runs with their options and stops, and the network's faults by request), so that it
can be printed, shrunk part by part, and pinned in a regression test as it is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .service import SETTLE, ServiceSettings

__all__ = ["Fault", "Row", "RunSpec", "Schedule", "Stop", "draw"]

FaultKind = Literal[
    "refused",  # no connection: nothing left the client (it retries)
    "drop_before",  # the connection drops before the service takes the request in
    "drop_after",  # the service did the work; the connection drops before the answer
    "error_before",  # a 502 from a gateway, the request never reached the service
    "error_after",  # a 502 from a gateway, after the service did the work
    "cut_body",  # a 2xx whose body arrives cut short
    "slow",  # the answer comes `seconds` late (past the read timeout, often)
    "taken_late",  # the service takes the request in `seconds` late
    "rate_limited",  # a per-key 429 with Retry-After `seconds`
    "upstream_full",  # a platform 429
]


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    seconds: float = 0.0

    def __str__(self) -> str:
        return f"{self.kind}({self.seconds:g} s)" if self.seconds else self.kind


@dataclass(frozen=True)
class Row:
    """A row of the input: a lead, or (without a domain) one the SDK refuses."""

    company: str
    domain: str | None
    email: str | None = None
    name: str | None = None

    def given(self) -> dict[str, Any]:
        row: dict[str, Any] = {"company": self.company}
        for name in ("domain", "email", "name"):
            if (value := getattr(self, name)) is not None:
                row[name] = value
        return row

    def __str__(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.given().items())


StopKind = Literal["break", "break_close", "cancel", "cancel_twice", "kill"]
Trigger = Literal["start", "request", "loss"]


@dataclass(frozen=True)
class Stop:
    """What the user does to a run: leave the loop after `outcomes` outcomes (`break`,
    and with `async with` on the iterator, `break_close`), or, `at` seconds after the
    run's start (or after its `count`-th request left, or its `count`-th enrichment's
    answer was lost), cancel it (Ctrl-C; `cancel_twice`: again `again` seconds later) or
    kill -9 the process."""

    kind: StopKind
    at: float = 0.0
    outcomes: int = 1
    again: float = 0.0
    linger: float = 0.0
    """After a `break`: how long the program goes on before it closes the client."""
    trigger: Trigger = "start"
    count: int = 1

    def __str__(self) -> str:
        if self.kind in ("break", "break_close"):
            return f"{self.kind} after {self.outcomes} outcome(s), client closed {self.linger:g} s later"
        when = (
            f"{self.at:g} s after the start"
            if self.trigger == "start"
            else (
                f"{self.at:g} s after its {_nth(self.count)} {'request left' if self.trigger == 'request' else 'lost answer'}"
            )
        )
        if self.kind == "cancel_twice":
            return f"cancel {when}, again {self.again:g} s later"
        return f"{self.kind} {when}"


def _nth(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


@dataclass(frozen=True)
class RunSpec:
    """One process running `enrich_iter` over the rows with the schedule's checkpoint."""

    strategy: Literal["sync", "async"] = "sync"
    concurrency: int = 5
    max_credits: int | Literal["auto"] | None = None
    read_timeout: float = 30.0
    poll_interval: float | None = None
    preview: bool = False
    stop: Stop | None = None
    gap: float = 0.0
    """The world's time between the end of the previous run and the start of this one."""
    wall_step: float = 0.0
    """How far this machine's wall clock stepped since the previous run (NTP, another machine)."""
    account: Literal["own", "other"] = "own"
    """Whose key the run is given: the account's own, or another account's (a checkpoint
    carried to another key, or from the bundled fake server to the real service), on a
    checkpoint an earlier run wrote (on an empty one, the run is the account's own)."""
    disk_full: int | None = None
    """The checkpoint's disk fills up at the n-th line this run writes: that line and every
    later one fail."""
    legacy: bool = False
    """The run is 1.0's: its checkpoint lines do not say whether a lead was sent as a job,
    nor whose the checkpoint is."""
    by_1_1: bool = False
    """The run is 1.1's: a lead it left maybe charged let go of its email (a lead of the
    same email could then be sent, and deduped against the first one's record while that
    one was still unsettled), and no line says whose the checkpoint is."""
    runner: Literal["async", "threaded"] = "async"
    """The user's program runs the async client's `enrich_iter`, or the blocking client's
    (the threaded runner: a loop in the user's thread, the leads on a pool of workers)."""

    def __str__(self) -> str:
        parts = [f"strategy={self.strategy}", f"concurrency={self.concurrency}"]
        if self.max_credits is not None:
            parts.append(f"max_credits={self.max_credits}")
        if self.read_timeout != 30.0:
            parts.append(f"read timeout {self.read_timeout:g} s")
        if self.poll_interval is not None:
            parts.append(f"poll_interval={self.poll_interval:g}")
        if self.preview:
            parts.append("preview first")
        if self.stop is not None:
            parts.append(str(self.stop))
        if self.wall_step:
            parts.append(f"this machine's wall clock stepped {self.wall_step:+g} s since the run before")
        if self.account != "own":
            parts.append("with another account's key")
        if self.disk_full is not None:
            parts.append(f"the disk is full from its line {self.disk_full}")
        if self.legacy:
            parts.append("run by 1.0")
        if self.by_1_1:
            parts.append("run by 1.1")
        if self.runner != "async":
            parts.append(f"the {self.runner} runner")
        return ", ".join(parts)


@dataclass(frozen=True)
class Schedule:
    seed: int
    rows: tuple[Row, ...]
    service: ServiceSettings
    runs: tuple[RunSpec, ...]
    faults: tuple[tuple[int, Fault], ...] = ()
    """(n, fault): the n-th enrichment request (POST) any run lets leave meets the fault."""
    read_faults: tuple[tuple[int, Fault], ...] = ()
    """(n, fault): the n-th other request (a poll, a page, the usage) meets the fault."""
    earlier: tuple[tuple[Row, float], ...] = ()
    """Leads the account stored before the schedule, with their age in seconds."""
    failing: frozenset[str] = field(default_factory=frozenset[str])
    """Domains whose enrichment fails at the service (refunded)."""
    client_wall_offset: float = 0.0
    """How far this machine's wall clock is off the true date."""
    writer: tuple[tuple[Row, float], ...] = ()
    """Leads another program on the same account (not a run of this checkpoint) enriches,
    sync, during the schedule, with when it sends each: its charges are the user's, not
    the runs'."""

    def describe(self) -> list[str]:
        lines = [f"service: {_settings(self.service)}"]
        if self.client_wall_offset:
            lines.append(f"this machine's wall clock is {self.client_wall_offset:+g} s off")
        lines += [f"row {i}: {row}" for i, row in enumerate(self.rows)]
        lines += [f"stored before: {row} ({age:g} s old)" for row, age in self.earlier]
        if self.failing:
            lines.append(f"enrichment fails for: {', '.join(sorted(self.failing))}")
        lines += [f"another program enriches: {row} at {at:g} s" for row, at in self.writer]
        lines += [f"run {i + 1} (after {run.gap:g} s): {run}" for i, run in enumerate(self.runs)]
        lines += [f"enrichment request #{n}: {fault}" for n, fault in self.faults]
        lines += [f"other request #{n}: {fault}" for n, fault in self.read_faults]
        return lines


def _settings(settings: ServiceSettings) -> str:
    default = ServiceSettings()
    changed = [
        f"{name}={getattr(settings, name)!r}"
        for name in settings.__dataclass_fields__
        if getattr(settings, name) != getattr(default, name)
    ]
    return ", ".join(changed) or "the defaults"


# Drawing a schedule from a seed.

_KINDS: tuple[tuple[FaultKind, int], ...] = (
    ("refused", 2),
    ("drop_before", 3),
    ("drop_after", 5),
    ("error_before", 2),
    ("error_after", 3),
    ("cut_body", 3),
    ("slow", 5),
    ("taken_late", 4),
    ("rate_limited", 2),
    ("upstream_full", 2),
)


def draw(seed: int) -> Schedule:
    rng = random.Random(seed)
    rows = _rows(rng)
    valid = [row for row in rows if row.domain is not None]
    earlier: list[tuple[Row, float]] = []
    for row in valid:
        if rng.random() < 0.1:
            # The account already has this contact (by email), or this very lead.
            stored = replace(row, company=row.company + " Old") if row.email and rng.random() < 0.5 else row
            earlier.append((stored, rng.choice((3600.0, 86400.0, rng.uniform(1.0, 600.0)))))
    failing = frozenset(row.domain for row in valid if row.domain is not None and rng.random() < 0.08)
    quota: int | None = rng.choice((None, 1000, 1000, 1000))
    used = 0
    if quota is not None and rng.random() < 0.2:
        quota, used = 50, 50 - rng.randint(0, len(rows))
    service = ServiceSettings(
        job_admission=rng.choice(("queue", "queue", "upstream_full")),
        list_order=rng.choice(("newest_first", "oldest_first")),
        same_email_in_flight=rng.choice(("charge_both", "dedupe")),
        dedupe_emails=rng.choice(("ignore_case", "exact")),
        clock_offset=rng.choice((0.0, 0.0, -300.0, 300.0, rng.uniform(-7200.0, 7200.0))),
        stamps=rng.choice(("utc", "utc", "offset", "naive_local", "whole_seconds", "none")),
        quota=quota,
        used=used,
        sync_failure=rng.choice((502, 500, 503)),
    )
    runs: list[RunSpec] = []
    for n in range(rng.choice((1, 1, 2, 2, 3))):
        run = _run(rng, len(rows), first=n == 0)
        if runs and rng.random() < 0.75:
            # A rerun is most often the same command again, and a killed run is most
            # often restarted at once (a supervisor, a retrying job queue).
            run = replace(run, strategy=runs[-1].strategy)
            if runs[-1].stop is not None and runs[-1].stop.kind == "kill":
                run = replace(run, gap=0.0)
        runs.append(run)
    if rng.random() < 0.25:
        runs = _crash_and_restart(rng, runs)
    # Swarm testing: each schedule meets a few kinds of fault, often, rather than every
    # kind now and then, so that the combinations that need two or three faults of one
    # kind in a row come up.
    kinds = rng.sample(_KINDS, rng.choice((1, 2, 3, len(_KINDS))))
    rate = rng.choice((0.0, 0.05, 0.05, 0.15, 0.3, 0.5))
    # The enrichment requests are what may charge: they meet faults more often than the
    # polls and pages around them, which would otherwise be most of the faults.
    faults = tuple((n, _fault(rng, kinds)) for n in range(40) if rng.random() < 2 * rate)
    read_faults = tuple((n, _fault(rng, kinds)) for n in range(120) if rng.random() < rate / 2)
    offset = rng.choice((0.0, 0.0, 0.0, rng.uniform(-600.0, 600.0)))
    service, runs = _platform(rng, service, runs)
    service, runs = _open_readings(rng, service, runs)
    runs = [_blocking(rng, run) for run in runs]
    schedule = Schedule(
        seed, rows, service, tuple(runs), faults, read_faults, tuple(earlier), failing, offset
    )
    return _by_1_1(rng, _rare(rng, schedule))


def _rare(rng: random.Random, schedule: Schedule) -> Schedule:
    """Stories of rare events, drawn after every other draw (so each seed's schedule is
    otherwise what it was), each in a few schedules of a hundred, so that one CI run's
    10,000 finds a bug of their shape: a process killed in its first second with its
    first job creation taken in up to a settle window late, and started again at once
    (1.1's bug of seed 155,207); short enrichments on nodes whose stamps are up to 3 s
    apart, with a record of the same lead stored a moment before the run, and now and
    then one of the run's first answers lost; and a job creation whose answer was lost
    just before a kill, while the platform's slots are busy with other accounts' work
    that frees them one by one (or only minutes later), the rerun's jobs long and short
    behind it in the queue, one of them a lead the account stored before (deduped at once,
    it never waits for a slot); another program on the account; a deduping job the
    service forgets while its poll's answer is lost; a checkpoint 1.1 left with a lead
    maybe charged beside a lead of its email deduped against its record; a lost job
    queued for longer than the rerun looks, beside an older record of its lead; and two
    leads of one email a checkpoint leaves unanswered, beside a third to send."""
    story = rng.random()
    valid = [row for row in schedule.rows if row.domain is not None]
    if story < 0.03 and len(valid) >= 2:
        concurrency = rng.choice((1, 1, 2))
        killed = RunSpec(
            strategy="async", concurrency=concurrency, stop=Stop("kill", at=round(rng.uniform(0.0, 1.0), 3))
        )
        late = Fault("taken_late", round(rng.uniform(0.85 * SETTLE, SETTLE), 3))
        service = replace(schedule.service, durations=rng.choice(((20.0, 40.0), (20.0, 95.0))))
        return replace(
            schedule,
            service=service,
            runs=(killed, RunSpec(strategy="async", concurrency=concurrency)),
            faults=((0, late),),
            read_faults=(),
        )
    if story < 0.06 and valid:
        service = replace(schedule.service, durations=(0.5, 3.0), stamps="jittered")
        twin = (rng.choice(valid), round(rng.uniform(0.5, 4.0), 3))
        faults = schedule.faults
        if rng.random() < 0.5:
            # A few of the first answers lost after the service took the requests in:
            # each lead's own record, stored a moment later, or its twin, stored a moment
            # before, is then read by the stamps alone.
            lost = sorted(rng.sample(range(6), rng.randint(1, 3)))
            faults = tuple((n, Fault("drop_after")) for n in lost)
            # A name drawn for each lead draws its enrichment's length (the model's is its
            # key's): some of them short enough that the record is stored within the slack.
            named = {row: replace(row, name=f"Person {rng.randint(0, 9999)}") for row in valid}
            schedule = replace(
                schedule,
                rows=tuple(named.get(row, row) for row in schedule.rows),
                earlier=tuple((named.get(row, row), age) for row, age in schedule.earlier),
            )
            twin = (named[twin[0]], twin[1])
            # Nodes at the jitter's bound: a stamp 3 s early read against one 3 s late.
            service = replace(service, stamps="two_nodes")
        return replace(schedule, service=service, earlier=(*schedule.earlier, twin), faults=faults)
    if story < 0.09 and len(valid) >= 3:
        return _queued_behind(rng, schedule, valid)
    if story < 0.12 and len(valid) >= 2:
        return _other_writer(rng, schedule, valid)
    if story < 0.14 and valid:
        return _forgotten_dedupe(rng, schedule, valid)
    if story < 0.16 and len(valid) >= 2:
        return _left_by_1_1(rng, schedule, valid)
    if story < 0.18 and valid:
        return _queued_past_the_looks(rng, schedule, valid)
    if story < 0.20 and len(valid) >= 3:
        return _two_unanswered_of_one_email(rng, schedule, valid)
    return schedule


def _queued_past_the_looks(rng: random.Random, schedule: Schedule, valid: list[Row]) -> Schedule:
    """A lead enriched a day before, with no email (nothing dedupes it), sent again as a
    job by a run killed in its first second (1.0's, now and then), while other accounts'
    work holds the platform's slots for longer than the rerun looks for the job's record
    (its answer lost, and the process killed a moment later):
    the only record the rerun finds is the older one, and no job of its own shows the
    queue moved past the lost one (it has none, or only leads the account has by email)."""
    lone = replace(valid[0], email=None)
    deduped = tuple(replace(row, email=f"lead@{row.domain}") for row in valid[1 : rng.randint(1, 3)])
    service = _slots_held(rng, schedule.service, 600.0, 1500.0)
    killed = RunSpec(
        strategy="async",
        concurrency=1,
        stop=Stop("kill", at=round(rng.uniform(0.05, 1.0), 3), trigger="loss"),
        legacy=rng.random() < 0.3,
    )
    again = RunSpec(strategy=rng.choice(("sync", "async")), concurrency=rng.choice((1, 2, 5)))
    return replace(
        schedule,
        rows=(lone, *deduped),
        service=service,
        runs=(killed, again),
        faults=((0, Fault("drop_after")),),
        read_faults=(),
        earlier=((lone, 86400.0), *((row, 3600.0) for row in deduped)),
        failing=frozenset(),
    )


def _two_unanswered_of_one_email(rng: random.Random, schedule: Schedule, valid: list[Row]) -> Schedule:
    """Two leads of one email that a checkpoint leaves unanswered, and a third of it to
    send: a run by 1.1 (one lead at a time) leaves the first maybe charged (its record
    read as older than its request by a `Date` header 5 minutes ahead) and lets the email
    go, sends the second, which the service takes in late, and is killed a moment later.
    The rerun, at once, settles the first well before the second, which may still be at
    the service: a third lead of the email sent then is charged too."""
    # The same email to the SDK, which compares them without case; to a service that
    # compares them exactly, the first one's record dedupes neither of the others.
    email = valid[0].email or f"lead@{valid[0].domain}"
    emails = (email.lower(), email.upper(), email.upper())
    rows = tuple(
        replace(row, email=e, name=f"Person {n}")
        for n, (row, e) in enumerate(zip(valid[:3], emails, strict=True))
    )
    # Its requests: the first lead's, the lookup that leaves it maybe charged, the second's.
    killed = RunSpec(
        strategy="sync",
        concurrency=1,
        by_1_1=True,
        stop=Stop("kill", at=round(rng.uniform(0.05, 1.0), 3), trigger="request", count=3),
    )
    again = RunSpec(strategy=rng.choice(("sync", "async")), concurrency=rng.choice((1, 2, 5)))
    return replace(
        schedule,
        rows=rows,
        service=ServiceSettings(
            date_offset=300.0,
            stamps=rng.choice(("utc", "offset")),
            same_email_in_flight="charge_both",
            dedupe_emails="exact",
            durations=(60.0, 95.0),
        ),
        runs=(killed, again),
        faults=(
            (0, Fault(rng.choice(("error_after", "drop_after")))),
            (1, Fault("taken_late", round(rng.uniform(85.0, 99.0), 3))),
        ),
        read_faults=(),
        earlier=(),
        failing=frozenset(),
    )


def _left_by_1_1(rng: random.Random, schedule: Schedule, valid: list[Row]) -> Schedule:
    """A run by 1.1 loses the answer of a lead the service took in, and leaves it maybe
    charged (its record read as older than its request by a `Date` header 5 minutes
    ahead); 1.1 then lets a lead of the same email go, which is deduped against the first
    one's record; 1.2 resumes the checkpoint and must find that record for the first."""
    first, second = valid[0], valid[1]
    email = first.email or f"lead@{first.domain}"
    rows = (replace(first, email=email), replace(second, email=email), *valid[2:])
    return replace(
        schedule,
        rows=rows,
        service=replace(schedule.service, date_offset=300.0, stamps=rng.choice(("utc", "offset"))),
        runs=(
            RunSpec(strategy="sync", concurrency=1, by_1_1=True),
            RunSpec(strategy=rng.choice(("sync", "async")), concurrency=rng.choice((1, 2, 5))),
        ),
        faults=((0, Fault(rng.choice(("error_after", "drop_after")))),),
        read_faults=(),
        earlier=(),
        failing=frozenset(),
    )


def _by_1_1(rng: random.Random, schedule: Schedule) -> Schedule:
    """Now and then the first of several runs is 1.1's, drawn after every other draw: its
    checkpoint may hold a lead left maybe charged beside a lead of the same email that 1.1
    then sent, deduped against the first one's record (1.2 keeps such an email held). A
    checkpoint that does not say whose it is cannot be told from another account's: none
    of its runs is given another key."""
    runs = schedule.runs
    carried = any(run.account != "own" for run in runs)
    if len(runs) < 2 or runs[0].legacy or carried or rng.random() >= 0.3:
        return schedule
    return replace(schedule, runs=(replace(runs[0], by_1_1=True), *runs[1:]))


def _forgotten_dedupe(rng: random.Random, schedule: Schedule, valid: list[Row]) -> Schedule:
    """A job of the run that dedupes a record the account stored long before, whose poll
    loses its answer and is retried late, once the service forgot the job (404): the
    lookup that follows finds only that old record, which the job charged nothing for."""
    retention = rng.choice((30.0, 60.0, 120.0))
    old = rng.choice(valid)
    first = rng.randint(0, 4)
    late = Fault("taken_late", round(rng.uniform(retention + 5.0, retention + 60.0), 3))
    return replace(
        schedule,
        service=replace(schedule.service, job_retention=retention),
        runs=(
            RunSpec(
                strategy="async", concurrency=rng.choice((1, 2, 5)), max_credits=rng.choice((None, "auto"))
            ),
        ),
        faults=(),
        read_faults=((first, Fault("cut_body")), (first + 1, late)),
        earlier=((old, rng.choice((600.0, 3600.0))),),
    )


def _other_writer(rng: random.Random, schedule: Schedule, valid: list[Row]) -> Schedule:
    """Another program on the account enriches some of the run's leads while the run goes
    on, one of them just before the run sends that lead and loses its answer: the lookup
    then finds a record of the lead stored after the run's earlier requests made theirs,
    but before its own request left (deduped against it by the email, or not)."""
    rows = tuple(
        replace(row, email=f"lead@{row.domain}") if row.email is None and rng.random() < 0.7 else row
        for row in valid
    )
    lost = rng.randint(1, min(3, len(rows) - 1))
    # A sync run sends the leads one by one, 20-40 s each: the lost lead's request leaves
    # some 30 s times its place after the start; the other program's record is stored
    # 20-40 s after it sends it.
    writes = [(rows[lost], round(rng.uniform(0.0, 30.0 * lost), 3))]
    writes += [(rng.choice(rows), round(rng.uniform(0.0, 120.0), 3)) for _ in range(rng.randint(0, 2))]
    run = RunSpec(strategy=rng.choice(("sync", "sync", "async")), concurrency=rng.choice((1, 1, 2)))
    service = replace(schedule.service, stamps=rng.choice(("utc", "utc", "offset", "whole_seconds")))
    return replace(
        schedule,
        rows=rows,
        service=service,
        runs=(run,),
        faults=((lost, Fault(rng.choice(("drop_after", "drop_after", "error_after")))),),
        read_faults=(),
        earlier=(),
        failing=frozenset(),
        writer=tuple(sorted(writes, key=lambda write: write[1])),
    )


def _queued_behind(rng: random.Random, schedule: Schedule, valid: list[Row]) -> Schedule:
    """A job creation taken in whose answer is lost, the process killed then and started
    again at once, while other accounts' work holds the platform's five slots: freed one
    by one within a minute or two (a job of the rerun may then run and end, short, while
    the lost one, admitted first but long, still runs), or only minutes later (the lost job
    waits in the queue while the rerun's deduped job ends at once)."""
    # The slots free one by one before the rerun's first lookup, or before its second
    # (the lost job may then still run at either), or all only minutes later.
    low, high = rng.choice(((20.0, 70.0), (100.0, 160.0), (150.0, 300.0)))
    service = _slots_held(rng, schedule.service, low, high)
    # Leads of an email each (the service dedupes by email), on stamps that can prove a
    # record: what is told here is the queue's order, not the emails' rule nor the stamps'.
    # A name drawn for each lead draws its enrichment's length (the model's is its key's).
    names = {row: f"Person {rng.randint(0, 9999)}" for row in valid}
    rows = tuple(replace(row, email=f"lead@{row.domain}", name=names[row]) for row in valid)
    service = replace(service, stamps=rng.choice(("utc", "utc", "offset", "whole_seconds")))
    stored = rng.choice(rows[1:])
    # Killed a moment after the loss, once its line is on disk: the rerun knows the
    # request was taken in, if ever, by then.
    killed = RunSpec(
        strategy="async",
        concurrency=1,
        stop=Stop("kill", at=round(rng.uniform(0.05, 1.0), 3), trigger="loss"),
    )
    again = RunSpec(
        strategy="async", concurrency=rng.choice((2, 3, 5)), poll_interval=rng.choice((None, 1.0, 5.0))
    )
    return replace(
        schedule,
        rows=rows,
        service=service,
        runs=(killed, again),
        faults=((0, Fault("drop_after")),),
        read_faults=(),
        earlier=((stored, rng.choice((3600.0, 86400.0))),),
        failing=frozenset(),
    )


def _slots_held(rng: random.Random, service: ServiceSettings, low: float, high: float) -> ServiceSettings:
    """`service` with its five slots taken by other accounts' work within its first half
    second, each for `low` to `high` seconds, and jobs queued for them, the oldest first."""
    busy = tuple((round(rng.uniform(0.0, 0.5), 3), round(rng.uniform(low, high), 3)) for _ in range(5))
    return replace(
        service,
        durations=(20.0, 95.0),
        others=busy,
        job_admission="queue",
        fail_fast=False,
        dispatch_tick=None,
        quota=1000,
        used=0,
    )


def _platform(
    rng: random.Random, service: ServiceSettings, runs: list[RunSpec]
) -> tuple[ServiceSettings, list[RunSpec]]:
    """What the spec allows beyond the typical: enrichments up to ~90 s, other accounts'
    work on the platform's slots, failed jobs that never queue, coarse or unsteady stamps,
    a `Date` header on a clock of its own, a listing of several pages, pages capped below
    what a lookup asks, and this machine's wall clock stepping between runs."""
    durations = rng.choice(((20.0, 40.0), (20.0, 40.0), (20.0, 40.0), (60.0, 90.0), (20.0, 95.0)))
    others: tuple[tuple[float, float], ...] = ()
    if rng.random() < 0.2:
        others = tuple(
            (round(rng.uniform(0.0, 300.0), 3), round(rng.uniform(20.0, 90.0), 3))
            for _ in range(rng.randint(1, 8))
        )
    stamps = service.stamps
    if rng.random() < 0.15:
        stamps = rng.choice(("whole_minutes", "jittered"))
    service = replace(
        service,
        durations=durations,
        fail_fast=rng.random() < 0.2,
        others=others,
        filler=150 if rng.random() < 0.05 else 0,
        stamps=stamps,
        date_offset=rng.choice((0.0, 0.0, 0.0, 0.0, -300.0, 300.0)),
    )
    runs = [
        replace(run, wall_step=round(rng.uniform(-600.0, 600.0), 3)) if n and rng.random() < 0.1 else run
        for n, run in enumerate(runs)
    ]
    # Drawn last, so that every draw before it is what it was before pages were capped.
    if rng.random() < 0.1:
        service = replace(service, page_cap=50 if service.filler else 2)
    return service, runs


def _open_readings(
    rng: random.Random, service: ServiceSettings, runs: list[RunSpec]
) -> tuple[ServiceSettings, list[RunSpec]]:
    """Readings of the spec's open points, and the world around a run, drawn after every
    other draw (so each seed's schedule is otherwise what it was): a listing that refuses
    a page larger than its default, jobs forgotten some time after they end, a gateway
    that gives up on a long request while the service goes on, a checkpoint's disk that
    fills up, a run by 1.0, and a rerun with another account's key."""
    if rng.random() < 0.12:
        service = replace(service, page_cap=50, page_bound="reject")
    if rng.random() < 0.12:
        service = replace(service, job_retention=rng.choice((60.0, 600.0, 1800.0)))
    if rng.random() < 0.12:
        service = replace(service, gateway_timeout=rng.choice((30.0, 60.0, 100.0)))
    if rng.random() < 0.12:
        service = replace(service, dispatch_tick=rng.choice((1.0, 5.0, 15.0)))
    runs = [replace(run, disk_full=rng.randint(0, 12)) if rng.random() < 0.06 else run for run in runs]
    if len(runs) > 1 and rng.random() < 0.1:
        # A 1.0 run, often of the async strategy and stopped or killed with jobs queued
        # behind a busy platform, then the same rows again on 1.2, whose default is sync.
        runs[0] = replace(runs[0], legacy=True, strategy=rng.choice(("sync", "async", "async")))
        runs[1] = replace(runs[1], strategy=rng.choice(("sync", "async")))
        if rng.random() < 0.7:
            # Most often killed in its first seconds and started again at once, on 1.2.
            runs[0] = replace(runs[0], stop=Stop("kill", at=round(rng.uniform(0.0, 10.0), 3)))
            runs[1] = replace(runs[1], gap=0.0)
        if rng.random() < 0.5:
            service = replace(service, dispatch_tick=rng.choice((1.0, 5.0, 15.0)))
        if rng.random() < 0.5:
            # Other accounts' long work, for minutes: 1.0's jobs wait in the queue behind it.
            busy = tuple(
                (round(rng.uniform(0.0, 5.0), 3), round(rng.uniform(150.0, 300.0), 3)) for _ in range(10)
            )
            service = replace(service, others=service.others + busy)
    elif len(runs) > 1 and rng.random() < 0.06:
        runs[-1] = replace(runs[-1], account="other")
    return service, runs


def _blocking(rng: random.Random, run: RunSpec) -> RunSpec:
    """The run on the blocking client (its threaded runner), now and then; drawn after
    every other draw, so that each seed's schedule is otherwise what it was. Its own logic
    is how it stops, so a blocking run the user would not stop is often left mid-way."""
    if rng.random() >= 0.3:
        return run
    run = replace(run, runner="threaded")
    if run.stop is None and rng.random() < 0.5:
        stop = Stop(
            rng.choice(("break", "break_close")), outcomes=rng.randint(1, 8), linger=rng.uniform(0.0, 60.0)
        )
        run = replace(run, stop=stop)
    return run


def _crash_and_restart(rng: random.Random, runs: list[RunSpec]) -> list[RunSpec]:
    """The story of a process killed in its first seconds (a deploy, an OOM kill, a laptop
    closed) and started again at once with the same command: the leads it had just sent
    are in flight, and may not even have reached the service yet."""
    first = runs[0]
    kill = Stop(
        "kill",
        at=rng.uniform(0.0, 10.0),
        trigger=rng.choice(("start", "request")),
        count=rng.randint(1, 3),
    )
    again = replace(runs[1] if len(runs) > 1 else first, strategy=first.strategy, stop=None, gap=0.0)
    return [replace(first, stop=kill), again, *runs[2:]]


def _rows(rng: random.Random) -> tuple[Row, ...]:
    rows: list[Row] = []
    for n in range(rng.choice((1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 12))):
        draw_ = rng.random()
        if rows and draw_ < 0.1:
            rows.append(rng.choice(rows))  # an identical row
        elif rows and draw_ < 0.25 and any(r.email for r in rows):
            first = rng.choice([r for r in rows if r.email])
            email = first.email if rng.random() < 0.7 or first.email is None else first.email.upper()
            rows.append(Row(f"Co{n}", f"co{n}.com", email, f"Person {n}"))  # another lead, the same email
        elif draw_ < 0.3:
            rows.append(Row(f"Co{n}", None))  # refused before sending: no domain
        else:
            email = f"p{n}@co{n}.com" if rng.random() < 0.6 else None
            rows.append(Row(f"Co{n}", f"co{n}.com", email))
    return tuple(rows)


def _run(rng: random.Random, rows: int, *, first: bool) -> RunSpec:
    stop: Stop | None = None
    if rng.random() < 0.6:
        kind: StopKind = rng.choice(
            ("break", "break_close", "cancel", "cancel_twice", "kill", "kill", "kill")
        )
        # Stops timed from an event of the run (a request leaving, an answer lost) land
        # in the windows that matter far more often than stops timed from its start.
        trigger: Trigger = rng.choice(("start", "start", "request", "loss"))
        stop = Stop(
            kind,
            at=rng.choice(
                (
                    rng.uniform(0.0, 2.0),
                    rng.uniform(0.0, 5.0),
                    rng.uniform(0.0, 60.0),
                    rng.uniform(0.0, 300.0),
                )
            ),
            outcomes=rng.randint(1, max(1, rows)),
            again=rng.uniform(0.0, 30.0),
            linger=rng.choice((0.0, rng.uniform(0.0, 120.0))),
            trigger=trigger,
            count=rng.randint(1, max(1, rows)),
        )
    max_credits: int | Literal["auto"] | None = None
    if rng.random() < 0.25:
        max_credits = rng.choice(("auto", rng.randint(0, rows)))
    return RunSpec(
        strategy=rng.choice(("sync", "async")),
        concurrency=rng.choice((1, 2, 3, 5, 5, 5, 8, 10)),
        max_credits=max_credits,
        read_timeout=rng.choice((30.0, 30.0, 5.0, 10.0, 120.0)),
        poll_interval=rng.choice((None, None, 1.0, 5.0)),
        preview=rng.random() < 0.2,
        stop=stop,
        gap=0.0 if first else rng.choice((0.0, 0.0, rng.uniform(0.0, 120.0), rng.uniform(0.0, 3600.0))),
    )


def _fault(rng: random.Random, enabled: list[tuple[FaultKind, int]]) -> Fault:
    kinds, weights = zip(*enabled, strict=False)
    kind: FaultKind = rng.choices(kinds, weights)[0]
    seconds = 0.0
    if kind == "slow":
        seconds = rng.choice((rng.uniform(1.0, 60.0), rng.uniform(60.0, 600.0)))
    elif kind == "taken_late":
        # Up to the longest the model takes to take a request in, often near it.
        seconds = rng.choice((rng.uniform(1.0, SETTLE), rng.uniform(0.7 * SETTLE, SETTLE)))
    elif kind == "rate_limited":
        seconds = float(rng.randint(1, 60))
    return Fault(kind, round(seconds, 3))
