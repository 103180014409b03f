"""A lane's gate: the bookkeeping of the attempts out while a burst goes paced by answers.

The learning law (``docs/learning.md``) says when the gate closes (a first contact, a
raise) and when it opens (a level confirmed, a raise refused); the lane applies it,
and this module counts: one attempt alone, then one more per admitted answer, up to
the gate's cap.
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
        self._cap = SLOW_START_CAP
        self.allowed: int | None = None
        """How many attempts may be out at once under the gate; None while it is open."""
        self.since = math.inf
        """When it closed (infinity while open): an attempt asked for since is under it (a
        raise may close it while a shared backend's grant is on its way)."""

    def close(self, now: float, cap: int = SLOW_START_CAP) -> None:
        """From ``now`` one attempt goes alone; each admitted answer lets one more be out, up to
        ``cap`` (at ``SLOW_START_CAP`` the gate opens)."""
        self.allowed = 1
        self._out = 0
        self._cap = cap
        self.since = now

    def open(self) -> None:
        """No limit from now on."""
        self.allowed = None
        self.since = math.inf

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

    def settled(self, admitted: bool) -> None:
        """An attempt under the gate is settled: its place is free, and, admitted, one more may
        be out (up to the cap; at ``SLOW_START_CAP`` the gate opens)."""
        if self.allowed is None:
            return
        self._out = max(0, self._out - 1)
        if admitted:
            self.allowed = min(self._cap, self.allowed + 1)
            if self.allowed >= SLOW_START_CAP:
                self.open()
