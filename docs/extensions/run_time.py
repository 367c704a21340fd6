"""Griffe extensions of the API reference: the SDK as a user meets it at run time.

griffe reads the source; `help()` and the user's code see what the source builds. Where
the two differ, the reference shows what the user sees:

- `RunTimeSignatures`: a method that takes its keywords as `**options: Unpack[BulkOptions]`
  is given a run-time signature naming each key with its default (leadenrich/_signatures.py);
  a default written as the name of a constant (`timeout=DEFAULT_TIMEOUT`) is shown as its
  value (`Timeout(connect=5.0, read=30.0, ...)`); a class given its own constructor at run
  time (each client: `_constructor_of`) is shown with that constructor's signature.
- `PublicBases`: a class shows the bases a user can import. A private base (`SyncAPIClient`,
  `ResponseModel`) is shown as its own bases, down to public ones (`pydantic.BaseModel`),
  or not at all. mkdocstrings shows what this records through the templates beside it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from functools import cache
from typing import Any

import griffe

_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: griffe.ParameterKind.positional_only,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: griffe.ParameterKind.positional_or_keyword,
    inspect.Parameter.VAR_POSITIONAL: griffe.ParameterKind.var_positional,
    inspect.Parameter.KEYWORD_ONLY: griffe.ParameterKind.keyword_only,
    inspect.Parameter.VAR_KEYWORD: griffe.ParameterKind.var_keyword,
}


def run_time_object(path: str) -> Any:
    """The object at `path` (`package.module.Class.method`), imported; None for a missing attribute."""
    module, _, rest = path.partition(".")
    found: Any = importlib.import_module(module)
    for name in rest.split(".") if rest else []:
        if inspect.ismodule(found) and not hasattr(found, name):
            found = importlib.import_module(f"{found.__name__}.{name}")
        else:
            found = getattr(found, name, None)
    return found


def built_signature(path: str) -> inspect.Signature | None:
    """The signature the function at `path` was given at run time, if it was given one."""
    return _given_signature(run_time_object(path))


def _given_signature(found: Any) -> inspect.Signature | None:
    signature = vars(found).get("__signature__") if inspect.isfunction(found) else None
    return signature if isinstance(signature, inspect.Signature) else None


def _is_literal(written: str | griffe.Expr) -> bool:
    try:
        ast.literal_eval(str(written))
    except (ValueError, SyntaxError):
        return False
    return True


def _shown_default(written: str | griffe.Expr | None, value: Any) -> str | griffe.Expr | None:
    """A default written as a name or a call shown as its value, when its repr reads as one."""
    if written is None or _is_literal(written) or value is inspect.Parameter.empty:
        return written
    shown = repr(value)
    if not shown.startswith("<"):
        return shown
    # `<function enrichment_fails at 0x...>` says less than the name it was written as,
    # unless that name is a private module's (`_rules.enrichment_fails`), which no reader
    # can import: then `...`, and the setting's own docs say what the default does.
    return "..." if re.search(r"(?:^|\.)_[a-z]", str(written)) else written


def _shown(written: griffe.Parameter | None, run_time: inspect.Parameter) -> griffe.Parameter:
    if written is None:
        return griffe.Parameter(
            run_time.name,
            annotation=str(run_time.annotation),
            kind=_KINDS[run_time.kind],
            default=repr(run_time.default),
        )
    written.default = _shown_default(written.default, run_time.default)
    if isinstance(run_time.annotation, str) and run_time.annotation != str(written.annotation):
        # A constructor given at run time to a class names its own types (`httpx.Client`)
        # where the shared source has a type variable.
        written.annotation = run_time.annotation
    return written


class RunTimeSignatures(griffe.Extension):
    """Show a function with the signature it has at run time."""

    def on_class(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        # A constructor the class was given at run time, where the source has it inherit one:
        # a member of its own, which on_function then gives the run-time signature.
        inherited = cls.all_members.get("__init__")
        if inherited is None or not inherited.inherited or "__init__" not in vars(run_time_object(cls.path)):
            return
        written = inherited.final_target
        assert isinstance(written, griffe.Function)
        cls.set_member(
            "__init__",
            griffe.Function(
                "__init__",
                lineno=written.lineno,
                endlineno=written.endlineno,
                parameters=griffe.Parameters(
                    *(
                        griffe.Parameter(p.name, annotation=p.annotation, kind=p.kind, default=p.default)
                        for p in written.parameters
                    )
                ),
                returns=written.returns,
            ),
        )

    def on_attribute(self, *, attr: griffe.Attribute, **kwargs: Any) -> None:
        # A dataclass field's default, which griffe also makes the constructor's.
        if (
            attr.parent is not None
            and attr.parent.is_class
            and attr.value is not None
            and not _is_literal(attr.value)
        ):
            attr.value = _shown_default(attr.value, run_time_object(attr.path))

    def on_function(self, *, func: griffe.Function, **kwargs: Any) -> None:
        found = run_time_object(func.path)
        if not inspect.isfunction(found):
            return
        signature = inspect.signature(found)
        written = {parameter.name: parameter for parameter in func.parameters}
        if _given_signature(found) is None:
            # Written as it runs: only what the source names differently changes.
            for parameter in signature.parameters.values():
                if parameter.name in written:
                    _shown(written[parameter.name], parameter)
            return
        func.parameters = griffe.Parameters(
            *(_shown(written.get(p.name), p) for p in signature.parameters.values())
        )


@cache
def _public(package: str) -> frozenset[int]:
    """The ids of what the package's public modules export (`__all__`)."""
    exported: set[int] = set()
    found = [importlib.import_module(package)]
    while found:
        module = found.pop()
        exported.update(id(getattr(module, name)) for name in getattr(module, "__all__", ()))
        path = getattr(module, "__path__", None)
        if path is not None:
            found.extend(
                importlib.import_module(f"{module.__name__}.{info.name}")
                for info in pkgutil.iter_modules(path)
                if not info.name.startswith("_")
            )
    return frozenset(exported)


_GENERIC = frozenset({"typing.Generic", "typing_extensions.Generic"})


class PublicBases(griffe.Extension):
    """Record the bases a user can import, which docs/extensions/templates show as the bases.

    `cls.bases` itself stays as written: griffe finds inherited members through it.
    """

    def on_class(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        shown = _public_bases(cls, cls.package.name, expanding=False)
        if [str(base) for base in shown] != [str(base) for base in cls.bases]:
            cls.extra["run_time"]["bases"] = shown


def _public_bases(cls: griffe.Class, package: str, *, expanding: bool) -> list[str | griffe.Expr]:
    shown: list[str | griffe.Expr] = []
    for base in cls.bases:
        path = base if isinstance(base, str) else base.canonical_path
        if expanding and path in _GENERIC:
            continue  # the type parameters of a base that is not shown
        if not path.startswith(f"{package}.") or id(run_time_object(path)) in _public(package):
            shown.append(base)
            continue
        written = cls.modules_collection.get_member(path)
        private = written.final_target if written.is_alias else written
        assert isinstance(private, griffe.Class)
        shown.extend(_public_bases(private, package, expanding=True))
    # Two private bases may lead to the same public one.
    return list({str(base): base for base in shown}.values())
