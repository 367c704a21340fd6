"""How results look in a terminal and in Jupyter: short reprs and small HTML tables.

A repr says what an object is (its id, status, score, counts) in a line or two; the full
data stays one attribute away (`lead.enrichment`, `result.outcomes`, `model_dump()`).
Standard library only; `html` is imported when a notebook first asks for HTML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

__all__ = [
    "REPR_VALUE_LIMIT",
    "Shown",
    "brief",
    "html_fields",
    "html_table",
    "html_tags",
    "html_text",
    "plural",
    "shorten",
]

REPR_VALUE_LIMIT = 100
"""The longest any one value of a repr may be, in characters."""


def plural(count: int, noun: str) -> str:
    """`1 lead`, `2 leads`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


class Shown:
    """A value already written as a repr shows it (such as `'A long summ…'`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def brief(value: object, limit: int = REPR_VALUE_LIMIT) -> object:
    """`value` itself when its repr is short; otherwise a cut-down stand-in for that repr.

    Strings keep their start, lists and dicts their first items and how many more there
    are, anything else the start of its repr.
    """
    text = repr(value)
    if len(text) <= limit:
        return value
    if isinstance(value, str):
        cut = repr(value[: max(1, limit - 4)])
        return Shown(f"{cut[:-1]}…{cut[-1]}")  # the closing quote repr chose, ' or "
    if isinstance(value, BaseException):
        name = type(value).__name__
        return Shown(f"{name}({brief(str(value), limit - len(name) - 2)!r})")
    if isinstance(value, (list, tuple)):
        items = [repr(brief(item, limit // 2)) for item in cast("Sequence[object]", value)]
        return Shown(_first_items(items, "[", "]", limit))
    if isinstance(value, Mapping):
        mapping = cast("Mapping[object, object]", value)
        pairs = [f"{key!r}: {brief(item, limit // 3)!r}" for key, item in mapping.items()]
        return Shown(_first_items(pairs, "{", "}", limit))
    return Shown(text[: limit - 1] + "…")


def _first_items(items: Sequence[str], opening: str, closing: str, limit: int) -> str:
    whole = opening + ", ".join(items) + closing
    if len(whole) <= limit:
        return whole
    shown: list[str] = []
    used = len(opening) + len(closing) + len(", …99 more")
    for item in items:
        if used + len(item) + 2 > limit:
            break
        shown.append(item)
        used += len(item) + 2
    rest = len(items) - len(shown)
    shown.append(f"…{rest} more" if shown else f"…{rest} items")
    return opening + ", ".join(shown) + closing


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def html_text(value: object) -> str:
    """`value` as escaped HTML text; None is an empty cell."""
    from html import escape

    return "" if value is None else escape(str(value))


def html_table(header: Sequence[str], rows: Iterable[Sequence[object]], *, caption: str = "") -> str:
    """A plain HTML table (Jupyter styles it), every cell escaped."""
    head = "".join(f"<th>{html_text(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html_text(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    title = f"<caption>{html_text(caption)}</caption>" if caption else ""
    return f"<table>{title}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_tags(tags: Iterable[Any]) -> str:
    """Tags as small inline labels."""
    style = "display:inline-block;margin:0 4px 2px 0;padding:0 6px;border:1px solid #ccc;border-radius:8px"
    return "".join(f'<span style="{style}">{html_text(tag)}</span>' for tag in tags)


def html_fields(title: str, rows: Iterable[tuple[str, object]]) -> str:
    """What Jupyter shows of one record: a bold title over a table of its set fields."""
    cells = "".join(
        f"<tr><th style='text-align:left'>{html_text(key)}</th><td style='text-align:left'>{html_text(value)}</td></tr>"
        for key, value in rows
        if value is not None and value != ""
    )
    return f"<div><strong>{html_text(title)}</strong><table>{cells}</table></div>"
