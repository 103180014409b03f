"""The embedded emulator behind ``--emulator`` and ``demo``, and the environment variables it is found by."""

from __future__ import annotations

import contextlib
import datetime
import importlib.util
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from route_planning_async._cli._errors import CommandError
from route_planning_async._cli._files._sample_stops import DemoArea
from route_planning_async._cli._versions import DEFAULT_API_VERSION, client_class
from route_planning_async._client import CA_FILE_ENV, LIMITS_ENV
from route_planning_async._rate_limits._limits import RateLimits

if TYPE_CHECKING:
    from route_planning_async.emulator import Emulator, EmulatorConfig

__all__ = [
    "CA_FILE_ENV",
    "DEMO_DRIVER_NAMES",
    "LIMITS_ENV",
    "demo_config",
    "published_limits",
    "require_trustme",
    "running_emulator",
]

DEMO_DRIVER_NAMES = (
    "Alex Morgan", "Sam Okoye", "Jo Fischer", "Ravi Shah", "Maya Costa", "Tom Becker", "Ines Duarte",
    "Kofi Mensah", "Lucia Romano", "Erik Lund",
)  # fmt: skip
"""Names of the demo's drivers (numbered beyond the tenth)."""

_DEMO_START = datetime.time(8, 0)


def require_trustme() -> None:
    """Fail with the install command unless trustme, which makes the emulator's throwaway CA, is there."""
    if importlib.util.find_spec("trustme") is None:
        raise CommandError(
            "the embedded emulator needs trustme; run: pip install 'route_planning_async[cli]'"
        )


def demo_config(area: DemoArea, *, driver_count: int, speedup: float, seed: int) -> EmulatorConfig:
    """An emulated team with one depot at ``area`` and ``driver_count`` drivers starting at 08:00."""
    require_trustme()
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


def published_limits(api_version: str) -> RateLimits:
    """The limits ``api_version``'s client assumes when given none, which an emulator serving
    that version enforces: the contract's for v0.2b, the public documentation's
    (:meth:`RateLimits.public_docs`) for v1."""
    return client_class(api_version)._default_rate_limits()


@contextlib.asynccontextmanager
async def running_emulator(
    config: EmulatorConfig | None = None, api_version: str = DEFAULT_API_VERSION
) -> AsyncIterator[Emulator]:
    """A fresh emulator over HTTPS, stopped on exit: ``config``, else the default team and the
    published limits of ``api_version``."""
    require_trustme()
    from route_planning_async.emulator import Emulator

    async with Emulator(
        config, **({} if config else {"rate_limits": published_limits(api_version)})
    ) as emulator:
        yield emulator
