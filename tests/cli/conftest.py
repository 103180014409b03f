"""Fixtures for the command-line tests: an emulator on its own thread, and a CLI runner.

The commands run ``asyncio.run`` themselves, so the emulator they talk to
serves from another thread's event loop, over HTTPS with its throwaway CA, the
way a real service would be reached: ``--base-url``, ``--ca-file`` and the key
in ``ROUTE_PLANNING_API_KEY``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from click.testing import CliRunner, Result

from route_planning_async._cli._app import cli
from route_planning_async.emulator import Emulator

SPEEDUP = 120.0
"""Contract minutes last half a second: optimizations (5 s) take about 40 ms."""


@attrs.frozen
class ServedEmulator:
    """An emulator serving from a background thread."""

    emulator: Emulator
    """The emulator (read its state and log only between commands)."""
    ca_file: Path
    """Its CA certificate, for ``--ca-file``."""

    @property
    def base_url(self) -> str:
        """Its base URL."""
        return self.emulator.base_url

    def plan_stops(self, plan_id: str) -> list[dict[str, Any]]:
        """The JSON bodies of a plan's stops, as stored."""
        return [record.body for record in self.emulator.state.stops_of(plan_id.removeprefix("plans/"))]

    def requests(self, route: str) -> int:
        """How many requests of an endpoint reached it."""
        return len(self.emulator.log.select(route=route))


@pytest.fixture
def served_emulator(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ServedEmulator]:
    """A fresh emulator on a loopback port, served from its own thread: at 120x speed,
    or at the speed a test's ``emulator_speedup`` mark asks for."""
    mark = request.node.get_closest_marker("emulator_speedup")
    speedup = float(mark.args[0]) if mark is not None else SPEEDUP
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="emulator", daemon=True)
    thread.start()
    emulator = Emulator(speedup=speedup)
    try:
        asyncio.run_coroutine_threadsafe(emulator.start(), loop).result(timeout=30)
        ca_file = emulator.write_ca(tmp_path / "emulator-ca.pem")
        yield ServedEmulator(emulator, ca_file)
        assert emulator.internal_errors == []
    finally:
        asyncio.run_coroutine_threadsafe(emulator.stop(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        loop.close()


@attrs.frozen
class Cli:
    """Runs ``route-planning`` commands in-process against one emulator."""

    served: ServedEmulator
    """The emulator the commands talk to."""

    def __call__(
        self,
        *args: str | Path,
        key: str | None = None,
        connect: bool = True,
        input: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> Result:
        """Run a command; stdout and stderr are kept apart (``result.stdout``, ``result.stderr``).

        ``input`` is what is typed on standard input (answers to a question);
        ``env`` sets more environment variables.
        """
        argv: list[str] = [str(arg) for arg in args]
        if connect:
            argv = ["--base-url", self.served.base_url, "--ca-file", str(self.served.ca_file), *argv]
        variables = {"ROUTE_PLANNING_API_KEY": key if key is not None else self.served.emulator.api_key}
        variables.update(env or {})
        return CliRunner().invoke(
            cli, argv, env=variables, prog_name="route-planning", catch_exceptions=False, input=input
        )

    def json(self, *args: str | Path, expect: int = 0) -> Any:
        """Run a command with ``--json`` and parse its stdout."""
        result = self(*args, "--json")
        assert result.exit_code == expect, (result.stdout, result.stderr)
        return json.loads(result.stdout)

    def create_plan(self, drivers: Sequence[str] = ("driver-ana", "driver-ben")) -> str:
        """A new plan's id."""
        options = [item for driver in drivers for item in ("--driver", driver)]
        plan = self.json("plans", "create", "--title", "Test plan", "--starts", "2026-03-02", *options)
        plan_id: str = plan["id"]
        return plan_id


@pytest.fixture
def run(served_emulator: ServedEmulator) -> Cli:
    """``run("plans", "list")``: a command against the served emulator."""
    return Cli(served_emulator)
