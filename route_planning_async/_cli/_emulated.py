"""The embedded emulator behind ``--emulator`` and ``demo``, and the persistent one of ``emulator``."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import importlib.util
import json
import os
import shlex
import signal
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from route_planning_async import Category, RateLimits
from route_planning_async._cli._errors import CommandError, ExitCode
from route_planning_async._cli._render import Output
from route_planning_async._cli._sample_stops import DemoArea
from route_planning_async._client import API_KEY_ENV, BASE_URL_ENV

if TYPE_CHECKING:
    from route_planning_async.emulator import Emulator, EmulatorConfig

__all__ = [
    "CA_FILE_ENV",
    "DEMO_DRIVER_NAMES",
    "LIMITS_ENV",
    "demo_config",
    "limits_as_data",
    "running_emulator",
    "serve_emulator",
]

CA_FILE_ENV = "ROUTE_PLANNING_CA_FILE"
"""The environment variable ``--ca-file`` reads."""
LIMITS_ENV = "ROUTE_PLANNING_LIMITS"
"""The environment variable ``--limits`` reads."""

DEMO_DRIVER_NAMES = (
    "Alex Morgan", "Sam Okoye", "Jo Fischer", "Ravi Shah", "Maya Costa", "Tom Becker", "Ines Duarte",
    "Kofi Mensah", "Lucia Romano", "Erik Lund",
)  # fmt: skip
"""Names of the demo's drivers (numbered beyond the tenth)."""

_DEMO_START = datetime.time(8, 0)


def _require_trustme() -> None:
    # The emulator serves HTTPS with a throwaway CA made by trustme.
    if importlib.util.find_spec("trustme") is None:
        raise CommandError(
            "the embedded emulator needs trustme; run: pip install 'route_planning_async[cli]'"
        )


def demo_config(area: DemoArea, *, driver_count: int, speedup: float, seed: int) -> EmulatorConfig:
    """An emulated team with one depot at ``area`` and ``driver_count`` drivers starting at 08:00."""
    _require_trustme()
    from route_planning_async.emulator import DepotConfig, DriverConfig, EmulatorConfig, TeamConfig

    drivers = []
    for index in range(driver_count):
        base = DEMO_DRIVER_NAMES[index % len(DEMO_DRIVER_NAMES)]
        name = base if index < len(DEMO_DRIVER_NAMES) else f"{base} {index // len(DEMO_DRIVER_NAMES) + 1}"
        handle = name.lower().replace(" ", ".")
        drivers.append(
            DriverConfig(
                f"driver-{index + 1}",
                name,
                f"{handle}@example.com",
                display_name=name,
                start_time=_DEMO_START,
            )
        )
    # Passed as a mapping: the tuple converters of these fields type their
    # parameters as a bare Iterable[_T_co], which no argument satisfies.
    team_fields: dict[str, Any] = {
        "depots": (DepotConfig("main", area.name, area.latitude, area.longitude),),
        "drivers": tuple(drivers),
    }
    team = TeamConfig(**team_fields)
    return EmulatorConfig(speedup=speedup, team=team, seed=seed)


@contextlib.asynccontextmanager
async def running_emulator(config: EmulatorConfig | None = None) -> AsyncIterator[Emulator]:
    """A fresh emulator over HTTPS (the default team and the contract's limits), stopped on exit."""
    _require_trustme()
    from route_planning_async.emulator import Emulator

    async with Emulator(config) as emulator:
        yield emulator


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
    *,
    port: int,
    http: bool,
    speedup: float,
    limits: RateLimits | None,
    seed: int,
    ca_file: Path | None,
    print_env: bool,
) -> int:
    """``emulator``: serve until SIGINT or SIGTERM; print the ``export`` lines the other commands read.

    The CA certificate goes to ``ca_file`` (default: a temporary directory), and
    the client's limits (the emulator's, sped up as much) to a limits file there;
    the temporary directory is removed on exit.
    """
    from route_planning_async.emulator import Emulator, EmulatorConfig

    if not http:
        _require_trustme()
    config = EmulatorConfig(
        port=port,
        tls=not http,
        speedup=speedup,
        seed=seed,
        rate_limits=limits if limits is not None else RateLimits.default(),
    )
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
            output.err.print(f"emulator serving {emulator.base_url} (speed-up {speedup:g})", highlight=False)
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
