"""Run-time signatures of the methods that take their keywords from a TypedDict.

`def enrich_many(self, leads, **options: Unpack[BulkOptions])` names every keyword to a
type checker, but `inspect.signature` (and so `help()`, IPython's `?` and Jupyter's
Shift-Tab) would show only `**options`. `keywords_from` gives such a method a
`__signature__` naming each key of the TypedDict as a keyword-only parameter, with its
annotation and default, in place of `**options`. The TypedDict stays the one list of the
keywords; type checkers still read the source.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, ForwardRef, TypeVar

__all__ = ["UNCHANGED", "keywords_from"]

F = TypeVar("F", bound=Callable[..., Any])


class _Unchanged:
    """The default of a keyword whose absence keeps what there is (`with_options`)."""

    def __repr__(self) -> str:
        return "<unchanged>"


UNCHANGED = _Unchanged()
"""The run-time default shown for a keyword that, left out, changes nothing."""


def keywords_from(options: type, defaults: Mapping[str, object]) -> Callable[[F], F]:
    """A decorator: the method's `**keywords` shown as the keys of `options`, a TypedDict,
    each with its default in `defaults` (a required key has none), before the method's
    other keyword-only parameters."""
    annotations: dict[str, object] = dict(options.__annotations__)
    missing = [name for name in getattr(options, "__optional_keys__", ()) if name not in defaults]
    if missing:
        raise TypeError(f"no default for {', '.join(sorted(missing))} of {options.__name__}")
    spread = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=defaults.get(name, inspect.Parameter.empty),
            annotation=annotation.__forward_arg__ if isinstance(annotation, ForwardRef) else annotation,
        )
        for name, annotation in annotations.items()
    ]

    def show(method: F) -> F:
        written = inspect.signature(method)
        shown = [p for p in written.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        at = next((i for i, p in enumerate(shown) if p.kind is inspect.Parameter.KEYWORD_ONLY), len(shown))
        shown[at:at] = spread
        vars(method)["__signature__"] = written.replace(parameters=shown)
        return method

    return show
