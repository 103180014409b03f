"""Small helpers every benchmark uses to shape its dict of figures.

A benchmark returns ``{"title", "settings", "figures", "checks", "tables", "notes"}``;
``checks`` compare one measured figure with its bar and say PASS or MISSED.
Bars live in the benchmark modules as constants and are never adjusted to fit.
"""

from __future__ import annotations

import math
import operator
import statistics
from collections.abc import Callable, Sequence
from typing import Any

_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    ">": operator.gt,
    "==": operator.eq,
}


def check(name: str, value: float | None, op: str, bar: float, *, unit: str = "") -> dict[str, Any]:
    """One bar: ``value op bar`` passes, anything else (including no value) is MISSED."""
    passed = value is not None and not math.isnan(value) and _OPS[op](value, bar)
    return {
        "name": name,
        "value": value,
        "bar": f"{op} {_fmt(bar)}{unit}",
        "status": "PASS" if passed else "MISSED",
    }


def result(
    title: str,
    *,
    settings: dict[str, Any] | None = None,
    figures: dict[str, Any] | None = None,
    checks: Sequence[dict[str, Any]] = (),
    tables: Sequence[dict[str, Any]] = (),
    notes: Sequence[str] = (),
) -> dict[str, Any]:
    """The dict a benchmark returns."""
    return {
        "title": title,
        "settings": settings or {},
        "figures": figures or {},
        "checks": list(checks),
        "tables": list(tables),
        "notes": list(notes),
    }


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """A table for RESULTS.md (and results.json)."""
    return {"title": title, "columns": list(columns), "rows": [list(r) for r in rows]}


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100), linear interpolation; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def median(values: Sequence[float]) -> float:
    """The median, NaN for no values."""
    return statistics.median(values) if values else math.nan


def rounded(value: float | None, digits: int = 4) -> float | None:
    """A float rounded for JSON; NaN and None become None."""
    if value is None or math.isnan(value) or math.isinf(value):
        return None
    return round(value, digits)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        if abs(value) >= 1000 or (value.is_integer() and abs(value) >= 1):
            return f"{value:,.0f}"
        return f"{value:.5g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def fmt(value: Any) -> str:
    """A figure as it is printed in RESULTS.md."""
    if value is None:
        return "n/a"
    return _fmt(value)
