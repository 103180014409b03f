"""What a lane tells its log about the learned level: cuts, busy windows, probes.

Which of them is logged at which level is stated once, in the lane's
docstring ("429s"); this room keeps the refusals since the last warning and
words the lines.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from route_planning_async._learning import LimitLearner
from route_planning_async._limits import Rule

__all__ = ["LevelLog"]

logger = logging.getLogger("route_planning_async.scheduler")


def _rules_text(rules: Sequence[Rule]) -> str:
    """``10 per 1 s, 1000 stops per 60 s``."""
    return ", ".join(_rule_text(rule) for rule in rules)


def _rule_text(rule: Rule) -> str:
    unit = "" if rule.per == "request" else " stop" if rule.amount == 1 else " stops"
    return f"{rule.amount}{unit} per {rule.period:g} s"


def _counts(admitted: Sequence[int]) -> str:
    return "/".join(str(count) for count in admitted)


class LevelLog:
    """One category's log lines about its learned level, and the refusals since its last warning."""

    def __init__(self, key: str, rules: Sequence[Rule]) -> None:
        self._key = key
        self._configured = _rules_text(rules)
        self._warned_level = 1.0
        self._refused_since_warning = 0

    def refused(self) -> None:
        """A 429 came."""
        self._refused_since_warning += 1

    def busy(self, learner: LimitLearner, admitted: Sequence[int], pause: float) -> None:
        """A 429 read as a busy budget: the category waits ``pause`` at the same level."""
        logger.info(
            "%s: 429 though the service admitted %s of ours in its window: the budget is busy "
            "(another process on the key?); waiting %.3g s, then sending at %s",
            self._key,
            _counts(admitted),
            pause,
            _rules_text(learner.learned()),
        )

    def cut(self, learner: LimitLearner, admitted: Sequence[int]) -> None:
        """A cut to what the service admitted: a warning the first time the level goes lower."""
        learned = _rules_text(learner.learned())
        if learner.factor < self._warned_level - learner.unit / 2:
            refused = self._refused_since_warning
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
            self._warned_level = learner.factor
            self._refused_since_warning = 0
        else:
            logger.debug("%s: 429; sending at %s", self._key, learned)

    def probe_failed(self, learner: LimitLearner) -> None:
        logger.debug("%s: 429 while probing; back to %s", self._key, _rules_text(learner.learned()[:1]))

    def corrected(self, learner: LimitLearner) -> None:
        logger.debug("%s: the cut was too deep; sending at %s", self._key, _rules_text(learner.learned()[:1]))

    def raised(self, rate_factor: float) -> None:
        """A probe raised the level to ``rate_factor``."""
        if rate_factor >= 1.0 and self._warned_level < 1.0:
            logger.info("%s: back at the configured limits", self._key)
            self._warned_level = 1.0
            self._refused_since_warning = 0
        else:
            logger.debug("%s: probing at %.0f%% of the configured limits", self._key, 100 * rate_factor)
