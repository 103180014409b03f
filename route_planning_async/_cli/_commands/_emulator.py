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
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from route_planning_async import Category, ConfigurationError, RateLimits
from route_planning_async._cli._emulated import CA_FILE_ENV, LIMITS_ENV, require_trustme
from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._options import FILE, NEW_FILE, Command
from route_planning_async._cli._output._render import Output
from route_planning_async._cli._run import run_command
from route_planning_async._cli._versions import API_VERSION_ENV, DEFAULT_API_VERSION
from route_planning_async._client import API_KEY_ENV, BASE_URL_ENV
from route_planning_async.emulator._setup._config import shown_url
from route_planning_async.emulator._setup._options import OPTIONS, Option

if TYPE_CHECKING:
    from route_planning_async.emulator import EmulatorConfig

__all__ = ["emulator_command", "limits_as_data", "serve_emulator"]

F = TypeVar("F", bound=Callable[..., Any])


def limits_as_data(limits: RateLimits) -> dict[str, list[dict[str, Any]]]:
    """Every category's rules as the data of a ``--limits`` file (an empty list: unlimited)."""
    return {
        category.value: [
            {"amount": rule.amount, "period": rule.period, "per": rule.per}
            for rule in limits.rules.get(category, ())
        ]
        for category in Category
    }


def _export(name: str, value: str) -> str:
    return f"export {name}={shlex.quote(value)}"


async def serve_emulator(
    output: Output,
    config: EmulatorConfig,
    *,
    ca_file: Path | None,
    print_env: bool,
    api_version: str = DEFAULT_API_VERSION,
) -> int:
    """``emulator``: serve until SIGINT or SIGTERM; print the ``export`` lines the other commands read.

    The exported address and version are ``api_version``'s (the emulator serves
    every version). The CA certificate goes to ``ca_file`` (default: a temporary
    directory), and the client's limits (the emulator's, sped up as much) to a
    limits file there; the temporary directory is removed on exit.
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
            base_url = emulator.base_url_for(api_version)
            lines = [
                _export(BASE_URL_ENV, base_url),
                _export(API_VERSION_ENV, api_version),
                _export(API_KEY_ENV, emulator.api_key),
            ]
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
            output.err.print(f"emulator serving {base_url} (speed-up {config.speedup:g})", highlight=False)
            if config.webhook_url is not None:
                output.err.print(
                    f"  webhooks: {config.webhook_version} events to {shown_url(config.webhook_url)}",
                    highlight=False,
                )
            for driver in team.drivers:
                state = "" if driver.active else " (paused)"
                output.err.print(f"  driver drivers/{driver.id}: {driver.name}{state}", highlight=False)
            for depot in team.depots:
                output.err.print(f"  depot  depots/{depot.id}: {depot.name}", highlight=False)
            stop_how = f"kill {os.getpid()}" if print_env else "Ctrl-C"
            output.err.print(f"in-memory, lost on exit; stop it with {stop_how}", highlight=False)
            await stop.wait()
    names = " ".join((BASE_URL_ENV, API_VERSION_ENV, API_KEY_ENV, CA_FILE_ENV, LIMITS_ENV))
    output.err.print(f"emulator stopped; in the shells that used it: unset {names}", highlight=False)
    return ExitCode.OK


def _click_type(option: Option) -> Any:
    """The click type of an option of the emulator's command line."""
    if option.kind == "choice":
        return click.Choice(option.choices)
    if option.kind == "path":
        return NEW_FILE if option.dest == "ca_file" else FILE
    return {"str": str, "int": int, "float": float}[option.kind]


def _checked(option: Option) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback applying the option's check: a usage error saying why it refuses a value."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None or option.check is None:
            return value
        try:
            return option.check(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None

    return callback


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _emulator_options(command: F) -> F:
    """Every option of the emulator's command line (``emulator/_setup/_options.py``), as click options."""
    for option in reversed(OPTIONS):
        if option.kind == "flag":
            decorator = click.option(option.flag, is_flag=True, help=_sentence(option.help))
        else:
            decorator = click.option(
                option.flag,
                type=_click_type(option),
                default=option.default,
                show_default=option.default is not None and option.kind != "str",
                metavar=option.metavar,
                callback=_checked(option),
                help=_sentence(option.help),
            )
        command = decorator(command)
    return command


@click.command("emulator", cls=Command)
@_emulator_options
def emulator_command(**values: Any) -> None:
    """Run a lasting, in-memory emulator until Ctrl-C or SIGTERM, for the other commands to use.

    \b
    Prints on stdout the lines that point the other commands at it:
      export ROUTE_PLANNING_BASE_URL=https://127.0.0.1:PORT/public/v0.2b
      export ROUTE_PLANNING_API_VERSION=v0.2b   (v1 and /public/v1 with --api-version v1)
      export ROUTE_PLANNING_API_KEY=...
      export ROUTE_PLANNING_CA_FILE=...   (unset with --http)
      export ROUTE_PLANNING_LIMITS=...    (its limits, sped up as much)
    and on stderr its driver ids (drivers/driver-ana, ...) and depot ids.
    --ca-file defaults to a file in a temporary directory removed on exit.

    \b
    In the same shell:   eval "$(route-planning emulator --print-env &)"
    or in a second terminal: route-planning emulator, then paste the lines.
    Your own team (depots, drivers, custom stop properties, limits): --team team.toml.
    Its webhook events: --webhook-url URL (route-planning webhooks listen receives them).
    """
    from route_planning_async.emulator._setup._options import config_from_options

    api_version: str = values["api_version"]
    try:
        config = config_from_options(values)
    except ConfigurationError as exc:
        raise click.UsageError(str(exc)) from None
    run_command(
        lambda: serve_emulator(
            Output(),
            config,
            ca_file=values["ca_file"],
            print_env=values["print_env"],
            api_version=api_version,
        )
    )
