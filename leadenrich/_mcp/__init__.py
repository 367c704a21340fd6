"""`leadenrich mcp`: the Lead Enrichment API as tools for agent hosts (the `mcp` extra).

Built on the SDK's public names and the official `mcp` package; imported only when the
command runs, so `import leadenrich` and the rest of the CLI never load it.

- `cap.py`: the spending cap, credits held before a request leaves and settled after.
- `charges.py`: what an answer charged, by the spec's credit rules.
- `errors.py`: SDK errors as tool errors that say what to do; the key masked.
- `approval.py`: asking the person before a costly call (elicitation).
- `results.py`: the tools' outputs, the SDK's models with what each call cost.
- `state.py`: what the tool calls of one server share.
- `tools.py`: the tools.
- `server.py`: their registration, descriptions and annotations, and the transports.
"""

from __future__ import annotations

from .cap import CreditCap
from .server import TOOLS, build_server, serve
from .state import ServerState

__all__ = ["TOOLS", "CreditCap", "ServerState", "build_server", "serve"]
