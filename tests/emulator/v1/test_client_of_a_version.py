"""``Emulator.client(api_version=...)``: a client of either version over the one store."""

from __future__ import annotations

import datetime

import pytest

import route_planning_async as rp
from route_planning_async import v1
from route_planning_async.emulator import Emulator


@pytest.mark.asyncio
async def test_the_emulator_gives_a_client_of_each_version(emu: Emulator) -> None:
    async with emu.client() as old, emu.client(api_version="v1") as new:
        assert isinstance(old, rp.RoutePlanningClient)
        assert isinstance(new, v1.RoutePlanningClient)
        assert new.base_url == emu.base_url_for("v1")
        plan = await old.plans.create(title="Both", starts=datetime.date(2026, 3, 2))
        assert (await new.plans.get(plan.id)).title == "Both"
