"""Every Python example of the README and the docs pages runs, against the emulator.

Complete programs and pytest examples are run by the tests named in
``ELSEWHERE``; the fragments (lines that use a ``client``, a ``plan_id``, ...)
run here with those names bound to an emulator. A new example that no test
runs fails ``test_every_example_is_run``.
"""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio
from support.examples import Example, examples, run_fragment

import route_planning_async as rp
from route_planning_async.emulator import Emulator

_WEBHOOKS = "tests/shared/test_webhooks.py::test_the_readme_app_and_its_emulator_test_run_as_written"
ELSEWHERE = {
    'print("optimized:", operation.result)': "tests/project/test_readme.py::test_quickstart_runs_as_written",
    "route_planning_async.v1.search import field": (
        "tests/project/test_readme.py::test_the_v1_quickstart_runs_as_written"
    ),
    "route_planning_emulator(speedup=60)": (
        "tests/project/test_readme.py::test_the_pytest_example_runs_with_the_installed_plugin"
    ),
    "class OnePlan": "tests/project/test_readme.py::test_the_transport_example_runs_as_written",
    "def make_app(secret": _WEBHOOKS,
    "test_my_app_receives_the_deliveries": _WEBHOOKS,
    'RedisBackend("redis://': "tests/redis/test_redis_docs_example.py::test_the_readme_redis_example_runs",
    "RedisBackend(cluster": "tests/redis/test_redis_cluster.py::test_the_docs_cluster_example_runs",
    "route_planning_emulator.faults.add(": (
        "tests/project/test_faults_guide.py::test_the_fault_guide_examples_run_as_one_test_module"
    ),
}
"""A string only one example holds -> the test that runs that example."""


def _fragments() -> list[Example]:
    return [e for e in examples() if not any(marker in e.code for marker in ELSEWHERE)]


def test_every_example_is_run() -> None:
    for example in examples():
        markers = [marker for marker in ELSEWHERE if marker in example.code]
        assert len(markers) <= 1, f"{example.where} matches {markers}"
    # Every marker still names an example: a test that runs nothing would pass silently.
    for marker in ELSEWHERE:
        assert any(marker in example.code for example in examples()), marker
    assert _fragments(), "no fragment left to run here"


def _stops(count: int, prefix: str) -> Iterator[rp.StopInput]:
    for index in range(count):
        yield rp.StopInput(
            address=rp.AddressInput(latitude=51.5 + index / 1000, longitude=-0.12),
            recipient=rp.RecipientInput(name=f"Customer {index}", external_id=f"{prefix}-{index}"),
        )


def _drivers() -> list[rp.DriverInput]:
    return [rp.DriverInput(name=f"Driver {n}", email=f"driver{n}@example.com") for n in range(3)]


@pytest_asyncio.fixture
async def names(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[dict[str, Any]]:
    """What the fragments use, bound to a fresh emulator."""
    async with Emulator(speedup=600) as emu, emu.client() as client:
        monkeypatch.setenv("ROUTE_PLANNING_API_KEY", emu.api_key)
        monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", emu.base_url)
        starts = datetime.date(2026, 3, 2)
        plans = [
            await client.plans.create(title=f"Day {n}", starts=starts, drivers=["drivers/driver-ana"])
            for n in range(3)
        ]
        for plan in plans[1:]:
            await client.stops.import_batch(plan.id, list(_stops(5, plan.id)))
        operations = [await client.plans.optimize(plan.id) for plan in plans[1:]]
        await client.stops.import_batch(plans[0].id, list(_stops(5, "first")))
        yield {
            **{name: getattr(rp, name) for name in rp.__all__},
            "datetime": datetime,
            "client": client,
            "plan_id": plans[0].id,
            "operations": operations,
            "read_stops_from_somewhere": lambda: _stops(250, "bulk"),
            "read_drivers_from_somewhere": _drivers,
        }
    assert emu.internal_errors == []


@pytest.mark.asyncio
@pytest.mark.parametrize("example", _fragments(), ids=lambda e: e.where)
async def test_the_fragment_runs(
    example: Example, names: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    namespace = await run_fragment(example, names)
    # A fragment ends in a client call or a print of its answers: something happened.
    assert capsys.readouterr().out or set(namespace) - set(names) - {"__name__", "__builtins__"}
