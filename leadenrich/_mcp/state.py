"""What every tool call of one server shares: the client, the cap, and how to settle and fail."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from leadenrich import AsyncLeadEnrich, LeadEnrichError, LeadIn

from .cap import CapReached, CreditCap, Hold
from .charges import error_charge
from .errors import advice
from .results import CapReport, CreditReport

__all__ = ["ServerState", "state_of"]


@dataclass
class ServerState:
    """One server's client, cap and settings, shared by all its sessions for its life."""

    client: AsyncLeadEnrich
    cap: CreditCap
    confirm_above: int | None
    """A call that may charge more credits than this asks the person first (where the host
    can ask); None: never ask."""
    checkpoints: Path
    """Where batches keep their checkpoints: the same batch sent again resumes, free."""

    def cap_report(self) -> CapReport:
        cap = self.cap
        return CapReport(max_credits=cap.limit, spent=cap.spent, held=cap.held, left=cap.left)

    def credits(self, charged: int, held: int, note: str) -> CreditReport:
        return CreditReport(charged=charged, held=held, note=note, cap=self.cap_report())

    def hold(self, credits: int, what: str) -> Hold:
        try:
            return self.cap.hold(credits, what)
        except CapReached as exc:
            raise ToolError(f"{exc} | Credits: nothing charged") from None

    def failure(
        self, exc: LeadEnrichError, hold: Hold | None = None, *, started: str | None = None
    ) -> ToolError:
        """The tool error for `exc`, the hold settled: free if the service refused the
        request, still held if it may have charged it. `started`: what a call that started
        a job or lookup before failing to follow it left held."""
        if started is not None:
            charged = started
        elif hold is None:
            charged = "nothing charged (this call does not charge)"
        elif error_charge(exc) == 0:
            self.cap.settle(hold, 0)
            charged = "nothing charged: the request was refused before any work"
        else:
            charged = (
                f"the answer was lost, so the service may have charged it: {hold.credits} "
                "credit stays held against the server's cap"
            )
        return ToolError(advice(exc, charged=charged))

    def checkpoint_for(self, leads: Sequence[LeadIn]) -> Path:
        """The checkpoint of a batch: one per distinct list of leads."""
        body = json.dumps([lead.model_dump(exclude_none=True) for lead in leads], sort_keys=True)
        return self.checkpoints / f"batch-{hashlib.sha256(body.encode()).hexdigest()[:16]}.jsonl"


def state_of(ctx: Context[ServerState, Any]) -> ServerState:
    return ctx.request_context.lifespan_context
