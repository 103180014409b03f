"""JSON value checks every API version's request rules are written with.

Every function takes the decoded JSON and the dotted ``param`` path of where it
sits, and either returns the value in normalized form or raises a 400
:class:`~._problems.Problem` naming the param.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from types import UnionType
from typing import Any, TypeVar

from route_planning_async.emulator._rules._problems import Problem

__all__ = [
    "ID_RE",
    "MAX_SAFE_INTEGER",
    "array",
    "array_of",
    "boolean",
    "check_keys",
    "choice",
    "expect_object",
    "integer",
    "join",
    "number",
    "optional",
    "required",
    "string",
]

T = TypeVar("T")

ID_RE = re.compile(r"[A-Za-z0-9_-]{1,50}")
"""A bare id: 1 to 50 of ``[A-Za-z0-9_-]``."""
MAX_SAFE_INTEGER = 2**53 - 1
"""The largest integer a JSON number carries exactly (JavaScript's safe integer)."""

# A boolean is also an int in Python: it is looked at first.
_JSON_TYPES: tuple[tuple[type | UnionType, str], ...] = (
    (bool, "boolean"),
    (int | float, "number"),
    (str, "string"),
    (list, "array"),
)


def join(path: str, key: str | int) -> str:
    """``path.key`` or ``path[3]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), "object")


def expect_object(value: object, path: str) -> dict[str, Any]:
    """A JSON object, or 400."""
    if not isinstance(value, dict):
        raise Problem.invalid(path, f"must be an object, got {_type_name(value)}")
    return value


def check_keys(value: Mapping[str, object], allowed: tuple[str, ...], path: str, strict: bool) -> None:
    """400 on a key the contract does not define (strict servers, like ``additionalProperties: false``)."""
    if not strict:
        return
    for key in value:
        if key not in allowed:
            raise Problem.invalid(join(path, key), "is not a known field")


def required(obj: Mapping[str, object], keys: tuple[str, ...], path: str) -> None:
    """400 naming the first of ``keys`` that ``obj`` lacks."""
    for key in keys:
        if key not in obj:
            raise Problem.invalid(join(path, key), "is required")


def string(value: object, path: str, *, max_len: int = 255, min_len: int = 1) -> str:
    """A string of ``min_len`` to ``max_len`` characters."""
    if not isinstance(value, str):
        raise Problem.invalid(path, f"must be a string, got {_type_name(value)}")
    if not min_len <= len(value) <= max_len:
        raise Problem.invalid(path, f"must be {min_len} to {max_len} characters long, got {len(value)}")
    return value


def optional(check: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
    """``check`` that lets null through."""

    def checked(value: object, path: str) -> T | None:
        return None if value is None else check(value, path)

    return checked


def number(value: object, path: str, *, minimum: float | None = None, maximum: float | None = None) -> float:
    """A JSON number (never a boolean) within the bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise Problem.invalid(path, f"must be a number, got {_type_name(value)}")
    if minimum is not None and value < minimum:
        raise Problem.invalid(path, f"must be at least {minimum:g}, got {value:g}")
    if maximum is not None and value > maximum:
        raise Problem.invalid(path, f"must be at most {maximum:g}, got {value:g}")
    return value


def integer(value: object, path: str, *, minimum: int, maximum: int) -> int:
    """A whole JSON number within the bounds."""
    checked = number(value, path)
    if checked != int(checked):
        raise Problem.invalid(path, f"must be an integer, got {checked:g}")
    if not minimum <= checked <= maximum:
        raise Problem.invalid(path, f"must be between {minimum} and {maximum}, got {int(checked)}")
    return int(checked)


def boolean(value: object, path: str) -> bool:
    """A JSON boolean."""
    if not isinstance(value, bool):
        raise Problem.invalid(path, f"must be a boolean, got {_type_name(value)}")
    return value


def choice(value: object, path: str, options: tuple[str, ...]) -> str:
    """One of ``options``."""
    if not isinstance(value, str) or value not in options:
        raise Problem.invalid(path, f"must be one of {', '.join(options)}, got {value!r}")
    return value


def array(value: object, path: str, *, max_items: int, min_items: int = 0) -> list[Any]:
    """A JSON array with an allowed number of items."""
    if not isinstance(value, list):
        raise Problem.invalid(path, f"must be an array, got {_type_name(value)}")
    if not min_items <= len(value) <= max_items:
        raise Problem.invalid(path, f"must have {min_items} to {max_items} items, got {len(value)}")
    return value


def array_of(
    value: object, path: str, check: Callable[[object, str], T], *, max_items: int, min_items: int = 0
) -> list[T]:
    """A JSON array with an allowed number of items, each passed through ``check``."""
    items = array(value, path, max_items=max_items, min_items=min_items)
    return [check(item, join(path, index)) for index, item in enumerate(items)]
