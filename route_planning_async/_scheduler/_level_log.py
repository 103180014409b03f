"""What a lane tells its log about the learned level: decreases, busy windows, raises.

Which of them is logged at which level is stated once, in the lane's docstring
("429s"); this room keeps the refusals since the last warning and words the lines.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from route_planning_async._learning import Action, Law
from route_planning_async._rate_limits._limits import Rule

__all__ = ["LevelLog"]

logger = logging.getLogger("route_planning_async.scheduler")


def _rules_text(rules: Sequence[Rule]) -> str:
    """``10 per 1 s, 1000 stops per 60 s``."""
    return ", ".join(_rule_text(rule) for rule in rules)


def _rule_text(rule: Rule) -> str:
    unit = "" if rule.per == "request" else " stop" if rule.amount == 1 else " stops"
    return f"{rule.amount}{unit} per {rule.period:g} s"


def _counts(admitted: Sequence[int] | None) -> str:
    return "?" if admitted is None else "/".join(str(count) for count in admitted)


class LevelLog:
    """One category's log lines about its learned level, and the refusals since its last warning."""

    def __init__(self, key: str, rules: Sequence[Rule]) -> None:
        self._key = key
        self._configured = _rules_text(rules)
        self._warned_level = 1.0
        self._refused_since_warning = 0
        self._busy_told = False

    def refused(self) -> None:
        """A 429 came."""
        self._refused_since_warning += 1

    def changed(self, action: Action, law: Law, admitted: Sequence[int] | None) -> None:
        """The law's ``action`` was applied: a warning the first time the level goes lower, INFO
        for a busy window and the way back to the configured limits, DEBUG otherwise."""
        learned = _rules_text(law.learned())
        factor = law.factor
        if action.transition == "busy":
            # At INFO once until the level changes (a storm is many busy windows in a row).
            if self._busy_told:
                logger.debug(
                    "%s: 429, still nothing of ours in the window; sending at %s", self._key, learned
                )
            else:
                logger.info(
                    "%s: 429 with nothing of ours admitted in the service's window: the budget is busy "
                    "(another process on the key?); waiting a period, then sending at %s",
                    self._key,
                    learned,
                )
            self._busy_told = True
        elif action.level is not None:
            self._busy_told = False
        if action.transition == "busy" or action.level is None:
            return
        if factor < self._warned_level - 1e-9:
            refused = self._refused_since_warning
            if refused:
                logger.warning(
                    "%s: %d %s refused with 429; the service admitted %s in its window: "
                    "sending at %s (configured %s) and probing upward",
                    self._key,
                    refused,
                    "request" if refused == 1 else "requests",
                    _counts(admitted),
                    learned,
                    self._configured,
                )
            else:
                # The level came down without a 429 of this lane's: from another client or
                # process sharing the estimate or the backend (``Law.adopt``).
                logger.warning(
                    "%s: the clients sharing this key's rate-limit backend learned a lower limit "
                    "from their 429s: sending at %s (configured %s) and probing upward",
                    self._key,
                    learned,
                    self._configured,
                )
            self._warned_level = factor
            self._refused_since_warning = 0
        elif factor >= 1.0 and self._warned_level < 1.0:
            logger.info("%s: back at the configured limits", self._key)
            self._warned_level = 1.0
            self._refused_since_warning = 0
        elif action.level is not None:
            logger.debug("%s: %s; sending at %s", self._key, action.transition, learned)
