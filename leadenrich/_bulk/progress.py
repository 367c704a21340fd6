"""Progress display for bulk runs: tqdm when it is there, or a callback of the caller's."""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, Union

from .._display import plural

if TYPE_CHECKING:
    from .results import BulkOutcome

__all__ = ["ProgressOption", "Reporter", "interactive", "reporter"]

# Union, not `|`: BulkOutcome is loaded with the bulk runner, not by the clients' import.
ProgressOption = Union[bool, Callable[["BulkOutcome"], object], None]  # noqa: UP007
"""None: a bar when interactive and tqdm is installed; True: always a bar; False: none;
a callable: called with each outcome as it completes."""


class Reporter(Protocol):
    def update(self, outcome: BulkOutcome) -> None: ...

    def close(self) -> None: ...


class _Silent:
    def update(self, outcome: BulkOutcome) -> None:
        return None

    def close(self) -> None:
        return None


class _Callback:
    def __init__(self, callback: Callable[[BulkOutcome], object]) -> None:
        self._callback = callback

    def update(self, outcome: BulkOutcome) -> None:
        self._callback(outcome)

    def close(self) -> None:
        return None


class _Bar:
    def __init__(self, bar: Any) -> None:
        self._bar = bar
        self._failed = 0

    def update(self, outcome: BulkOutcome) -> None:
        if outcome.status in ("failed", "skipped"):
            self._failed += 1
            self._bar.set_postfix(failed=self._failed, refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        self._bar.close()


class _Lines:
    """The text fallback when a bar was asked for but tqdm is not installed: on a terminal
    one line, rewritten as each lead completes; elsewhere (a log, a pipe) a line at each
    tenth of the run, so that 400 leads make 10 lines, not 400."""

    def __init__(self, total: int) -> None:
        self._total = total
        self._done = 0
        self._failed = 0
        self._live = sys.stderr.isatty()
        self._tenths_shown = 0

    def update(self, outcome: BulkOutcome) -> None:
        self._done += 1
        if outcome.status in ("failed", "skipped"):
            self._failed += 1
        line = f"leadenrich: {self._done}/{plural(self._total, 'lead')}"
        if self._failed:
            line += f" ({self._failed} failed or not started)"
        if self._live:
            # Back to the start of the line, and clear what a longer line left there.
            sys.stderr.write(f"\r{line}\x1b[K")
            sys.stderr.flush()
            return
        tenths = self._done * 10 // max(self._total, 1)
        if tenths > self._tenths_shown:
            self._tenths_shown = tenths
            print(line, file=sys.stderr)

    def close(self) -> None:
        if self._live and self._done:
            sys.stderr.write("\n")


def reporter(option: ProgressOption, total: int) -> Reporter:
    if option is False:
        return _Silent()
    if callable(option):
        return _Callback(option)
    if option is None and not interactive():
        return _Silent()
    try:
        # tqdm.auto: a widget in Jupyter, a text bar in a terminal; optional, so untyped here.
        tqdm_auto: Any = import_module("tqdm.auto")
    except ImportError:
        return _Lines(total) if option is True else _Silent()
    # Counts, not rates: tqdm's "54947.21lead/s" (or "6.67s/lead") says little of leads
    # that take 20-40 s each, five at a time.
    leads = "lead" if total == 1 else "leads"
    shown = f"{{l_bar}}{{bar}}| {{n_fmt}}/{{total_fmt}} {leads} [{{elapsed}}<{{remaining}}{{postfix}}]"
    return _Bar(tqdm_auto.tqdm(total=total, desc="enriching", bar_format=shown))


def interactive() -> bool:
    # A notebook's stderr is not a terminal, but a widget bar is exactly what it wants.
    return "ipykernel" in sys.modules or sys.stderr.isatty()
