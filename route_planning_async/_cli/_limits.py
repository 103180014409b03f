"""The ``--limits`` option: the client's rate limits by name, or read from a JSON or TOML file.

A file names categories and their rules; categories it does not name keep the
contract's rules, and an empty list makes a category unlimited::

    # limits.toml                      // limits.json
    [[read]]                           {"read": [{"amount": 20, "period": 1}],
    amount = 20                         "batch_import": [
    period = 1                            {"amount": 30, "period": 60},
                                          {"amount": 2000, "period": 60, "per": "weight"}]}
    [[batch_import]]
    amount = 30
    period = 60

    [[batch_import]]
    amount = 2000
    period = 60
    per = "weight"

Nothing here needs click or rich.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from route_planning_async import Category, ConfigurationError, RateLimits, Rule
from route_planning_async._cli._errors import InputError

__all__ = [
    "LIMITS_FILE_HELP",
    "LIMITS_HELP",
    "LIMITS_METAVAR",
    "NAMED_LIMITS",
    "SERVER_LIMITS_HELP",
    "parse_limits",
    "read_limits_file",
]

NAMED_LIMITS = {"contract": RateLimits.default, "public-docs": RateLimits.public_docs}
"""The limits ``--limits`` knows by name."""

LIMITS_METAVAR = "public-docs|contract|FILE"
"""What a ``--limits`` option takes, as its help shows it."""

LIMITS_HELP = (
    "The client's rate limits: contract (the default), public-docs (the public API documentation's "
    "newer figures), or a JSON or TOML FILE of rules per category (see 'Limits file' below)."
)
"""The option's help text."""

SERVER_LIMITS_HELP = (
    "The limits the emulator enforces (default: the contract's); same format as the shared --limits."
)
"""The help text of the ``emulator`` command's own ``--limits``."""

LIMITS_FILE_HELP = """\b
Limits file (--limits FILE): categories read, write, batch_import, optimize,
driver_create, driver_import, each a list of rules {amount, period in
seconds, per: request (default) or weight (stops in a batch)}; categories
not named keep the contract's rules, an empty list makes one unlimited.
  JSON: {"read": [{"amount": 20, "period": 1}], "optimize": []}
  TOML: optimize = []
        [[read]]
        amount = 20
        period = 1
"""
"""The format of a limits file, for the commands' help."""

_RULE_KEYS = frozenset({"amount", "period", "per"})


def parse_limits(value: str) -> RateLimits:
    """``contract``, ``public-docs``, or the path of a limits file."""
    named = NAMED_LIMITS.get(value)
    if named is not None:
        return named()
    path = Path(value)
    if not path.exists():
        names = ", ".join(NAMED_LIMITS)
        raise InputError(f"--limits {value}: neither {names} nor an existing file")
    return read_limits_file(path)


def _load(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise InputError(f"--limits {path}: cannot read it: {reason}") from None
    if path.suffix.lower() == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"--limits {path}: not valid TOML: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if path.suffix.lower() == ".json":
            raise InputError(f"--limits {path}: not valid JSON: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise InputError(f"--limits {path}: neither valid JSON nor valid TOML") from None


def _rule(where: str, item: Any) -> Rule:
    if not isinstance(item, Mapping):
        raise InputError(f"{where}: a rule is a table with amount and period, got {type(item).__name__}")
    unknown = sorted(set(item) - _RULE_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(unknown)} (a rule has amount, period, per)")
    missing = [key for key in ("amount", "period") if key not in item]
    if missing:
        raise InputError(f"{where}: {' and '.join(missing)} missing")
    try:
        return Rule(item["amount"], item["period"], item.get("per", "request"))
    except ConfigurationError as exc:
        raise InputError(f"{where}: {exc}") from None


def read_limits_file(path: Path) -> RateLimits:
    """The contract's limits with the categories the file names replaced; every error names its place."""
    data = _load(path)
    if not isinstance(data, Mapping):
        raise InputError(f"--limits {path}: expected a table of categories, got {type(data).__name__}")
    known = ", ".join(category.value for category in Category)
    rules: dict[Category, list[Rule]] = {}
    for name, items in data.items():
        try:
            category = Category(name)
        except ValueError:
            raise InputError(f"--limits {path}: unknown category {name!r} (categories: {known})") from None
        if not isinstance(items, list):
            raise InputError(f"--limits {path}: {name} must be a list of rules, got {type(items).__name__}")
        rules[category] = [
            _rule(f"--limits {path}: {name}[{index}]", item) for index, item in enumerate(items)
        ]
    limits = RateLimits.default()
    for category, category_rules in rules.items():
        limits = limits.replace(category, *category_rules)
    return limits
