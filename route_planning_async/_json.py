"""The one JSON reader of the library: every text it parses goes through :func:`read_json`.

Answers of the service, error bodies, webhook deliveries, limits (``ROUTE_PLANNING_LIMITS``,
``--limits``), team files, the command line's JSON inputs and the emulator's request bodies
are all read here, with the same bounds, so that no input can reach Python's limits
(a ``RecursionError`` from deep nesting, an ``OverflowError`` or a slow conversion from a
number of thousands of digits) before the library has named the problem:

- arrays and objects nest at most :data:`MAX_DEPTH` levels (measured without recursion, on
  every Python: 3.13's decoder reads far deeper than the recursion limit);
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
from typing import Any, Final

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "JSONInputError", "read_json"]

MAX_DEPTH: Final = 256
"""The deepest nesting of arrays and objects read; far beyond any document of the API, and far
below Python's recursion limit, whatever reads the data next."""

MAX_DIGITS: Final = 64
"""The most digits of an integer read (or of a run of digits in a number); the API's largest
integers (epoch milliseconds) have 13."""

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_LONG_DIGITS = re.compile(rf"[0-9]{{{MAX_DIGITS + 1}}}")


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
    if type(data) is bytes and len(data) > 1 and data[0] in _OPENERS and data[1]:
        # What an answer is: UTF-8 opening with { or [, so no byte order mark, and
        # json.detect_encoding would say UTF-8 (its other encodings need a zero byte in the
        # first two). Read without the sniffing, and from the first byte on.
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise _not_json("not UTF-8 text") from None
        raw, start = data, 0
    else:
        text, raw = _text(data)
        start = _after_whitespace(text, 0)
    # The bytes with every digit as 0, { as [ and E as e, and no +: a run of digits, an
    # exponent of three digits and the count of openers are then each one pass of C
    # (bytes.find, not "in", which first tries the needle as an integer).
    flat = raw.translate(_FLAT, b"+")
    if flat.find(_LONG_RUN) >= 0 and _LONG_DIGITS.search(_STRINGS.sub('""', text)) is not None:
        raise JSONInputError(f"holds a number of more than {MAX_DIGITS} digits")
    # A text of MAX_DEPTH bytes or fewer cannot hold more than MAX_DEPTH openers.
    if len(raw) > MAX_DEPTH and flat.count(b"[") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        raise JSONInputError(_too_deep())
    decoder = _DECODERS[flat.find(_BIG_EXPONENT) >= 0, unique_keys]
    try:
        # JSONDecoder.decode, with the leading whitespace measured above.
        value, end = decoder.raw_decode(text, start)
        if end != len(text):
            end = _after_whitespace(text, end)
            if end != len(text):
                raise json.JSONDecodeError("Extra data", text, end)
    except JSONInputError:
        raise
    except RecursionError:
        raise JSONInputError(_too_deep()) from None
    except ValueError as exc:
        raise _not_json(str(exc)) from None
    return value


def _text(data: str | bytes | bytearray) -> tuple[str, bytes]:
    """The text of ``data`` without a byte order mark, and its UTF-8 bytes (as sent, when UTF-8)."""
    if isinstance(data, bytes | bytearray):
        encoding = json.detect_encoding(data)
        try:
            text = bytes(data).decode(encoding, "strict")
        except (UnicodeDecodeError, LookupError):
            raise _not_json("not UTF-8 text") from None
        raw = bytes(data) if encoding in ("utf-8", "utf-8-sig") else text.encode("utf-8", "surrogatepass")
    else:
        text = data
        raw = text.encode("utf-8", "surrogatepass")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, raw


_OPENERS = (ord("{"), ord("["))
_WHITESPACE = re.compile(r"[ \t\n\r]*")
"""The whitespace JSON allows around a value, as :meth:`json.JSONDecoder.decode` skips it."""


def _after_whitespace(text: str, position: int) -> int:
    """Where the JSON whitespace that starts at ``position`` ends."""
    match = _WHITESPACE.match(text, position)
    return position if match is None else match.end()


_FLAT = bytes.maketrans(b"123456789{E", b"000000000[e")
_LONG_RUN = b"0" * (MAX_DIGITS + 1)
_BIG_EXPONENT = b"0e000"
"""A digit, then an exponent of three digits or more (in the flat bytes, which have no + and
write E as e): the only way a number of at most :data:`MAX_DIGITS` digits can pass a float's
range (a negative exponent only reaches zero)."""


def _decoder(*, finite: bool, unique: bool) -> json.JSONDecoder:
    return json.JSONDecoder(
        parse_float=_finite if finite else None,
        parse_constant=_no_constant,
        object_pairs_hook=_unique if unique else None,
    )


def _too_deep() -> str:
    return f"nests too deep (more than {MAX_DEPTH} levels of arrays or objects)"


def _depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in UTF-8 JSON, measured without recursion.

    Only the brackets outside strings count. Escapes go first (an escaped backslash, then an
    escaped quote), then every byte but quotes and brackets, then each string's quotes and
    the brackets they enclose; every step is a pass of C over bytes (no byte of a multi-byte UTF-8
    character is a quote, a backslash or a bracket). In a text that is not JSON the decoder
    stops before the measure can be wrong.
    """
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = raw.translate(None, _ALL_BUT_STRUCTURE)
    # Two quotes side by side close a string and open the next (or enclose nothing): both
    # within strings, so they go at once; the regular expression is left the rare strings
    # that hold a bracket.
    brackets = _QUOTED.sub(b"", kept.replace(b'""', b""))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


_ALL_BUT_STRUCTURE = bytes(byte for byte in range(256) if byte not in b'"[]{}')
_QUOTED = re.compile(rb'"[^"]*"')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


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


_DECODERS: Final = {
    (finite, unique): _decoder(finite=finite, unique=unique)
    for finite in (False, True)
    for unique in (False, True)
}
"""The decoders, made once: with the finite-float check only for a text that holds a large
exponent, and the repeated-key check only when asked."""
