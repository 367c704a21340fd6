"""Checks of FakeSettings' values, with messages that name the setting and what it takes."""

from __future__ import annotations

import math

__all__ = ["integer", "number", "positive_number", "rate", "value_range"]


def number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"FakeSettings.{name} must be a number of API seconds >= 0, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"FakeSettings.{name} must be a finite number of API seconds >= 0, got {value!r}")
    return float(value)


def rate(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"FakeSettings.{name} must be a share of requests from 0 to 1, got {value!r}")
    return float(value)


def positive_number(name: str, value: object, hint: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"FakeSettings.{name} must be a number > 0 ({hint}), got {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"FakeSettings.{name} must be a finite number > 0 ({hint}), got {value!r}")


def value_range(name: str, value: object) -> None:
    if not isinstance(value, tuple) or len(value) != 2:  # pyright: ignore[reportUnknownArgumentType]
        raise ValueError(f"FakeSettings.{name} must be a (min, max) tuple of API seconds, got {value!r}")
    low = number(f"{name}[0]", value[0])  # pyright: ignore[reportUnknownArgumentType]
    high = number(f"{name}[1]", value[1])  # pyright: ignore[reportUnknownArgumentType]
    if low > high:
        raise ValueError(f"FakeSettings.{name} must be (min, max) with min <= max, got {value!r}")


def integer(name: str, value: object, minimum: int, hint: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        extra = f" {hint}" if hint else ""
        raise ValueError(f"FakeSettings.{name} must be an int >= {minimum}{extra}, got {value!r}")
