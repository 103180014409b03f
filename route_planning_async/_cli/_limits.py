"""The ``--limits`` option: the client's rate limits by name, or read from a JSON or TOML file.

The file's format is the library's limits file (``route_planning_async/_rate_limits/_limits_file.py``,
its text :data:`LIMITS_FILE_FORMAT`, shown in the commands' help). Nothing here
needs rich; ``-`` (stdin) is read through ``_stdio``.
"""

from __future__ import annotations

from pathlib import Path

from route_planning_async import ConfigurationError, RateLimits
from route_planning_async._cli._errors import InputError
from route_planning_async._cli._files._stdio import is_stdio, read_text
from route_planning_async._rate_limits._limits_file import NAMED_LIMITS
from route_planning_async._rate_limits._limits_file import read_limits_file as _read_limits_file
from route_planning_async._versions import VERSIONS

__all__ = [
    "LIMITS_HELP",
    "LIMITS_METAVAR",
    "NAMED_LIMITS",
    "parse_limits",
    "read_limits_file",
]

LIMITS_METAVAR = "public-docs|contract|FILE"
"""What a ``--limits`` option takes, as its help shows it."""

LIMITS_HELP = (
    "The client's rate limits: contract, public-docs (the public API documentation's newer "
    "figures), or a JSON or TOML FILE of rules per category ('Limits file' in route-planning "
    "--help; '-': stdin). Default: the --api-version's published ones ("
    + ", ".join(f"{version.name}: {version.limits}" for version in VERSIONS)
    + ")."
)
"""The option's help text."""


def parse_limits(value: str) -> RateLimits:
    """``contract``, ``public-docs``, the path of a limits file, or ``-`` (a limits file on stdin)."""
    named = NAMED_LIMITS.get(value)
    if named is not None:
        return named()
    path = Path(value)
    if is_stdio(value):
        try:
            text = read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"--limits -: cannot read stdin: {exc}") from None
        try:
            return _read_limits_file(path, "--limits - (stdin)", text=text)
        except ConfigurationError as exc:
            raise InputError(str(exc)) from None
    if not path.exists():
        names = ", ".join(NAMED_LIMITS)
        raise InputError(f"--limits {value}: neither {names} nor an existing file")
    return read_limits_file(path)


def read_limits_file(path: Path) -> RateLimits:
    """The contract's limits with the categories the file names replaced; every error names its place."""
    try:
        return _read_limits_file(path, f"--limits {path}")
    except ConfigurationError as exc:
        raise InputError(str(exc)) from None
