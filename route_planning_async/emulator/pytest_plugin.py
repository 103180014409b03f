"""pytest fixtures for testing code that talks to the Route Planning API.

Registered through the ``pytest11`` entry point, so installing the package makes
them available everywhere:

``route_planning_emulator``
    A running :class:`~route_planning_async.emulator.Emulator` (HTTPS, port 0).
``route_planning_client``
    A :class:`~route_planning_async.RoutePlanningClient` opened against it.
``route_planning_emulator_config``
    The :class:`~route_planning_async.emulator.EmulatorConfig` used; override this
    fixture, or mark a test (or class, or module) with
    ``@pytest.mark.route_planning_emulator(speedup=60, keep_stops=False)``; the
    marker closest to the test wins field by field. Every field is accepted,
    among them the server's own limits, which can disagree with the client's:
    ``rate_limits``, ``limiter="token_bucket"`` and ``burst``, ``count_rejected``,
    ``limit_schedule``, ``punish_sustained``, ``lockout``, ``latency`` and ``latency_jitter``.

The fixtures are async and need pytest-asyncio. This module imports nothing
heavy: the emulator is imported when a fixture first runs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import pytest

if TYPE_CHECKING:
    from route_planning_async import RoutePlanningClient
    from route_planning_async.emulator import Emulator, EmulatorConfig

__all__ = [
    "MARKER",
    "route_planning_client",
    "route_planning_emulator",
    "route_planning_emulator_config",
]

MARKER = "route_planning_emulator"
"""``@pytest.mark.route_planning_emulator(**EmulatorConfig fields)``."""

F = TypeVar("F", bound=Callable[..., Any])


def _async_fixture(function: F) -> F:
    try:
        import pytest_asyncio
    except ImportError:  # pragma: no cover - depends on the installed test tools
        return cast(F, pytest.fixture(function))
    return cast(F, pytest_asyncio.fixture(function))


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker (the project runs pytest with --strict-markers semantics)."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(**fields): EmulatorConfig fields for the route_planning_emulator fixture",
    )


@pytest.fixture
def route_planning_emulator_config(request: pytest.FixtureRequest) -> EmulatorConfig:
    """The emulator's configuration: defaults, then the markers from the farthest to the closest."""
    from route_planning_async.emulator import EmulatorConfig

    overrides: dict[str, Any] = {}
    for marker in reversed(list(request.node.iter_markers(MARKER))):
        if marker.args:
            raise pytest.UsageError(f"@pytest.mark.{MARKER} takes keyword arguments only")
        overrides.update(marker.kwargs)
    return EmulatorConfig(**overrides)


@_async_fixture
async def route_planning_emulator(route_planning_emulator_config: EmulatorConfig) -> AsyncIterator[Emulator]:
    """A running emulator, stopped after the test."""
    from route_planning_async.emulator import Emulator

    async with Emulator(route_planning_emulator_config) as emulator:
        yield emulator


@_async_fixture
async def route_planning_client(route_planning_emulator: Emulator) -> AsyncIterator[RoutePlanningClient]:
    """A client connected to ``route_planning_emulator``, closed after the test."""
    async with route_planning_emulator.client() as client:
        yield client
