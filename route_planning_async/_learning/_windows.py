"""The long-window rule: longer rules paced by shorter ones, for a category learning one level.

A category with rules of several periods (optimize and imports at the public
documentation's limits: 100 per 10 minutes, at most 30 per minute) learns one
level, in requests of its smallest rule, and a 429 rarely says which rule
refused. Below the configured limits, each longer rule admits over its period
what the shorter ones of its kind admit at the level (3 a minute is 30 per 10
minutes, not 10), up to its configured amount: the longer window then never
refuses before the shorter ones would, until a 429 comes while the longer
rule's window holds the level's amount of it and no shorter rule's window is full:
then that rule was the one, and it keeps the level's amount from then on, without
a decrease (``_law.py``, "long window").

This room computes the rules the backend is asked with at a level, and tells such a 429."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from route_planning_async._rate_limits._backends import learned_amount
from route_planning_async._rate_limits._limits import Rule

__all__ = ["LongWindows"]


class LongWindows:
    """A category's rules, and which of them are paced by shorter ones (until refused alone)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        shorter = {
            i: tuple(s for s in self.rules if s.per == rule.per and s.period < rule.period)
            for i, rule in enumerate(self.rules)
        }
        self._paced = {i: rules_below for i, rules_below in shorter.items() if rules_below}
        self._for, self._rules = 1.0, self.rules

    def rules_at(self, factor: float) -> tuple[Rule, ...]:
        """The rules to ask the backend with at ``factor``: the configured ones, except that a
        paced rule admits, at ``factor``, what the shorter ones admit over its period."""
        if factor == self._for:
            return self._rules
        rules = list(self.rules)
        if factor < 1.0:
            for i, shorter in self._paced.items():
                rule = rules[i]
                paced = min(learned_amount(s.amount, factor) * int(rule.period // s.period) for s in shorter)
                wanted = min(rule.amount, max(learned_amount(rule.amount, factor), paced))
                # The backend admits floor(amount * factor) (learned_amount): the amount that gives it.
                rules[i] = attrs.evolve(rule, amount=max(1, math.ceil(wanted / factor - 1e-9)))
        self._for, self._rules = factor, tuple(rules)
        return self._rules

    def refused_alone(self, counted: Sequence[int], factor: float) -> bool:
        """Whether a 429 at ``factor`` is a paced rule's own (its window holds ``factor``'s amount
        of it or more, and no shorter rule's window is full: ``counted``, per rule, is what each
        window held when the refused attempt came); then it is paced no more."""
        for i, shorter in self._paced.items():
            if counted[i] >= learned_amount(self.rules[i].amount, factor) and all(
                counted[self.rules.index(s)] < learned_amount(s.amount, factor) for s in shorter
            ):
                self._paced = {}
                self._for = -1.0
                return True
        return False
