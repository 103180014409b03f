"""Run the emulator as a process::

    python -m route_planning_async.emulator --port 8443 --ca-file /tmp/emulator-ca.pem

It prints the base URL and the API key, writes the CA certificate (HTTPS) to
``--ca-file``, says how to trust it, lists the team's driver and depot ids,
and serves until interrupted. (``route-planning emulator`` does the same and
prints ``export`` lines for the command-line tool.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import get_args

from route_planning_async._limits import RateLimits
from route_planning_async.emulator._config import (
    EmulatorConfig,
    LimiterKind,
    TeamConfig,
    WeightUnit,
    loopback_host,
)
from route_planning_async.emulator._server import Emulator

__all__ = ["main", "parse_args"]

_DEFAULT = EmulatorConfig()
_CHOICES: tuple[tuple[str, tuple[str, ...], str | None, str], ...] = (
    ("--limiter", get_args(LimiterKind), _DEFAULT.limiter, "how the server reads each rate limit"),
    (
        "--route-title",
        ("plan", "driver"),
        _DEFAULT.route_title,
        "title optimized routes with the plan's title (default) or the driver's name",
    ),
    (
        "--capacity-unit",
        get_args(WeightUnit),
        None,
        "turn on vehicle capacity in this unit (default: off, stops with a weight get 403)",
    ),
)
"""The options that take one of a few values: flag, values, default, help."""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m route_planning_async.emulator",
        description="A local Route Planning API server (in memory, loopback only).",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", type=_loopback_host, help="loopback address to bind (127.0.0.1 or ::1)"
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port (default: a free one)")
    parser.add_argument("--http", action="store_true", help="serve plain HTTP instead of HTTPS")
    parser.add_argument("--api-key", default=_DEFAULT.api_key, help="the API key to accept")
    parser.add_argument(
        "--speedup", type=float, default=1.0, help="divide rate-limit periods and delays by N"
    )
    parser.add_argument("--ca-file", help="write the throwaway CA certificate (PEM) here")
    parser.add_argument("--seed", type=int, default=0, help="seed of ids and fault draws")
    parser.add_argument("--no-limits", action="store_true", help="do not enforce rate limits")
    parser.add_argument(
        "--no-keep-stops", action="store_true", help="keep only ids and counts of stops (memory benchmarks)"
    )
    parser.add_argument(
        "--burst", type=float, default=_DEFAULT.burst, help="token bucket capacity, in multiples of a limit"
    )
    parser.add_argument(
        "--latency", type=float, default=0.0, help="one-way link delay in real seconds (not sped up)"
    )
    parser.add_argument(
        "--latency-jitter", type=float, default=0.0, help="up to this many seconds more, each way"
    )
    parser.add_argument(
        "--optimization-delay",
        type=float,
        default=_DEFAULT.optimization_delay,
        help="seconds a large optimization takes",
    )
    for flag, choices, default, text in _CHOICES:
        parser.add_argument(flag, choices=choices, default=default, help=text)
    return parser.parse_args(argv)


def _banner(config: EmulatorConfig, ca_file: str | None) -> list[str]:
    """How to trust the certificate, and the team's driver and depot ids."""
    if not config.tls:
        trust = ["trust: plain HTTP, no certificate to trust (the client accepts http:// on loopback)"]
    elif ca_file is not None:
        path = os.path.abspath(ca_file)
        trust = [
            f"trust: export ROUTE_PLANNING_CA_FILE={path}   (or route-planning --ca-file {path};",
            f"       in Python: ssl=ssl.create_default_context(cafile={path!r}))",
        ]
    else:
        trust = [
            "trust: HTTPS with a throwaway CA that no system trusts: start with --ca-file FILE to write it,",
            "       then export ROUTE_PLANNING_CA_FILE=FILE (or pass --ca-file FILE); or serve --http",
        ]
    drivers = ", ".join(
        f"drivers/{driver.id}" + ("" if driver.active else " (paused)") for driver in config.team.drivers
    )
    depots = ", ".join(f"depots/{depot.id}" for depot in config.team.depots)
    return [*trust, f"drivers: {drivers or '(none)'}", f"depots: {depots}"]


def _loopback_host(value: str) -> str:
    """``--host`` as given, when it is a loopback address; a usage error saying why otherwise."""
    try:
        return loopback_host(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


async def serve(args: argparse.Namespace) -> None:
    """Serve until SIGINT or SIGTERM."""
    config = EmulatorConfig(
        api_key=args.api_key,
        host=args.host,
        port=args.port,
        tls=not args.http,
        speedup=args.speedup,
        seed=args.seed,
        rate_limits=RateLimits.unlimited() if args.no_limits else RateLimits.default(),
        keep_stops=not args.no_keep_stops,
        optimization_delay=args.optimization_delay,
        limiter=args.limiter,
        burst=args.burst,
        latency=args.latency,
        latency_jitter=args.latency_jitter,
        route_title=args.route_title,
        team=TeamConfig(capacity_unit=args.capacity_unit),
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    if sys.platform != "win32":  # Windows event loops take no signal handlers; Ctrl-C still ends it
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(RuntimeError):  # not the main thread: the caller stops it
                loop.add_signal_handler(signum, stop.set)
    async with Emulator(config) as emulator:
        if args.ca_file and emulator.ca_pem is not None:
            emulator.write_ca(args.ca_file)
        print(f"base_url: {emulator.base_url}", flush=True)
        print(f"api_key: {emulator.api_key}", flush=True)
        if args.ca_file and emulator.ca_pem is not None:
            print(f"ca_file: {args.ca_file}", flush=True)
        for line in _banner(config, args.ca_file if emulator.ca_pem is not None else None):
            print(line, flush=True)
        await stop.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
