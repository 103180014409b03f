"""A virtual-time event loop: minutes of rate-limited traffic in milliseconds, deterministically.

The scheduler reads the running loop's clock and sleeps with ``asyncio.sleep``
(``LoopClock``). Under :class:`VirtualTimeLoop` those are virtual: whenever
every task is blocked and the loop would sleep until its next timer, time jumps
straight to that timer instead. Minutes of rate-limited traffic run in
milliseconds, deterministically, and every ``asyncio`` primitive keeps working.
It plays the part of aiolimiter's ``MockLoopTime``, without patching.
"""

from __future__ import annotations

import asyncio
import math
import selectors
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class _VirtualSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """Polls the real selector without blocking; a timed wait advances virtual time instead."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[Any]:
        events: list[Any] = super().select(0)
        if events:
            return events
        if timeout is None:
            raise RuntimeError("virtual-time loop: every task is blocked and no timer is pending (deadlock)")
        if timeout > 0:
            self._loop.advance(timeout)
        elif not self._loop._ready:  # type: ignore[attr-defined]
            # Only a timer that is already due runs next. On a real clock some time
            # passes on every iteration; without that, a callback that keeps
            # rescheduling itself "now" (aiolimiter's waker can) would spin forever.
            self._loop.advance(0.0)
        else:
            # Others are ready, and asyncio will run a timer due within its clock's
            # resolution at once: time passes to it, as on a real clock. Without that,
            # heads waiting a few ulps for a slot to expire, in turn, would keep each
            # other's iterations at the same instant forever (four schedulers on one
            # backend did).
            self._loop.reach_next_timer()
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock only moves when every task waits for a timer."""

    def __init__(self) -> None:
        self._virtual_now = 0.0
        super().__init__(_VirtualSelector(self))

    def time(self) -> float:
        return self._virtual_now

    def advance(self, seconds: float) -> None:
        """Move the clock forward (the selector does this when the loop is idle)."""
        # At least one representable step: a wait smaller than the clock's
        # precision must still let time pass, as it does on a real clock.
        self._virtual_now = max(self._virtual_now + seconds, math.nextafter(self._virtual_now, math.inf))

    def reach_next_timer(self) -> None:
        """Move the clock to the next timer if asyncio would run it now, before its time."""
        scheduled = self._scheduled  # type: ignore[attr-defined]
        if scheduled:
            due = scheduled[0].when()
            if self._virtual_now < due < self._virtual_now + self._clock_resolution:  # type: ignore[attr-defined]
                self._virtual_now = due

    def pending_timers(self) -> int:
        """Timers scheduled and not cancelled: what a sleeping task costs the loop."""
        return sum(1 for handle in self._scheduled if not handle.cancelled())


def run_virtual(main: Callable[[], Awaitable[T]]) -> T:
    """Run ``main()`` to completion on a fresh :class:`VirtualTimeLoop` starting at t=0."""

    async def wrapper() -> T:
        return await main()

    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        return runner.run(wrapper())


def virtual_loop() -> VirtualTimeLoop:
    """The running loop, which must be a :class:`VirtualTimeLoop`."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualTimeLoop)
    return loop
