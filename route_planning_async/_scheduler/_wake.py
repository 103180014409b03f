"""A lane's head asleep until capacity may be free: the wait the backend answered,
cut short when something changes that may let it through earlier (a poke).
"""

from __future__ import annotations

import asyncio
import math

from route_planning_async._scheduler._clock import Clock, LoopClock

__all__ = ["Wake"]


def _set_if_pending(future: asyncio.Future[None], _: object = None) -> None:
    if not future.done():
        future.set_result(None)


class Wake:
    """The sleep of a lane's head, and the pokes that end it early."""

    def __init__(self, clock: Clock, shortest_period: float, recheck: float) -> None:
        self._clock = clock
        self._shortest_period = shortest_period
        # An infinite wait ends with a local answer (a poke), or, for slots held by
        # other processes on a shared backend, by asking again after this long.
        self._recheck = recheck
        self.future: asyncio.Future[None] | None = None
        """Set while the head sleeps."""
        self._at = -math.inf

    def poke(self) -> None:
        """Something changed that may let the head through earlier: make it ask again."""
        if self.future is not None:
            _set_if_pending(self.future)

    def poke_after_release(self, anchor: float) -> None:
        """A slot was anchored at ``anchor``: wake the head only if that can help it.

        The slot stops counting at ``anchor + period`` at the earliest, so a head
        that will wake before then anyway would only compute the same wait again.
        """
        if self._at > anchor + self._shortest_period:
            self.poke()

    async def sleep(self, wait: float) -> None:
        """Sleep the ``wait`` seconds the backend answered, or less if poked."""
        loop = asyncio.get_running_loop()
        wake: asyncio.Future[None] = loop.create_future()
        self.future = wake
        self._at = self._clock.now() + wait
        seconds = self._recheck if math.isinf(wait) else wait
        timer: asyncio.TimerHandle | asyncio.Task[None]
        if isinstance(self._clock, LoopClock):
            timer = loop.call_later(seconds, _set_if_pending, wake)
        else:
            timer = loop.create_task(self._clock.sleep(seconds))
            timer.add_done_callback(lambda _: _set_if_pending(wake))
        try:
            await wake
        finally:
            self.future = None
            self._at = -math.inf
            timer.cancel()
