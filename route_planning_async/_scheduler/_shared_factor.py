"""A lane's view of what the backend keeps of its category for every process sharing it.

The level (as a rate factor) is one per category in the backend: a decrease by any
process sharing it is every one's (``RateLimitBackend.penalize`` keeps the lowest),
and so is a raise (``recover``); the slots are every process's too (``window``). A
lane reads and changes them here, which dates its own last change of the factor: a
grant asked for before that change was confirmed may carry the factor from before
it (the lane's ``admit``).
"""

from __future__ import annotations

import math

from route_planning_async._rate_limits._backends import RateLimitBackend, WindowCount
from route_planning_async._rate_limits._limits import Rule
from route_planning_async._scheduler._clock import Clock

__all__ = ["SharedFactor"]


class SharedFactor:
    """One category's factor and windows in the backend, and the lane's own last change."""

    def __init__(self, backend: RateLimitBackend, key: str, rules: tuple[Rule, ...], clock: Clock) -> None:
        self._backend = backend
        self._key = key
        self._rules = rules
        self._clock = clock
        self.changed_at = -math.inf
        """When the lane's own last change of the factor was confirmed (its clock)."""

    async def penalize(self, pause: float, factor: float, now: float) -> float:
        """Pause the category and lower its factor (the lane's own change): the factor in force."""
        factor = await self._backend.penalize(self._key, pause, factor, now)
        self.changed_at = self._clock.now()
        return factor

    async def recover(self, factor: float) -> float:
        """Raise the category's factor (the lane's own change): the factor in force."""
        factor = await self._backend.recover(self._key, factor)
        self.changed_at = self._clock.now()
        return factor

    async def read(self) -> float:
        """The factor in force, as every process sharing the backend left it (``recover`` of 0.0)."""
        return await self._backend.recover(self._key, 0.0)

    async def window(self, now: float) -> tuple[WindowCount, ...]:
        """Each rule's trailing window of the category, by every process sharing the backend, its
        three kinds of slot apart (``window``)."""
        return await self._backend.window(self._key, self._rules, now)
