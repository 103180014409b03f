"""Run the emulator as a process::

    python -m route_planning_async.emulator --port 8443 --ca-file /tmp/emulator-ca.pem

It prints the base URL (of ``--api-version``; the other versions' follow) and the
API key, writes the CA certificate (HTTPS) to ``--ca-file``, says how to trust it,
lists the team's driver and depot ids, and serves until interrupted. It takes the
options of ``route-planning emulator`` (declared once, in ``_setup/_options.py``),
which prints ``export`` lines for the command-line tool instead of these
``key: value`` lines.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from route_planning_async._errors import ConfigurationError
from route_planning_async._versions import API_VERSIONS
from route_planning_async.emulator._server._server import Emulator
from route_planning_async.emulator._setup._config import EmulatorConfig, shown_url
from route_planning_async.emulator._setup._options import OPTIONS, Option, bind_problem, config_from_options

__all__ = ["main", "parse_args"]

_TYPES: dict[str, type] = {"str": str, "int": int, "float": float, "path": str, "choice": str}


def _argument_type(option: Option) -> Any:
    """The argparse ``type`` of an option: its kind, then its check (a usage error saying why)."""
    kind = _TYPES[option.kind]

    def convert(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {option.kind}, got {text!r}") from None
        if option.check is None:
            return value
        try:
            return option.check(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (the options of :data:`~route_planning_async.emulator._setup._options.OPTIONS`)."""
    parser = argparse.ArgumentParser(
        prog="python -m route_planning_async.emulator",
        description="A local Route Planning API server (in memory, loopback only).",
    )
    for option in OPTIONS:
        if option.kind == "flag":
            parser.add_argument(option.flag, action="store_true", help=option.help)
        elif option.kind == "choice":
            parser.add_argument(option.flag, choices=option.choices, default=option.default, help=option.help)
        else:
            parser.add_argument(
                option.flag,
                type=_argument_type(option),
                default=option.default,
                metavar=option.metavar,
                help=option.help.replace("%", "%%"),
            )
    args = parser.parse_args(argv)
    try:
        args.config = config_from_options(vars(args))
    except ConfigurationError as exc:
        parser.error(str(exc))
    return args


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
    lines = [*trust, f"drivers: {drivers or '(none)'}", f"depots: {depots}"]
    if config.webhook_url is not None:
        lines.append(f"webhooks: {config.webhook_version} events to {shown_url(config.webhook_url)}")
    return lines


async def serve(args: argparse.Namespace) -> None:
    """Serve until SIGINT or SIGTERM."""
    config: EmulatorConfig = args.config
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    if sys.platform != "win32":  # Windows event loops take no signal handlers; Ctrl-C still ends it
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(RuntimeError):  # not the main thread: the caller stops it
                loop.add_signal_handler(signum, stop.set)
    async with Emulator(config) as emulator:
        if args.ca_file and emulator.ca_pem is not None:
            emulator.write_ca(args.ca_file)
        print(f"base_url: {emulator.base_url_for(args.api_version)}", flush=True)
        print(f"api_key: {emulator.api_key}", flush=True)
        if args.ca_file and emulator.ca_pem is not None:
            print(f"ca_file: {args.ca_file}", flush=True)
        for other in API_VERSIONS:
            if other != args.api_version:
                print(
                    f"{other}: {emulator.base_url_for(other)}   (the same data, through API {other})",
                    flush=True,
                )
        for line in _banner(config, args.ca_file if emulator.ca_pem is not None else None):
            print(line, flush=True)
        if args.print_env:
            # Nothing more is written to stdout: close it, so $(... --print-env &) returns.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        await stop.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(args))
    except OSError as exc:
        problem = bind_problem(exc)
        if problem is None:
            raise
        print(f"python -m route_planning_async.emulator: error: {problem}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
