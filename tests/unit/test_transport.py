"""The transport over a real socket: every attempt the service sees is one the scheduler counted."""

from __future__ import annotations

import datetime

import pytest

from route_planning_async import Category, RetryPolicy, TransportError
from route_planning_async.emulator import Emulator, Fault


@pytest.mark.asyncio
async def test_a_dropped_keep_alive_get_is_retried_by_the_scheduler_not_hidden_by_aiohttp() -> None:
    async with Emulator(speedup=50) as emu:
        async with emu.client(retry=RetryPolicy.testing()) as client:
            await client.depots.list().collect()  # opens a pooled connection
            emu.faults.add(Fault("drop", route="depots.list", times=1))
            depots = await client.depots.list().collect()
            stats = client.stats[Category.READ]
        seen = emu.log.select("read", route="depots.list")
    assert depots
    # Three GETs reached the emulator (one before the fault, the dropped one,
    # and its retry): exactly the three attempts the scheduler sent.
    assert len(seen) == 3
    assert stats.sent == 3
    assert stats.retries == 1


@pytest.mark.asyncio
async def test_a_dropped_post_is_not_sent_again() -> None:
    async with Emulator(speedup=50) as emu:
        async with emu.client(retry=RetryPolicy.testing()) as client:
            await client.depots.list().collect()
            emu.faults.add(Fault("drop", route="plans.create", times=1))
            with pytest.raises(TransportError) as caught:
                await client.plans.create(title="t", starts=datetime.date(2026, 1, 5))
            stats = client.stats[Category.WRITE]
        seen = emu.log.select("write", route="plans.create")
    assert caught.value.maybe_sent is True
    assert len(seen) == 1
    assert stats.sent == 1
