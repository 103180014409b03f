"""The learning law's five numbers, as data (``LearningPolicy``); the law is ``docs/learning.md``."""

from __future__ import annotations

import math

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import ConfigurationError

__all__ = ["LearningPolicy"]


def _number(value: object) -> object:
    """An int or float as a float; anything else is left for the validator to name."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


def _is_number(attribute: attrs.Attribute[float], value: object) -> None:
    if not isinstance(value, float):
        raise ConfigurationError(
            f"LearningPolicy.{attribute.name} must be a number, got {type(value).__name__} {value!r}"
        )


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    _is_number(attribute, value)
    if not (value > 0 and math.isfinite(value)):
        raise ConfigurationError(f"LearningPolicy.{attribute.name} must be a positive number, got {value}")


def _fraction(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    _is_number(attribute, value)
    if not 0 < value < 1:
        raise ConfigurationError(f"LearningPolicy.{attribute.name} must be in (0, 1), got {value}")


def _count(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 1:
        raise ConfigurationError(
            f"LearningPolicy.{attribute.name} must be a whole number >= 1, got {value!r}"
        )


@fields_documented
@attrs.frozen
class LearningPolicy:
    """How a category learns the service's real limit from 429s: the five numbers of the law
    stated in ``docs/learning.md``.

    Times are in periods of the category's longest rule (1 s for reads, a
    minute for batch imports at the contract's limits)::

        RetryPolicy(learning=LearningPolicy(ceiling=0.02))  # fewer refusals, slower probes
        RetryPolicy(learning=None)                          # keep the configured limits

    Keyword Args:
        decrease (float): The share of its level a category keeps when a level that held is refused
            (never more than what the service's window admitted of ours): the law's one multiplicative
            decrease.
        ceiling (float): The most 429s may be of a category's attempts in a run: a probe goes only while
            the run's 429s, with the probe's and one more, stay within this share of its attempts.
        burst (int): The most 429s in a short run (and in any ``span`` periods); one less is the most
            attempts out at once at a level no answer has confirmed yet.
        span (float): Periods a probe waits after a 429 (times the failed probes' back-off), and the
            longest pause of a retry refused in a streak of 429s (each doubles it, from one period).
        memory (float): Periods a level that held is remembered as the level to go back to after a
            decrease (CUBIC's last maximum).
    """

    decrease: float = attrs.field(
        default=0.5,
        converter=_number,
        validator=_fraction,
        metadata=described(
            "The share of its level a category keeps when a level that held is refused (never more than "
            "what the service's window admitted of ours): the law's one multiplicative decrease."
        ),
    )
    ceiling: float = attrs.field(
        default=0.05,
        converter=_number,
        validator=_fraction,
        metadata=described(
            "The most 429s may be of a category's attempts in a run: a probe goes only while the "
            "run's 429s, with the probe's and one more, stay within this share of its attempts."
        ),
    )
    burst: int = attrs.field(
        default=3,
        validator=_count,
        metadata=described(
            "The most 429s in a short run (and in any ``span`` periods); one less is the most attempts "
            "out at once at a level no answer has confirmed yet."
        ),
    )
    span: float = attrs.field(
        default=10.0,
        converter=_number,
        validator=_positive,
        metadata=described(
            "Periods a probe waits after a 429 (times the failed probes' back-off), and the longest "
            "pause of a retry refused in a streak of 429s (each doubles it, from one period)."
        ),
    )
    memory: float = attrs.field(
        default=60.0,
        converter=_number,
        validator=_positive,
        metadata=described(
            "Periods a level that held is remembered as the level to go back to after a decrease "
            "(CUBIC's last maximum)."
        ),
    )
