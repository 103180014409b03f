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

__all__ = ["IN_FLIGHT_HEADROOM", "Anchor"]

IN_FLIGHT_HEADROOM = 4.0
"""How many times the attempts a round trip takes at the category's rate may be in flight at
once (the lane's module docstring, "One round trip at a time")."""

_TRUSTED_ROUND_TRIPS = 16
"""Round trips a category must have seen before it anchors answered slots early."""


class Anchor:
    """The round trips of one category, and the shift of its answered slots."""

    def __init__(self) -> None:
        self._fastest = math.inf
        self._round_trips: collections.deque[float] = collections.deque(maxlen=64)
        self._answers = 0
        self._recent_spread = 0.0
        self._recent_longest = 0.0
        self._caution = 0.0

    def shift(self, sent_at: float, answered_at: float, *, strict: bool = False) -> float:
        """How much earlier than its answer an answered slot is anchored (<= 0).

        Strict windows anchor at the answer (0, but the round trip is seen). Otherwise the slot
        is anchored the shortest round trip seen before its answer (never before its send).
        """
        round_trip = answered_at - sent_at
        if round_trip < self._fastest:
            self._fastest = round_trip
        round_trips = self._round_trips
        round_trips.append(round_trip)
        self._answers += 1
        if self._answers % 16 == 0 or self._answers <= _TRUSTED_ROUND_TRIPS:
            # Every 16th answer is enough to follow the spread, at a 64th of the cost.
            self._recent_longest = max(round_trips)
            self._recent_spread = self._recent_longest - min(round_trips)
        if strict or self._answers < _TRUSTED_ROUND_TRIPS:
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

    def in_flight_cap(self, per_second: float) -> float:
        """The most attempts out at once at ``per_second``: ``IN_FLIGHT_HEADROOM`` times what
        the longest recent round trip holds at that rate, and one at least; no cap before the
        first answer (a first burst scouts where a refused one is dear: the lane's docstring)."""
        if not self._answers:
            return math.inf
        return max(1, math.ceil(IN_FLIGHT_HEADROOM * per_second * self._recent_longest))

    def late_arrival(self) -> None:
        """A 429 though the service admitted what was believed: a request arrived later than
        its anchor assumed. Anchor answered slots later from now on."""
        self._caution += max(self._recent_spread, 1e-3)
