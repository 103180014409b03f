"""The one JSON reader of the library: every text it parses goes through :func:`read_json`.

Answers of the service, error bodies, webhook deliveries, limits (``ROUTE_PLANNING_LIMITS``,
``--limits``), team files, the command line's JSON inputs and the emulator's request bodies
are all read here, with the same bounds, so that no input can reach Python's limits
(a ``RecursionError`` from deep nesting, an ``OverflowError`` or a slow conversion from a
number of thousands of digits) before the library has named the problem:

- arrays and objects nest at most :data:`MAX_DEPTH` levels;
- an integer has at most :data:`MAX_DIGITS` digits, and a number is finite as a float
  (``1e400`` is refused; ``NaN`` and ``Infinity``, which JSON does not have, too);
- a text may start with a UTF-8 byte order mark, which is skipped;
- with ``unique_keys``, an object that names a key twice is refused (a file written by hand,
  where the last value would silently win).

Every refusal is a :class:`JSONInputError` (a :class:`ValueError`), whose message completes
"the <what> ..." (``is not JSON: ...``, ``nests too deep ...``); each caller turns it into its
own library error (a :class:`~route_planning_async.ServerError` for an answer, a
:class:`~route_planning_async.ConfigurationError` for limits, a 400 in the emulator).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable
from typing import Any, Final

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "JSONInputError", "read_json"]

MAX_DEPTH: Final = 256
"""The deepest nesting of arrays and objects read; far beyond any document of the API, and far
below Python's recursion limit, whatever reads the data next."""

MAX_DIGITS: Final = 64
"""The most digits of an integer read (or of a run of digits in a number); the API's largest
integers (epoch milliseconds) have 13."""

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JSONInputError(ValueError):
    """A text :func:`read_json` refuses; the message completes "the <what> ..."."""

    def __init__(self, message: str, *, detail: str | None = None) -> None:
        super().__init__(message if detail is None else f"{message}: {detail}")
        self.syntax = detail is not None
        """True when the text is not JSON at all (then :attr:`detail` says where)."""
        self.detail = detail
        """The decoder's account of a text that is not JSON (``Expecting value: line 1 ...``)."""


def _not_json(detail: str) -> JSONInputError:
    return JSONInputError("is not JSON", detail=detail)


def read_json(data: str | bytes | bytearray, *, unique_keys: bool = False) -> Any:
    """The JSON value of ``data``, read within the bounds of this module.

    Args:
        data: The text, or its bytes (UTF-8, -16 or -32, as JSON allows).
        unique_keys: Refuse an object that names a key twice.

    Returns:
        The value, as :func:`json.loads` gives it.

    Raises:
        JSONInputError: ``data`` is not JSON, or passes a bound (depth, digits, a number no
            float can hold), or repeats a key with ``unique_keys``.
    """
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode(json.detect_encoding(data), "strict")
        except (UnicodeDecodeError, LookupError):
            raise _not_json("not UTF-8 text") from None
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_bounds(text)
    hook: Callable[[list[tuple[str, Any]]], Any] | None = _unique if unique_keys else None
    try:
        return json.loads(
            text,
            parse_float=_finite,
            parse_constant=_no_constant,
            object_pairs_hook=hook,
        )
    except JSONInputError:
        raise
    except RecursionError:
        raise JSONInputError(_too_deep()) from None
    except ValueError as exc:
        raise _not_json(str(exc)) from None


def _too_deep() -> str:
    return f"nests too deep (more than {MAX_DEPTH} levels of arrays or objects)"


def _check_bounds(text: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and integers longer than :data:`MAX_DIGITS`.

    Measured on the text, without recursion, before the decoder sees it. The strings are
    left out first (a bracket or a digit inside one counts for nothing); in a text that is
    not JSON the decoder stops where the measure may go wrong, so it can never nest deeper.
    """
    cheap_depth = text.count("[") + text.count("{") <= MAX_DEPTH
    if cheap_depth and _LONG_DIGITS.search(text) is None:
        return
    bare = _STRINGS.sub('""', text)
    if _LONG_DIGITS.search(bare) is not None:
        raise JSONInputError(f"holds a number of more than {MAX_DIGITS} digits")
    if cheap_depth:
        return
    brackets = _NOT_BRACKETS.sub("", bare)
    if brackets and max(itertools.accumulate(map(_STEP.__getitem__, brackets))) > MAX_DEPTH:
        raise JSONInputError(_too_deep())


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONInputError(
            f"holds a number no float can hold: {text[:20]}{'...' if len(text) > 20 else ''}"
        )
    return value


def _no_constant(name: str) -> Any:
    raise _not_json(f"{name} is not a JSON value")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise JSONInputError(f"names the key {key!r} twice in one object")
        result[key] = value
    return result
