"""The stop importer's harness: an emulator and a v0.2b client, numbered rows, the rows stored.

Shared by the importer's tests (``tests/importing/test_importer.py``,
``tests/importing/test_import_faults.py``). A row's ``notes`` is ``row-<position>``,
which is how :func:`server_rows` finds what the emulator stores for each position.
"""

from __future__ import annotations

import asyncio
import datetime
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import attrs

from route_planning_async import RetryPolicy, RoutePlanningClient
from route_planning_async.emulator import Emulator
from route_planning_async.v0_2b._inputs import AddressInput, RecipientInput, StopInput, UnassignedStopInput

__all__ = [
    "IMPORT",
    "SPEEDUP",
    "create_plan",
    "row",
    "running",
    "server_rows",
    "unassigned_row",
    "until_no_other_task",
]

SPEEDUP = 600.0
"""A minute of rate limit lasts 0.1 s: 1,000 stops per 0.1 s of batch import."""

IMPORT = "stops.import_batch"


@asynccontextmanager
async def running(
    *, strict_windows: bool = False, **config: Any
) -> AsyncIterator[tuple[Emulator, RoutePlanningClient]]:
    """An emulator (HTTPS, sped up) and a client for it with the emulator's limits
    (``strict_windows``: as :attr:`RateLimits.strict_windows`)."""
    retry = config.pop("retry", RetryPolicy(attempts=12, base=0.001, cap=0.01, rng=random.Random(1)))
    config.setdefault("speedup", SPEEDUP)
    async with Emulator(**config) as emu:
        limits = attrs.evolve(emu.config.server_limits, strict_windows=strict_windows)
        async with emu.client(retry=retry, rate_limits=limits) as client:
            assert emu.base_url.startswith("https://127.0.0.1:")
            yield emu, client


async def until_no_other_task(*, deadline: float) -> None:
    """Return once no task but the current one is left, or after ``deadline`` seconds."""
    for _ in range(int(deadline / 0.01)):
        if not [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            return
        await asyncio.sleep(0.01)


def row(position: int, *, external: bool = True, rejected: bool = False) -> StopInput:
    """Input row ``position``: unique coordinates, ``notes`` naming it, an external id if asked."""
    if rejected:
        # The emulator cannot geocode an address that carries its marker.
        address = AddressInput(address_line_one=f"{position} UNGEOCODABLE Road", city="Nowhere")
    else:
        address = AddressInput(
            address_line_one=f"{position} High Street",
            latitude=51.0 + position * 1e-5,
            longitude=-0.2 + (position % 97) * 1e-4,
        )
    recipient = RecipientInput(external_id=f"ext-{position}", name=f"R{position}") if external else None
    return StopInput(address=address, recipient=recipient, notes=f"row-{position}")


def unassigned_row(position: int, *, external: bool = True) -> UnassignedStopInput:
    """Unassigned input row ``position``, ``notes`` naming it."""
    address = AddressInput(address_line_one=f"{position} Depot Lane", latitude=51.2, longitude=-0.1)
    recipient = RecipientInput(external_id=f"u-{position}") if external else None
    return UnassignedStopInput(address=address, recipient=recipient, notes=f"row-{position}")


def server_rows(emu: Emulator, plan_id: str) -> dict[int, list[str]]:
    """Position -> ids of the stops the server holds for it."""
    found: dict[int, list[str]] = {}
    for record in emu.state.stops_of(plan_id.removeprefix("plans/")):
        notes = record.body.get("notes") or ""
        assert notes.startswith("row-"), notes
        found.setdefault(int(notes[4:]), []).append(record.body["id"])
    return found


async def create_plan(client: RoutePlanningClient) -> str:
    """A plan to import into, with one driver."""
    plan = await client.plans.create(title="Import", starts=datetime.date(2026, 3, 2), drivers=["driver-ana"])
    return plan.id


async def setup_plan(emu: Emulator) -> str:
    """:func:`create_plan` through a client of its own, with the default timeout: a test's short
    timeout is there for the hangs and late commits it injects, and on a loaded machine it can
    time out the plan's creation (a POST, not sent again after a timeout) before any fault."""
    async with emu.client() as client:
        return await create_plan(client)
