"""How a category learns the service's real limit: the policy, as data (``LearningPolicy``).

The algorithm these numbers drive, its model and its bounds, is stated once, in
the docstring of ``_learning.py``.
"""

from __future__ import annotations

import math

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import ConfigurationError

__all__ = ["LearningPolicy"]


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not (value > 0 and math.isfinite(value)):
        raise ConfigurationError(f"LearningPolicy.{attribute.name} must be a positive number, got {value}")


def _fraction(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0 < value <= 1:
        raise ConfigurationError(f"LearningPolicy.{attribute.name} must be in (0, 1], got {value}")


@fields_documented
@attrs.frozen
class LearningPolicy:
    """How a category learns the service's real limit from 429s (the docstring of ``_learning.py``).

    Times are in periods of the category's longest rule (1 s for reads, a
    minute for batch imports at the contract's limits)::

        RetryPolicy(learning=LearningPolicy(max_probe_interval=16))  # fewer probes
        RetryPolicy(learning=None)                                   # keep the configured limits

    Keyword Args:
        floor (float): The lowest rate factor a cut can reach (a share of the configured limits).
        first_probe (float): Periods after a cut made in the process's first period before its probe
            upward (the window may have held a stopped run's slots; a probe that holds goes back to the
            configured limits). Other probes are paced by ``probe_share``.
        first_probe_unproven (float): Periods after a first cut before the first probe upward, when no
            higher level ever held: the configured limits were never the service's, so the cut is likely
            its real limit, and an early probe would only cost a 429. (A cut in the process's first
            period probes after ``first_probe``, and waits twice this long once that probe fails.)
        max_probe_interval (float): The longest wait between probes while no higher level ever held (2 P
            if longer).
        recent_probe_interval (float): The shortest wait between probes, in periods (the probe pacing's
            least ``P``); once a higher level held, failed probes back off to ``2 P`` at most.
        memory (float): How many periods a level that held is remembered as lent: a 429 below it within
            them is read as others taking part of it (the cut decreases by ``decrease`` rather than
            measure the window).
        confirm (float): Periods a raise's attempts go one at a time; after a first period's cut, also
            what its probe must hold before the configured limits (other steps hold a whole period).
        busy_share (float): A 429 while the category had used less than this share of its learned level
            in the window says the budget is busy (others spent it), not smaller: wait for the window
            and keep the level.
        decrease (float): The share of its level a category keeps when a level that held is refused
            (somebody else arrived on the key, or the limit fell), and again for every 429 within
            ``settle`` periods of that decrease, never below what the window counted of ours: TCP's
            multiplicative decrease, in whole requests.
        settle (float): Periods after a decrease in which a further 429 decreases again (the others are
            still arriving), and after any cut in which a 429 is never read as a busy budget; later, a
            429 at a level a cut reached is a race for a freed slot (kept once per ``P`` periods, else
            one request less).
        first_step (float): Periods the first step of a probe upward must hold before the ramp grows
            (later steps hold one): a level that passed one period by luck is not taken for one the
            service keeps.
        probe_share (float): The share of the category's requests that failed probes may cost: with
            ``r`` requests a period left to it, a category probes no more often than every
            ``max(recent_probe_interval, ceil(1 / (probe_share * r)))`` periods (20 / r at 5%).
    """

    floor: float = attrs.field(
        default=0.01,
        converter=float,
        validator=_fraction,
        metadata=described("The lowest rate factor a cut can reach (a share of the configured limits)."),
    )
    first_probe: float = attrs.field(
        default=1.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "Periods after a cut made in the process's first period before its probe upward (the window "
            "may have held a stopped run's slots; a probe that holds goes back to the configured limits). "
            "Other probes are paced by ``probe_share``."
        ),
    )
    first_probe_unproven: float = attrs.field(
        default=16.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "Periods after a first cut before the first probe upward, when no higher level ever held: the "
            "configured limits were never the service's, so the cut is likely its real limit, and an early "
            "probe would only cost a 429. (A cut in the process's first period probes after "
            "``first_probe``, and waits twice this long once that probe fails.)"
        ),
    )
    max_probe_interval: float = attrs.field(
        default=32.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "The longest wait between probes while no higher level ever held (2 P if longer)."
        ),
    )
    recent_probe_interval: float = attrs.field(
        default=3.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "The shortest wait between probes, in periods (the probe pacing's least ``P``); once a "
            "higher level held, failed probes back off to ``2 P`` at most."
        ),
    )
    memory: float = attrs.field(
        default=60.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "How many periods a level that held is remembered as lent: a 429 below it within them is read "
            "as others taking part of it (the cut decreases by ``decrease`` rather than measure the window)."
        ),
    )
    confirm: float = attrs.field(
        default=0.25,
        converter=float,
        validator=_positive,
        metadata=described(
            "Periods a raise's attempts go one at a time; after a first period's cut, also what its "
            "probe must hold before the configured limits (other steps hold a whole period)."
        ),
    )
    busy_share: float = attrs.field(
        default=0.1,
        converter=float,
        validator=_fraction,
        metadata=described(
            "A 429 while the category had used less than this share of its learned level in the window "
            "says the budget is busy (others spent it), not smaller: wait for the window and keep the level."
        ),
    )
    decrease: float = attrs.field(
        default=0.5,
        converter=float,
        validator=_fraction,
        metadata=described(
            "The share of its level a category keeps when a level that held is refused (somebody else "
            "arrived on the key, or the limit fell), and again for every 429 within ``settle`` periods of "
            "that decrease, never below what the window counted of ours: TCP's multiplicative decrease, in "
            "whole requests."
        ),
    )
    settle: float = attrs.field(
        default=2.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "Periods after a decrease in which a further 429 decreases again (the others are still "
            "arriving), and after any cut in which a 429 is never read as a busy budget; later, a 429 at a "
            "level a cut reached is a race for a freed slot (kept once per ``P`` periods, else one request "
            "less)."
        ),
    )
    first_step: float = attrs.field(
        default=2.0,
        converter=float,
        validator=_positive,
        metadata=described(
            "Periods the first step of a probe upward must hold before the ramp grows (later steps hold "
            "one): a level that passed one period by luck is not taken for one the service keeps."
        ),
    )
    probe_share: float = attrs.field(
        default=0.05,
        converter=float,
        validator=_fraction,
        metadata=described(
            "The share of the category's requests that failed probes may cost: with ``r`` requests a "
            "period left to it, a category probes no more often than every "
            "``max(recent_probe_interval, ceil(1 / (probe_share * r)))`` periods (20 / r at 5%)."
        ),
    )

    def pace(self, per_period: float) -> float:
        """``P``, the fewest periods between probes (the rule of ``probe_share``): a failed probe
        costs one 429, so probes alone cost at most that share of the traffic.

        Args:
            per_period: The requests a period left to the category (``r``).
        """
        return max(self.recent_probe_interval, float(math.ceil(1.0 / (self.probe_share * per_period) - 1e-9)))
