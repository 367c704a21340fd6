"""Asking the person before a costly call, where the host can ask (MCP elicitation).

Each charging tool has a resolver that runs before its body: when the call may charge
more credits than the server's `--confirm-above` and the host declared elicitation, it
asks; otherwise it approves without asking (a host that cannot ask still has the cap).
The SDK carries the question over whichever protocol the host speaks: a request in the
middle of the call (up to 2025-11-25), or an answer the host sends with the call again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, TypeAlias

from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.mcpserver import Context, Elicit, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, Field

from leadenrich import EmailFindIn, LeadIn, MobileFindIn

from .state import ServerState, state_of

__all__ = ["Approval", "BatchApproval", "EmailApproval", "EnrichApproval", "MobileApproval", "require"]


class Approval(BaseModel):
    """The person's answer."""

    approve: bool = Field(description="Spend the credits?")


def _question(ctx: Context[ServerState, Any], credits: int, what: str) -> Elicit[Approval] | Approval:
    state = state_of(ctx)
    left = state.cap.left
    capabilities = ctx.client_capabilities
    can_ask = capabilities is not None and capabilities.elicitation is not None
    if state.confirm_above is None or credits <= state.confirm_above or not can_ask:
        return Approval(approve=True)
    if left is not None and left < 1:
        return Approval(approve=True)  # the cap refuses it anyway: no question to ask
    cap = "no cap" if left is None else f"{left} of the server's {state.cap.limit} credits left"
    return Elicit(f"Allow {what}? It may charge up to {credits} credits ({cap}).", Approval)


def _person(query: EmailFindIn | MobileFindIn) -> str:
    if query.linkedin_url:
        return query.linkedin_url
    return " ".join(filter(None, (query.first_name, query.last_name, query.company_name or query.domain)))


async def _ask_enrich(lead: LeadIn, ctx: Context[ServerState, Any]) -> Elicit[Approval] | Approval:
    return _question(ctx, 1, f"enriching the lead {lead.company} ({lead.domain})")


async def _ask_email(person: EmailFindIn, ctx: Context[ServerState, Any]) -> Elicit[Approval] | Approval:
    return _question(ctx, 1, f"a work-email search for {_person(person)}")


async def _ask_mobile(person: MobileFindIn, ctx: Context[ServerState, Any]) -> Elicit[Approval] | Approval:
    return _question(ctx, 1, f"a mobile-number lookup for {_person(person)}")


async def _ask_batch(leads: Sequence[LeadIn], ctx: Context[ServerState, Any]) -> Elicit[Approval] | Approval:
    left = state_of(ctx).cap.left
    credits = len(leads) if left is None else min(len(leads), left)
    return _question(ctx, credits, f"enriching a batch of {len(leads)} leads")


Answer: TypeAlias = ElicitationResult[Approval]
EnrichApproval = Annotated[Answer, Resolve(_ask_enrich)]
EmailApproval = Annotated[Answer, Resolve(_ask_email)]
MobileApproval = Annotated[Answer, Resolve(_ask_mobile)]
BatchApproval = Annotated[Answer, Resolve(_ask_batch)]


def require(answer: Answer) -> None:
    """Go on if the person approved (or was not asked); a tool error otherwise, nothing sent."""
    if isinstance(answer, AcceptedElicitation) and answer.data.approve:
        return
    raise ToolError(
        "the person did not approve this call | What to do: do not retry it unless they ask "
        "for it | Credits: nothing charged, nothing was sent"
    )
