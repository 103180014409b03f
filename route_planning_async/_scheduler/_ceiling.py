"""A lane's 429 ceiling: the refusals the service tolerates, kept whatever the learner believes.

The v1 description ("Rate limiting") states the service's rule: "If the client
keeps retrying rate-limited requests while being rejected with a 429 at a high
rate, Spoke will keep rejecting the requests until you turn down the request
rate". A client whose 429 share is high is locked out, not slow; so over any
``SPAN`` periods of a category, refused requests stay within ``SHARE`` of what
the lane sent (``FEW_ALLOWED`` while it sent fewer than ``FEW``; the lane keeps
to the stricter ``max(1, SHARE x sent)``). The ceiling is a safety net under the
learner (``_learning.py``), not a part of its model:

- while one more refusal would take the share over the ceiling
  (:meth:`Ceiling.reached`), the lane begins no probe upward (one exception: the
  single probe that checks a cut made in the process's first period);
- a 429 that finds the ceiling reached, to an attempt sent at the level in
  force which the learner then kept (it read a busy window, or it is wrong),
  slows the category one request below that level, or below what the window
  shows admitted if lower (by half at most), once per round trip;
- the learner keeps a level that holds through a race it loses (``_learning.py``,
  "Cut to what the service counted") only while the ceiling has room for that 429.

Only the refusals the learner cannot avoid remain: the first burst into a limit
nobody knew, and the one 429 a failed probe costs, which the probe pacing
(``_learning.py``, "Probe pacing") keeps within the share by itself.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

from route_planning_async._learning import LimitLearner

__all__ = ["FEW", "FEW_ALLOWED", "SHARE", "SPAN", "Ceiling"]

SPAN = 10
"""Periods (of the category's longest rule) over which the share is kept."""
SHARE = 0.05
"""The most refused requests may be of what the lane sent in ``SPAN`` periods."""
FEW = 60
"""Below this many sent in ``SPAN`` periods, ``FEW_ALLOWED`` refusals are tolerated instead."""
FEW_ALLOWED = 3


class Ceiling:
    """One lane's sends (counted per period) and refusals (timed) over the last ``SPAN`` periods."""

    def __init__(self, learner: LimitLearner) -> None:
        self._learner = learner
        self._period = learner.period
        # [period index, sent]: one entry per period something was sent in.
        self._sent: deque[list[int]] = deque()
        self._refused: deque[float] = deque()
        self._slowed_at = -math.inf

    def sent(self, now: float) -> None:
        """An attempt went out at ``now``."""
        index = math.floor(now / self._period)
        counts = self._sent
        if counts and counts[-1][0] == index:
            counts[-1][1] += 1
        else:
            counts.append([index, 1])
            while counts[0][0] <= index - SPAN:
                counts.popleft()

    def counted(self, admitted: Sequence[int], now: float) -> list[int]:
        """What the service counts of ours in each rule's window: ``admitted`` (answered without
        a 429) and, in rules of requests, the 429s in the rule's window (a service may count the
        requests it refuses; a window they fill is no limit)."""
        rules = self._learner.rules
        return [
            count + (sum(1 for at in self._refused if at > now - rule.period) if rule.per == "request" else 0)
            for count, rule in zip(admitted, rules, strict=True)
        ]

    def refused(
        self, now: float, sent_at: float, kept: bool, factor: float, admitted: Sequence[int] | None
    ) -> float:
        """A 429 came at ``now`` to an attempt sent at ``sent_at``; ``kept``: it went at the
        level in force and the learner made no cut for it (``admitted``: what the service
        admitted in each rule's window, if read); ``factor`` is the one the lane is about to
        apply. Answers the factor to apply: if the 429 finds the ceiling already reached and the
        learner kept the level, one request below it, or below what the window shows admitted if
        that is lower (but not below half of it)."""
        # Reached before this one: a single refused burst (a busy window the learner waits out)
        # does not slow the lane; a 429 that meets the ceiling its forerunners reached does.
        reached = kept and sent_at >= self._slowed_at and self.reached(now)
        self._refused.append(now)
        learner = self._learner
        if reached:
            self._slowed_at = now
            level = min(factor, learner.factor)
            slower = level - learner.unit
            if admitted is not None:
                # Down to what the window admitted, but by half at most (a busy window admits little).
                slower = min(slower, max(learner.level_of(admitted) - learner.unit, level / 2))
            return max(learner.policy.floor, slower)
        return factor

    def reached(self, now: float) -> bool:
        """Whether one more refusal would take the share over the ceiling."""
        refused = self._refused
        oldest = now - SPAN * self._period
        while refused and refused[0] < oldest:
            refused.popleft()
        if not refused:
            return False
        first = math.floor(now / self._period) - SPAN
        sent = sum(count for index, count in self._sent if index > first)
        # The stricter of the two: the share, and never more than FEW_ALLOWED below FEW sent;
        # one at least, the one a failed probe costs (its pacing keeps that within the share).
        allowed = max(1.0, SHARE * sent)
        return len(refused) + 1 > allowed
