"""Progress of a preview's reading of the stored leads: a bar, or the caller's callback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module
from typing import Any

from .._display import plural
from .progress import interactive

__all__ = ["ScanProgress", "ScanReporter", "scan_reporter"]

ScanProgress = bool | Callable[[int], object] | None
"""None: a bar when interactive and tqdm is installed; True: always; False: none; a
callable: called with the number of stored leads read so far, after each page."""


class ScanReporter:
    """Told the running count after each page; closed when the reading ends."""

    def __init__(self, on_count: Callable[[int], object], close: Callable[[], object]) -> None:
        self.update = on_count
        self.close = close


def scan_reporter(option: ScanProgress) -> ScanReporter:
    if option is False or (option is None and not interactive()):
        return ScanReporter(lambda count: None, lambda: None)
    if callable(option):
        return ScanReporter(option, lambda: None)
    try:
        # tqdm.auto: a widget in Jupyter, a text bar in a terminal; optional, so untyped here.
        tqdm_auto: Any = import_module("tqdm.auto")
    except ImportError:
        return ScanReporter(_line if option is True else lambda count: None, lambda: None)
    # A count, not tqdm's "20lead [00:00, 4257.74lead/s]": the listing's length is unknown.
    bar: Any = tqdm_auto.tqdm(desc="stored leads", bar_format="{desc}: {n_fmt} read [{elapsed}]")

    def advance(count: int) -> None:
        bar.update(count - bar.n)

    return ScanReporter(advance, bar.close)


def _line(count: int) -> None:
    print(f"leadenrich: {plural(count, 'stored lead')} read", file=sys.stderr)
