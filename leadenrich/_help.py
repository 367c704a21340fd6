"""What `help()` shows of a client's namespaces (`help(client.leads)`): their docs as the
API reference reads, without the paths of private modules.

The namespaces are classes of private modules, made by the clients and reached as their
attributes, never imported. So each names `leadenrich`, where the clients live, as its
module (help() then prints `class Leads(StoredLeads, ...)`, not
`leadenrich._resources.stored_leads.StoredLeads`), and its docstrings lose the
cross-reference targets the API reference links with (`[`Jobs.wait`][...]` reads
`Jobs.wait`). The reference is built from the source, which keeps them.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from functools import cached_property
from typing import Any

__all__ = ["as_documented", "with_args_of", "without_cross_references"]

_CROSS_REFERENCE = re.compile(r"\[(`[^`]+`)\]\[[\w.]*\]")


def as_documented(cls: type) -> None:
    """Make `help()` show `cls` as the API reference does."""
    cls.__module__ = "leadenrich"
    cls.__doc__ = without_cross_references(cls.__doc__)
    for member in vars(cls).values():
        if isinstance(member, cached_property):
            member.__doc__ = without_cross_references(member.__doc__)
            member.func.__doc__ = member.__doc__
        elif inspect.isfunction(member):
            member.__doc__ = without_cross_references(member.__doc__)


def without_cross_references(doc: str | None) -> str | None:
    """`doc` as help() should show it: "[`Jobs.wait`][leadenrich.Jobs.wait]" reads `Jobs.wait`."""
    return _CROSS_REFERENCE.sub(r"\1", doc) if doc else doc


_ARGS = re.compile(r"^( *)Args:\n.*?(?=^ *Examples:|\Z)", re.MULTILINE | re.DOTALL)


def with_args_of(method: Callable[..., Any], original: Callable[..., Any]) -> None:
    """Give `method`'s docstring the Args section of `original`'s, before its Examples:
    a twin that takes the same arguments reads complete in help() too."""
    found = _ARGS.search(original.__doc__ or "")
    doc = method.__doc__ or ""
    if found is None or _ARGS.search(doc):
        return
    at = doc.find("Examples:")
    at = doc.rfind("\n", 0, at) + 1 if at != -1 else len(doc)
    method.__doc__ = doc[:at] + found.group(0).rstrip() + "\n\n" + doc[at:]
