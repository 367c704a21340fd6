"""A package's names imported from their modules on first use (PEP 562).

What `leadenrich`, `leadenrich.testing` and `_models` do in their `__getattr__`: each
keeps a table of where its names come from, so importing the package imports none of
those modules, and type checkers see ordinary imports under TYPE_CHECKING.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import import_module
from typing import Any

__all__ = ["load"]


def load(package: str, sources: Mapping[str, str], name: str) -> Any:
    """`package`'s attribute `name`, imported from the module `sources` names, then cached."""
    source = sources.get(name)
    if source is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(import_module(source, package), name)
    setattr(sys.modules[package], name, value)
    return value
