"""``route-planning emulator``: a lasting, in-memory emulator that the other commands talk to."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import signal
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from route_planning_async import Category, RateLimits
from route_planning_async._cli._emulated import CA_FILE_ENV, LIMITS_ENV, require_trustme
from route_planning_async._cli._errors import ExitCode, InputError
from route_planning_async._cli._limits import LIMITS_METAVAR, SERVER_LIMITS_HELP, parse_limits
from route_planning_async._cli._options import NEW_FILE, Command, seed_option, speedup_option
from route_planning_async._cli._render import Output
from route_planning_async._cli._run import run_command
from route_planning_async._client import API_KEY_ENV, BASE_URL_ENV

if TYPE_CHECKING:
    from route_planning_async.emulator import EmulatorConfig

__all__ = ["emulator_command", "limits_as_data", "serve_emulator"]


def limits_as_data(limits: RateLimits) -> dict[str, list[dict[str, Any]]]:
    """Every category's rules as the data of a ``--limits`` file (an empty list: unlimited)."""
    return {
        category.value: [
            {"amount": rule.amount, "period": rule.period, "per": rule.per}
            for rule in limits.rules.get(category, ())
        ]
        for category in Category
    }


def _loopback_host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--host`` as given, when it is a loopback address; a usage error saying why otherwise."""
    from route_planning_async.emulator._config import loopback_host

    try:
        return loopback_host(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def _export(name: str, value: str) -> str:
    return f"export {name}={shlex.quote(value)}"


async def serve_emulator(
    output: Output, config: EmulatorConfig, *, ca_file: Path | None, print_env: bool
) -> int:
    """``emulator``: serve until SIGINT or SIGTERM; print the ``export`` lines the other commands read.

    The CA certificate goes to ``ca_file`` (default: a temporary directory), and
    the client's limits (the emulator's, sped up as much) to a limits file there;
    the temporary directory is removed on exit.
    """
    from route_planning_async.emulator import Emulator

    if config.tls:
        require_trustme()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    if sys.platform != "win32":  # Windows loops take no signal handlers; Ctrl-C still ends it
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(RuntimeError, ValueError):  # not the main thread
                loop.add_signal_handler(signum, stop.set)
    with tempfile.TemporaryDirectory(prefix="route-planning-emulator-") as temporary:
        async with Emulator(config) as emulator:
            lines = [_export(BASE_URL_ENV, emulator.base_url), _export(API_KEY_ENV, emulator.api_key)]
            if emulator.ca_pem is not None:
                written = emulator.write_ca(ca_file if ca_file is not None else Path(temporary) / "ca.pem")
                lines.append(_export(CA_FILE_ENV, str(written.resolve())))
            else:
                lines.append(f"unset {CA_FILE_ENV}")
            limits_file = Path(temporary) / "limits.json"
            limits_file.write_text(
                json.dumps(limits_as_data(config.server_limits), indent=2), encoding="utf-8"
            )
            lines.append(_export(LIMITS_ENV, str(limits_file)))
            sys.stdout.write("".join(f"{line}\n" for line in lines))
            sys.stdout.flush()
            if print_env:
                # Let $(route-planning emulator --print-env &) return: nothing
                # more is written to stdout, so it is closed (pointed at /dev/null).
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)
            team = config.team
            output.err.print(
                f"emulator serving {emulator.base_url} (speed-up {config.speedup:g})", highlight=False
            )
            for driver in team.drivers:
                state = "" if driver.active else " (paused)"
                output.err.print(f"  driver drivers/{driver.id}: {driver.name}{state}", highlight=False)
            for depot in team.depots:
                output.err.print(f"  depot  depots/{depot.id}: {depot.name}", highlight=False)
            stop_how = f"kill {os.getpid()}" if print_env else "Ctrl-C"
            output.err.print(f"in-memory, lost on exit; stop it with {stop_how}", highlight=False)
            await stop.wait()
    names = " ".join((BASE_URL_ENV, API_KEY_ENV, CA_FILE_ENV, LIMITS_ENV))
    output.err.print(f"emulator stopped; in the shells that used it: unset {names}", highlight=False)
    return ExitCode.OK


@click.command("emulator", cls=Command)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    callback=_loopback_host,
    help="Loopback address to bind (127.0.0.1, ::1 or localhost).",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=0, help="TCP port on --host (default: a free one)."
)
@click.option("--http", is_flag=True, help="Serve plain HTTP (no certificate to trust) instead of HTTPS.")
@speedup_option("Run the emulator's limits and delays this many times faster (the exported limits match).")
@click.option("--limits", "server_limits", metavar=LIMITS_METAVAR, help=SERVER_LIMITS_HELP)
@click.option("--no-limits", is_flag=True, help="Enforce no rate limits at all.")
@seed_option("Seed of ids and fault draws.")
@click.option(
    "--ca-file",
    "ca_output",
    type=NEW_FILE,
    help="Write the CA certificate here (default: a file in a temporary directory removed on exit).",
)
@click.option(
    "--print-env",
    is_flag=True,
    help='Close stdout after the export lines, for eval "$(route-planning emulator --print-env &)".',
)
def emulator_command(
    host: str,
    port: int,
    http: bool,
    speedup: float,
    server_limits: str | None,
    no_limits: bool,
    seed: int,
    ca_output: Path | None,
    print_env: bool,
) -> None:
    """Run a lasting, in-memory emulator until Ctrl-C or SIGTERM, for the other commands to use.

    \b
    Prints on stdout the lines that point the other commands at it:
      export ROUTE_PLANNING_BASE_URL=https://127.0.0.1:PORT/public/v0.2b
      export ROUTE_PLANNING_API_KEY=...
      export ROUTE_PLANNING_CA_FILE=...   (unset with --http)
      export ROUTE_PLANNING_LIMITS=...    (its limits, sped up as much)
    and on stderr its driver ids (drivers/driver-ana, ...) and depot ids.

    \b
    In the same shell:   eval "$(route-planning emulator --print-env &)"
    or in a second terminal: route-planning emulator, then paste the lines.
    """
    if no_limits and server_limits is not None:
        raise click.UsageError("give --limits or --no-limits, not both")
    try:
        limits = RateLimits.unlimited() if no_limits else parse_limits(server_limits or "contract")
    except InputError as exc:
        raise click.BadParameter(exc.format_message(), param_hint="--limits") from None
    from route_planning_async.emulator import EmulatorConfig

    config = EmulatorConfig(
        host=host, port=port, tls=not http, speedup=speedup, seed=seed, rate_limits=limits
    )
    run_command(lambda: serve_emulator(Output(), config, ca_file=ca_output, print_env=print_env))
