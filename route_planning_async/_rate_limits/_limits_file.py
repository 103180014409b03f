"""Rate limits written in a file: the format the command line's ``--limits FILE``
and the emulator's team file (its ``limits`` table) share, read in one place.

A file names categories and their rules; categories it does not name keep the
contract's rules, and an empty list makes a category unlimited (the format's
text, shown by the commands' help, is :data:`LIMITS_FILE_FORMAT`). Every error
is a :class:`~route_planning_async.ConfigurationError` naming the file and the
place in it.
"""

from __future__ import annotations

import sys
import textwrap
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

from route_planning_async._errors import ConfigurationError
from route_planning_async._json import JSONInputError, read_json
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule

__all__ = ["LIMITS_FILE_FORMAT", "NAMED_LIMITS", "limits_from_data", "load_data", "read_limits_file"]

NAMED_LIMITS: Mapping[str, Callable[[], RateLimits]] = {
    "contract": RateLimits.default,
    "public-docs": RateLimits.public_docs,
}
"""The limits known by name wherever a limits file is taken (``--limits``, ``ROUTE_PLANNING_LIMITS``)."""

_CATEGORIES_TEXT = textwrap.fill(
    f"Limits file (--limits FILE): categories {', '.join(category.value for category in Category)}, "
    "each a list of rules {amount, period in seconds, per: request (default) or weight "
    "(stops in a batch)}; categories not named keep the contract's rules, an empty list "
    "makes one unlimited.",
    width=76,
)
LIMITS_FILE_FORMAT = f"""\b
{_CATEGORIES_TEXT}
  JSON: {{"read": [{{"amount": 20, "period": 1}}], "optimize": []}}
  TOML: optimize = []
        [[read]]
        amount = 20
        period = 1
"""
"""The format of a limits file, as the commands' help shows it (``\\b`` keeps click from rewrapping it)."""

_RULE_KEYS = frozenset({"amount", "period", "per"})


def load_data(path: Path, file: str, text: str | None = None) -> object:
    """The data of a JSON or TOML file: ``.json`` is JSON, ``.toml`` TOML, any other name JSON
    first, then TOML; errors start with ``file``, the file as messages name it.

    ``text`` is the file's content when the caller has read it already; the path ``-`` is
    standard input (tried as JSON, then TOML). A UTF-8 byte order mark at the start is
    skipped. JSON is read by the library's reader (``_json.py``: bounded depth and digits),
    and a key written twice in one table is an error in either format (the last would
    silently win in JSON).
    """
    if text is None:
        try:
            text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            reason = (exc.strerror or str(exc)) if isinstance(exc, OSError) else "not UTF-8 text"
            raise ConfigurationError(f"{file}: cannot read it: {reason}") from None
    text = text.removeprefix("\ufeff")
    suffix = path.suffix.lower()
    refused: JSONInputError | None = None
    if suffix != ".toml":
        try:
            return read_json(text, unique_keys=True)
        except JSONInputError as exc:
            if suffix == ".json":
                reason = f"not valid JSON: {exc.detail}" if exc.syntax else f"it {exc}"
                raise ConfigurationError(f"{file}: {reason}") from None
            # Past a bound (depth, digits, a key twice) before JSON's syntax was judged: the
            # more precise reason, unless the text is TOML.
            refused = None if exc.syntax else exc
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError) as exc:
        if refused is not None:
            raise ConfigurationError(f"{file}: it {refused}") from None
        if isinstance(exc, RecursionError):
            raise ConfigurationError(f"{file}: it nests too deep to read") from None
        if suffix != ".toml":
            raise ConfigurationError(f"{file}: neither valid JSON nor valid TOML") from None
        if isinstance(exc, tomllib.TOMLDecodeError):
            reason = str(exc)
        else:  # tomllib's bare ValueError: an integer of more digits than Python converts
            reason = "it holds a number of too many digits"
        raise ConfigurationError(f"{file}: not valid TOML: {reason}") from None


def limits_from_data(data: object, file: str, place: str = "") -> RateLimits:
    """The contract's limits with the categories ``data`` names replaced.

    Args:
        data: A table of category names to lists of rules.
        file: The file, as messages name it.
        place: Where the table sits in the file (``limits``); empty for the whole file.
    """

    def at(key: str) -> str:
        return f"{file}: {key}" if key else file

    prefix = f"{place}." if place else ""
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"{at(place)}: expected a table of categories, got {type(data).__name__}")
    limits = RateLimits.default()
    for name, items in data.items():
        try:
            category = Category(name)
        except ValueError:
            known = ", ".join(category.value for category in Category)
            raise ConfigurationError(
                f"{at(place)}: unknown category {name!r} (categories: {known})"
            ) from None
        if not isinstance(items, list):
            raise ConfigurationError(
                f"{at(prefix + name)} must be a list of rules, got {type(items).__name__}"
            )
        rules = [_rule(at(f"{prefix}{name}[{index}]"), item) for index, item in enumerate(items)]
        limits = limits.replace(category, *rules)
    return limits


def _rule(where: str, item: object) -> Rule:
    if not isinstance(item, Mapping):
        raise ConfigurationError(
            f"{where}: a rule is a table with amount and period, got {type(item).__name__}"
        )
    unknown = sorted(set(item) - _RULE_KEYS)
    if unknown:
        raise ConfigurationError(
            f"{where}: unknown key(s) {', '.join(unknown)} (a rule has amount, period, per)"
        )
    missing = [key for key in ("amount", "period") if key not in item]
    if missing:
        raise ConfigurationError(f"{where}: {' and '.join(missing)} missing")
    try:
        return Rule(item["amount"], item["period"], item.get("per", "request"))
    except ConfigurationError as exc:
        raise ConfigurationError(f"{where}: {exc}") from None


def read_limits_file(path: Path, file: str | None = None, *, text: str | None = None) -> RateLimits:
    """The limits of a limits file (see the module docstring); ``file``: how messages name it;
    ``text``: its content, when it was read already (``-``: standard input)."""
    name = str(path) if file is None else file
    return limits_from_data(load_data(path, name, text), name)
