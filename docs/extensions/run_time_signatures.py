"""A griffe extension of the API reference: the signatures the SDK builds at run time.

A method that takes its keywords as `**options: Unpack[BulkOptions]` is given a run-time
signature naming each key with its default (leadenrich/_signatures.py), which `help()`
shows; griffe reads the source, where there is only `**options`. This shows the method
with the signature `help()` shows, so the reference and the interpreter agree.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import griffe

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: griffe.ParameterKind.positional_only,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: griffe.ParameterKind.positional_or_keyword,
    inspect.Parameter.VAR_POSITIONAL: griffe.ParameterKind.var_positional,
    inspect.Parameter.KEYWORD_ONLY: griffe.ParameterKind.keyword_only,
    inspect.Parameter.VAR_KEYWORD: griffe.ParameterKind.var_keyword,
}


def built_signature(path: str) -> inspect.Signature | None:
    """The signature the object at `path` was given at run time, if it was given one."""
    module, _, rest = path.partition(".")
    found: Any = importlib.import_module(module)
    for name in rest.split("."):
        if inspect.ismodule(found) and not hasattr(found, name):
            found = importlib.import_module(f"{found.__name__}.{name}")
        else:
            found = getattr(found, name, None)
    signature = vars(found).get("__signature__") if inspect.isfunction(found) else None
    return signature if isinstance(signature, inspect.Signature) else None


class RunTimeSignatures(griffe.Extension):
    """Show a function with the signature it was given at run time."""

    def on_function(self, *, func: griffe.Function, **kwargs: Any) -> None:
        signature = built_signature(func.path)
        if signature is None:
            return
        written = {parameter.name: parameter for parameter in func.parameters}
        func.parameters = griffe.Parameters(
            *(
                written.get(parameter.name)
                or griffe.Parameter(
                    parameter.name,
                    annotation=str(parameter.annotation),
                    kind=_KINDS[parameter.kind],
                    default=repr(parameter.default),
                )
                for parameter in signature.parameters.values()
            )
        )
