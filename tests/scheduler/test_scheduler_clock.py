"""The virtual-time loop of ``support/virtual_time.py`` keeps its promises."""

from __future__ import annotations

import asyncio

import pytest
from support.virtual_time import run_virtual, virtual_loop


def test_sleep_jumps_virtual_time() -> None:
    async def main() -> tuple[float, float]:
        loop = virtual_loop()
        await asyncio.sleep(3600)
        first = loop.time()
        await asyncio.gather(asyncio.sleep(1.5), asyncio.sleep(0.25))
        return first, loop.time()

    assert run_virtual(main) == (3600.0, 3601.5)


def test_timeouts_are_virtual() -> None:
    async def main() -> float:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(asyncio.get_running_loop().create_future(), timeout=10)
        return virtual_loop().time()

    assert run_virtual(main) == 10.0


def test_deadlock_is_reported_instead_of_hanging() -> None:
    async def main() -> None:
        await asyncio.get_running_loop().create_future()

    with pytest.raises(RuntimeError, match="deadlock"):
        run_virtual(main)
