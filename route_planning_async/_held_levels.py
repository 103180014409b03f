"""The highest level a category held lately: what others on the key (or a passing drop) may
hold now is lent, not lost (``_learning.py``, "Others on the key").
"""

from __future__ import annotations

import math

__all__ = ["HighestHeld"]


class HighestHeld:
    """The highest rate factor that held a whole period, and when.

    A level that held replaces it if it is as high, or once it is older than
    ``memory`` seconds (``LearningPolicy.memory``, in periods).
    """

    def __init__(self, memory: float) -> None:
        self._memory = memory
        self.level: float | None = None
        """The highest level that held (None: none yet)."""
        self._at = -math.inf

    def held(self, level: float, now: float) -> None:
        """``level`` held a whole period, up to ``now``."""
        if self.level is None or self.level <= level or now - self._at > self._memory:
            self.level, self._at = level, now

    def above(self, level: float) -> bool:
        """Whether a level above ``level`` held, however long ago."""
        return self.level is not None and self.level > level

    def lent(self, level: float, now: float) -> bool:
        """Whether a level above ``level`` held within ``memory`` (others, or a passing drop, hold
        the rest)."""
        return self.above(level) and now - self._at <= self._memory
