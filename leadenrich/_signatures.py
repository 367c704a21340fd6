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
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any, ForwardRef, Literal, TypeVar, Union, cast, get_args, get_origin

__all__ = ["UNCHANGED", "Described", "keywords_from", "spelled_out"]

F = TypeVar("F", bound=Callable[..., Any])


class _Unchanged:
    """The default of a keyword whose absence keeps what there is (`with_options`)."""

    def __repr__(self) -> str:
        return "<unchanged>"


UNCHANGED = _Unchanged()
"""The run-time default shown for a keyword that, left out, changes nothing."""


class Described:
    """The default of a keyword that is not one value, shown as what it is: `<the server's>`."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __repr__(self) -> str:
        return f"<{self._text}>"


def keywords_from(options: type, defaults: Mapping[str, object]) -> Callable[[F], F]:
    """A decorator: the method's `**keywords` shown as the keys of `options`, a TypedDict,
    each with its default in `defaults` (a required key has none), before the method's
    other keyword-only parameters. A type written as the name of an alias (`MaxCredits`)
    is shown spelled out (`int | Literal['auto'] | None`): the alias is not importable,
    and help() would show a bare name."""
    annotations: dict[str, object] = dict(options.__annotations__)
    missing = [name for name in getattr(options, "__optional_keys__", ()) if name not in defaults]
    if missing:
        raise TypeError(f"no default for {', '.join(sorted(missing))} of {options.__name__}")
    namespace = vars(sys.modules[options.__module__])
    spread = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=defaults.get(name, inspect.Parameter.empty),
            annotation=_spelled_out(annotation, namespace),
        )
        for name, annotation in annotations.items()
    ]

    def show(method: F) -> F:
        written = inspect.signature(spelled_out(method))
        shown = [p for p in written.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        at = next((i for i, p in enumerate(shown) if p.kind is inspect.Parameter.KEYWORD_ONLY), len(shown))
        shown[at:at] = spread
        vars(method)["__signature__"] = written.replace(parameters=shown)
        return method

    return show


def spelled_out(method: F) -> F:
    """A decorator: the method's run-time signature with each alias it names spelled out
    (`leads: BulkInput` reads `leads: Iterable[LeadIn | LeadDict | Mapping[str, Any]] | ...`)."""
    written = inspect.signature(method)
    vars(method)["__signature__"] = written.replace(
        parameters=[
            p.replace(annotation=_spelled_out(p.annotation, method.__globals__))
            for p in written.parameters.values()
        ]
    )
    return method


def _spelled_out(annotation: object, namespace: Mapping[str, Any]) -> object:
    """`annotation` as written, or spelled out where it names an alias of `namespace`."""
    written = annotation.__forward_arg__ if isinstance(annotation, ForwardRef) else annotation
    if not isinstance(written, str) or not written.isidentifier():
        return written
    alias = namespace.get(written)
    if alias is None or isinstance(alias, type):
        return written  # a class (or a name this module does not hold) reads as it is
    return _type_text(alias)


def _type_text(tp: object) -> str:
    """A typing expression as it would be written: `int | Literal['auto'] | None`."""
    if tp is None or tp is type(None):
        return "None"
    if isinstance(tp, ForwardRef):
        return tp.__forward_arg__
    if isinstance(tp, str):
        return tp
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return " | ".join(_type_text(arg) for arg in args)
    if origin is Literal:
        return f"Literal[{', '.join(map(repr, args))}]"
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        if args and isinstance(args[0], list):  # Callable[[arguments], result]
            parameters = ", ".join(_type_text(arg) for arg in cast("list[object]", args[0]))
            return f"{name}[[{parameters}], {_type_text(args[1])}]"
        return f"{name}[{', '.join(_type_text(arg) for arg in args)}]"
    return getattr(tp, "__name__", str(tp))
