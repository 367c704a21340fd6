"""`leadenrich preview`: what `enrich-file` would charge for a CSV, and whether the account can pay."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from .. import BulkPreview
from ._commands import connect
from ._enrich_file import LeadRows, read_leads
from ._exit_codes import ExitCode
from ._output import as_json, pairs

__all__ = ["preview", "render"]

# Invalid rows listed by line in the readable output; the rest are counted.
_SHOWN_INVALID = 5


def preview(args: argparse.Namespace) -> int:
    source = Path(args.input)
    leads = read_leads(source)
    with connect(args) as client:
        preview_many = functools.partial(
            client.leads.preview_many, leads.rows, checkpoint=args.checkpoint, progress=sys.stderr.isatty()
        )
        # Without --max-stored, the SDK's default: its None would read every stored lead.
        result = preview_many() if args.max_stored is None else preview_many(max_stored=args.max_stored)
    if args.json:
        print(
            as_json({"totals": {**result.totals(), "verdict": result.verdict}, "rows": result.to_records()})
        )
    else:
        print(render(result, leads))
    return ExitCode.OK if result.enough else ExitCode.CANNOT_PAY


def render(result: BulkPreview, leads: LeadRows) -> str:
    left = result.credits_left
    invalid = [row for row in result if row.status == "invalid"]
    lines = [f"line {leads.lines[row.index]}: {row.error}" for row in invalid[:_SHOWN_INVALID]]
    if len(invalid) > _SHOWN_INVALID:
        lines.append(f"and {len(invalid) - _SHOWN_INVALID} more")
    return pairs(
        [
            ("leads", len(result)),
            ("to enrich", result.new),
            ("already stored", f"{result.stored} (free: the service returns the stored lead)"),
            ("in the checkpoint", f"{result.in_checkpoint} (free)"),
            ("repeated rows", f"{result.duplicates} (free: they share the first one's result)"),
            ("invalid", "\n".join([str(len(invalid)), *lines])),
            ("credits at most", result.credits_at_most),
            ("credits left", "no limit" if left is None else left),
            ("verdict", result.verdict),
            ("stored leads", result.looked_back()),
        ]
    )
