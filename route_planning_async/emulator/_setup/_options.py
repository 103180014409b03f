"""The command line of the emulator, declared once for both of its commands.

``python -m route_planning_async.emulator`` (argparse, no click needed) and
``route-planning emulator`` (click) build their options from :data:`OPTIONS` and
turn what was given into an :class:`EmulatorConfig` with :func:`config_from_options`,
so both take the same options with the same meaning. What they print differs: the
module prints ``key: value`` lines, the command ``export`` lines for the other commands.
"""

from __future__ import annotations

import errno
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, get_args

import attrs

from route_planning_async._checks._keys import key_problem
from route_planning_async._errors import ConfigurationError
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async._rate_limits._limits_file import NAMED_LIMITS
from route_planning_async._versions import API_VERSIONS, V0_2B
from route_planning_async._versions import api_version as registered_version
from route_planning_async.emulator._setup._config import (
    EmulatorConfig,
    LimiterKind,
    checked_webhook_url,
    loopback_host,
)
from route_planning_async.emulator._setup._lockout import Lockout
from route_planning_async.emulator._setup._team import WeightUnit
from route_planning_async.emulator._setup._team_file import TEAM_FILE_HELP, read_limits, read_team_file

__all__ = [
    "NAMED_LIMITS",
    "OPTIONS",
    "Option",
    "bind_problem",
    "config_from_options",
    "limits_from_option",
]

_DEFAULT = EmulatorConfig()


def _positive(value: float) -> float:
    if not 0 < value < math.inf:
        raise ValueError(f"must be a positive finite number, got {value!r}")
    return value


def _port(value: int) -> int:
    if not 0 <= value <= 65535:
        raise ValueError(f"a TCP port is 0 to 65535, got {value!r}")
    return value


def _not_stdout(value: object) -> object:
    if str(value) == "-":
        raise ValueError("'-' (stdout) cannot be used here: stdout carries the emulator's lines; name a file")
    return value


def _usable_key(value: str) -> str:
    problem = key_problem(value)
    if problem is not None:
        raise ValueError(f"{problem}: a client could not send it")
    return value


def _not_empty(value: str) -> str:
    if not value:
        raise ValueError("must not be empty")
    return value


def _not_negative(value: float) -> float:
    if not 0 <= value < math.inf:
        raise ValueError(f"must be a finite number, not negative, got {value!r}")
    return value


@attrs.frozen
class Option:
    """One option of the emulator's command line."""

    flag: str
    """The flag, e.g. ``--port``."""
    kind: Literal["flag", "str", "int", "float", "path", "choice"]
    """What it takes: nothing (``flag``), text, a number, a file path or one of ``choices``."""
    help: str
    """The help text."""
    default: Any = None
    """The value when it is not given."""
    choices: tuple[str, ...] = ()
    """The values a ``choice`` takes."""
    check: Callable[[Any], Any] | None = None
    """Raises ValueError (saying why) for a value it refuses; returns the value."""
    metavar: str | None = None
    """How the help names the value."""

    @property
    def dest(self) -> str:
        """The name of the parsed value: the flag without dashes, ``-`` as ``_``."""
        return self.flag.lstrip("-").replace("-", "_")


OPTIONS: tuple[Option, ...] = (
    Option(
        "--host",
        "str",
        "loopback address to bind (127.0.0.1, ::1 or localhost)",
        _DEFAULT.host,
        check=loopback_host,
    ),
    Option("--port", "int", "TCP port (default: a free one)", 0, check=_port),
    Option("--http", "flag", "serve plain HTTP (no certificate to trust) instead of HTTPS"),
    Option("--api-key", "str", "the API key to accept", _DEFAULT.api_key, check=_usable_key),
    Option(
        "--speedup",
        "float",
        "run rate-limit periods and delays this many times faster",
        1.0,
        check=_positive,
    ),
    Option(
        "--ca-file",
        "path",
        "write the throwaway CA certificate (PEM) here; a file already there is overwritten",
        metavar="FILE",
        check=_not_stdout,
    ),
    Option("--seed", "int", "seed of ids and fault draws", 0),
    Option("--team", "path", TEAM_FILE_HELP, metavar="FILE"),
    Option(
        "--api-version",
        "choice",
        "the API version served first (every version is served): its published limits are enforced "
        "unless others are given, its webhook events sent, and route-planning emulator's export "
        "lines give its address and name",
        V0_2B.name,
        API_VERSIONS,
    ),
    Option(
        "--limits",
        "str",
        "the limits the emulator enforces: contract, public-docs, or a JSON or TOML FILE of rules "
        "per category (the format of a team file's limits table; '-': stdin); default: the team "
        "file's, else the published limits of the --api-version (v0.2b: contract, v1: public-docs)",
        metavar="contract|public-docs|FILE",
    ),
    Option("--no-limits", "flag", "enforce no rate limits at all"),
    Option(
        "--limiter", "choice", "how the server reads each rate limit", _DEFAULT.limiter, get_args(LimiterKind)
    ),
    Option(
        "--burst",
        "float",
        "token bucket capacity, in multiples of a limit",
        _DEFAULT.burst,
        check=_positive,
    ),
    Option(
        "--lockout",
        "flag",
        "refuse a key refused with 429s at a high rate until it slows down, as the service says it "
        "does (EmulatorConfig.lockout, with the default thresholds of Lockout)",
    ),
    Option(
        "--latency", "float", "one-way link delay in real seconds (not sped up)", 0.0, check=_not_negative
    ),
    Option("--latency-jitter", "float", "up to this many seconds more, each way", 0.0, check=_not_negative),
    Option(
        "--optimization-delay",
        "float",
        "seconds a large optimization takes",
        _DEFAULT.optimization_delay,
        check=_not_negative,
    ),
    Option("--no-keep-stops", "flag", "keep only ids and counts of stops (memory benchmarks)"),
    Option(
        "--webhook-url",
        "str",
        "POST the service's webhook events here, signed (EmulatorConfig.webhook_url; default: none "
        "sent); e.g. route-planning webhooks listen's address",
        metavar="URL",
        check=checked_webhook_url,
    ),
    Option(
        "--webhook-secret",
        "str",
        "the team's webhook secret, the key of the events' spoke-signature (EmulatorConfig.webhook_secret)",
        _DEFAULT.webhook_secret,
        metavar="SECRET",
        check=_not_empty,
    ),
    Option(
        "--webhook-version",
        "choice",
        "the API version of the webhook events' stops (EmulatorConfig.webhook_version; default: "
        "the --api-version's)",
        None,
        API_VERSIONS,
    ),
    Option(
        "--route-title",
        "choice",
        "title optimized routes with the plan's title (default) or the driver's name",
        _DEFAULT.route_title,
        ("plan", "driver"),
    ),
    Option(
        "--capacity-unit",
        "choice",
        "turn on vehicle capacity in this unit (default: the team file's, else off: stops with a "
        "weight get 403)",
        None,
        get_args(WeightUnit),
    ),
    Option(
        "--strict",
        "flag",
        "refuse unknown keys inside the objects the official schemas leave open (a stop's weight, "
        "a driver's or depot's routeOverrides), to catch typos; by default they are dropped",
    ),
    Option(
        "--print-env",
        "flag",
        'close stdout after the first lines, for eval "$(route-planning emulator --print-env &)"',
    ),
)
"""Every option both emulator commands take."""


def limits_from_option(value: str) -> RateLimits:
    """``--limits``: a name of :data:`NAMED_LIMITS`, the path of a limits file, or ``-`` (stdin)."""
    named = NAMED_LIMITS.get(value)
    if named is not None:
        return named()
    if value != "-" and not Path(value).is_file():
        raise ConfigurationError(f"--limits {value}: neither {', '.join(NAMED_LIMITS)} nor an existing file")
    return read_limits(Path(value))


def config_from_options(values: Mapping[str, Any], limits: RateLimits | None = None) -> EmulatorConfig:
    """The configuration the options give, keyed by :attr:`Option.dest`.

    ``limits`` are the ``--limits`` already read (a command reads them its own way); without
    them, ``--limits`` is read here. ``--no-limits`` beats the team file's limits, and
    ``--limits`` both of them; ``--capacity-unit`` beats the team file's unit.

    ``--api-version`` is the version served first: its events are the ``--webhook-version``
    unless one is given, and its published limits (:attr:`ApiVersion.limits
    <route_planning_async._versions.ApiVersion.limits>`) are enforced when no limits are given at
    all; without it, the contract's.

    Raises:
        ConfigurationError: ``--limits`` and ``--no-limits`` both given, or a file that does
            not fit (naming it, the key and what is wrong).
    """
    if values.get("no_limits") and values.get("limits") is not None:
        raise ConfigurationError("give --limits or --no-limits, not both")
    if str(values.get("team")) == "-" and values.get("limits") == "-":
        raise ConfigurationError("--team - and --limits - would both read stdin: name a file for one")
    team_file = read_team_file(values["team"]) if values.get("team") else None
    team = team_file.team if team_file is not None else _DEFAULT.team
    if values.get("capacity_unit") is not None:
        team = attrs.evolve(team, capacity_unit=values["capacity_unit"])
    if values.get("no_limits"):
        limits = RateLimits.unlimited()
    elif limits is None and values.get("limits") is not None:
        limits = limits_from_option(values["limits"])
    elif limits is None:
        limits = team_file.limits if team_file is not None and team_file.limits is not None else None
    api_version = values.get("api_version")
    if limits is None and api_version is not None:
        limits = NAMED_LIMITS[registered_version(api_version).limits]()
    webhook_version = values.get("webhook_version") or api_version or _DEFAULT.webhook_version
    return EmulatorConfig(
        api_key=values.get("api_key", _DEFAULT.api_key),
        host=values.get("host", _DEFAULT.host),
        port=values.get("port", 0),
        tls=not values.get("http", False),
        speedup=values.get("speedup", 1.0),
        seed=values.get("seed", 0),
        rate_limits=limits if limits is not None else RateLimits.default(),
        keep_stops=not values.get("no_keep_stops", False),
        optimization_delay=values.get("optimization_delay", _DEFAULT.optimization_delay),
        limiter=values.get("limiter", _DEFAULT.limiter),
        burst=values.get("burst", _DEFAULT.burst),
        lockout=Lockout() if values.get("lockout") else None,
        latency=values.get("latency", 0.0),
        latency_jitter=values.get("latency_jitter", 0.0),
        route_title=values.get("route_title", _DEFAULT.route_title),
        strict_inputs=values.get("strict", False),
        team=team,
        webhook_url=values.get("webhook_url"),
        webhook_secret=values.get("webhook_secret", _DEFAULT.webhook_secret),
        webhook_version=webhook_version,
    )


def bind_problem(exc: OSError) -> str | None:
    """The one line both commands print when the emulator cannot listen where it was told
    (a ``--port`` in use, an address not of this machine); None for another error."""
    if exc.errno not in (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES):
        return None
    return f"cannot listen: {exc.strerror or exc} (give another --port, or --port 0 for a free one)"
