"""The models, and pydantic's ValidationError, for the modules a client imports: loaded on first use.

`import pydantic` alone is cheap, but the first model class defined pulls in pydantic's
schema machinery (about 40 ms), and each model class costs more. So nothing on the
import path of `LeadEnrich` and `AsyncLeadEnrich` imports `_models` or pydantic's names
at module level: where it needs a model at run time (to parse, validate or check an
instance) it writes `_lazy_models.LeadOut`, and the first call that does so loads that
model's module, and only that one. Annotations import the models under TYPE_CHECKING.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError as ValidationError

    from ._models import *  # noqa: F403


if not TYPE_CHECKING:  # so that type checkers flag a name `_models` does not have

    def __getattr__(name: str) -> Any:
        module = "pydantic" if name == "ValidationError" else f"{__package__}._models"
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value
