"""Where an answered slot is anchored: the round trips a category has seen.

A slot counts for one period from its request's arrival at the service, which
the client never sees; it sees the send and the answer. The :class:`Anchor`
keeps the shortest round trip seen, the spread of the recent ones and the
caution that late arrivals added, and tells how much earlier than its answer a
slot may be anchored (the lane's module docstring, "Latency").
"""

from __future__ import annotations

import collections
import math

__all__ = ["Anchor"]

_TRUSTED_ROUND_TRIPS = 16
"""Round trips a category must have seen before it anchors answered slots early."""


class Anchor:
    """The round trips of one category, and the shift of its answered slots."""

    def __init__(self) -> None:
        self._fastest = math.inf
        self._round_trips: collections.deque[float] = collections.deque(maxlen=64)
        self._answers = 0
        self._recent_spread = 0.0
        self._caution = 0.0

    def shift(self, sent_at: float, answered_at: float) -> float:
        """How much earlier than its answer an answered slot is anchored (<= 0).

        Strict windows anchor at the answer (this is not called). Otherwise the slot is
        anchored the shortest round trip seen before its answer (never before its send).
        """
        round_trip = answered_at - sent_at
        if round_trip < self._fastest:
            self._fastest = round_trip
        round_trips = self._round_trips
        round_trips.append(round_trip)
        self._answers += 1
        if self._answers % 16 == 0:
            # Every 16th answer is enough to follow the spread, at a 64th of the cost.
            self._recent_spread = max(round_trips) - min(round_trips)
        if self._answers < _TRUSTED_ROUND_TRIPS:
            # Too few to know the shortest (a first burst queues them all): strict.
            return 0.0
        # Taken off: the shortest round trip, less a share of the spread of the
        # recent ones (the lane's module docstring, "Latency": the shortest of n
        # exceeds the true shortest by about spread / (2 sqrt(n)); four times that
        # is kept back) and the caution of past late arrivals. A microsecond: a tie
        # goes to the safe side.
        doubt = min(1.0, 2 / math.sqrt(self._answers + 1)) * self._recent_spread
        credit = self._fastest - doubt - self._caution
        return min(0.0, 1e-6 - credit)

    def late_arrival(self) -> None:
        """A 429 though the service admitted what was believed: a request arrived later than
        its anchor assumed. Anchor answered slots later from now on."""
        self._caution += max(self._recent_spread, 1e-3)
