"""The one clock every waiting or measuring part of the library reads.

The scheduler's waits, the slots' anchors, the workflows' polls and deadlines
all run on a :class:`Clock`; a test hands in a fake one, or runs
:class:`LoopClock` on a virtual-time loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["Clock", "LoopClock"]


class Clock(Protocol):
    """The scheduler's time source: a monotonic ``now()`` and a matching ``sleep()``."""

    def now(self) -> float:
        """Seconds on a monotonic scale."""

    async def sleep(self, seconds: float) -> None:
        """Return after ``seconds`` of this clock have passed."""


class LoopClock:
    """The running event loop's clock (``loop.time()``, monotonic) and ``asyncio.sleep``."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._time: Callable[[], float] = time.monotonic

    def now(self) -> float:
        """The event loop's time."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # asyncio's own loops tell time with time.monotonic(); calling it
            # directly spares a method call per reading. Other loops (uvloop, a
            # test's virtual clock) are asked.
            self._loop = loop
            standard = getattr(type(loop), "time", None) is asyncio.BaseEventLoop.time
            self._time = time.monotonic if standard else loop.time
        return self._time()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)
