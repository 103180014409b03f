"""A lane's gate: the bookkeeping of the attempts out while a burst goes gated.

The lane's module docstring ("Others on the key") states when a lane closes
its gate (its scouts after a quiet period, a probe upward), the rule it keeps
and why; this module counts.
"""

from __future__ import annotations

import math

__all__ = ["SLOW_START_CAP", "Gate"]

SLOW_START_CAP = 16
"""Attempts out at once after which a gated burst goes ungated."""


class Gate:
    """How many attempts may be out under the gate, and how many are (open: no limit)."""

    def __init__(self) -> None:
        self._out = 0
        self._alone_until = -math.inf
        self.allowed: int | None = None
        """How many attempts may be out at once under the gate; None while it is open."""
        self.since = math.inf
        """When it closed (infinity while open): an attempt asked for since is under it (a
        raise may close it while a shared backend's grant is on its way)."""

    def close(self, now: float, *, alone_until: float = -math.inf) -> None:
        """From ``now`` one attempt goes alone; each admitted answer lets the next go, and
        from ``alone_until`` on one more."""
        self.allowed = 1
        self._out = 0
        self._alone_until = alone_until
        self.since = now

    def holds(self, in_flight: int) -> bool:
        """Whether the next attempt must wait for an answer under the gate. With nothing of
        the lane's in flight none will come (an attempt goes from its grant to the wire
        without yielding), so it does not."""
        if self.allowed is None or self._out < self.allowed:
            return False
        if in_flight == 0:
            self._out = 0
            return False
        return True

    def let_through(self, asked_at: float) -> None:
        """An attempt asked for at ``asked_at`` was granted: counted if it is under the gate."""
        if asked_at >= self.since:
            self._out += 1

    def settled(self, admitted: bool, now: float) -> None:
        """An attempt under the gate is settled at ``now``: admitted, the next may go (and,
        from ``alone_until``, one more); refused or failed, the gate opens."""
        if self.allowed is None:
            return
        self._out = max(0, self._out - 1)
        if admitted and self.allowed < SLOW_START_CAP:
            if now >= self._alone_until:
                self.allowed += 1
        else:
            self.allowed = None
            self.since = math.inf
