"""Rate-limit categories and rules, as plain data.

The contract's Limits section defines four categories; the public API
documentation adds two for drivers (the contract has no driver endpoints), and
v1 adds the depot and member imports, whose limits no public text names (each
category's docstring says what was chosen). Which endpoint falls in
which category is decided once, in ``_endpoints.py``; how many requests a
category may send is decided here; where the slots that count against these
rules are kept is the backends' business (``_backends.py``), and how requests
wait for that capacity the scheduler's (``_scheduler/``). This is the lowest
of those rooms: it imports neither.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from typing import Any, Literal

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import ConfigurationError

__all__ = ["Category", "RateLimits", "Rule"]


class Category(enum.StrEnum):
    """The contract's rate-limit categories.

    Attributes:
        READ: Every GET, including lists and operation polls: 10 per second. v1's stop search (``GET
            /stops:search``) is here too: the public text names no limit of its own for it, and its "all
            read endpoints, including list endpoints" covers it; a tighter limit of the service's is
            learned from its 429s (shared with the other reads).
        WRITE: POST create, PATCH, DELETE, distribute, redistribute, save, live calls: 5 per second.
        BATCH_IMPORT: Batch imports of stops and unassigned stops: 10 per minute and 1,000 stops per
            minute.
        OPTIMIZE: Plan optimize and re-optimize: 3 per minute.
        DRIVER_CREATE: Driver create (POST /drivers): 1 per second (public API documentation; the
            contract has no drivers).
        DRIVER_IMPORT: Driver batch import (POST /drivers:import): 2 per minute (public API
            documentation).
        DEPOT_IMPORT: v1's depot batch import (POST /depots:import). The public text names no limit for
            it; chosen: the batch import's request rules (100 per 10 minutes, at most 30 per minute),
            without its per-stop rule. The scheduler only ever lowers a limit it learns from 429s, so a
            generous guess is the one it can correct.
        MEMBER_IMPORT: v1's member batch import (POST /members:import). The public text names no limit
            for it; chosen as for :attr:`DEPOT_IMPORT`: 100 per 10 minutes, at most 30 per minute,
            corrected from the service's 429s.
    """

    READ = "read"
    """Every GET, including lists and operation polls: 10 per second.

    v1's stop search (``GET /stops:search``) is here too: the public text names
    no limit of its own for it, and its "all read endpoints, including list
    endpoints" covers it; a tighter limit of the service's is learned from its
    429s (shared with the other reads)."""
    WRITE = "write"
    """POST create, PATCH, DELETE, distribute, redistribute, save, live calls: 5 per second."""
    BATCH_IMPORT = "batch_import"
    """Batch imports of stops and unassigned stops: 10 per minute and 1,000 stops per minute."""
    OPTIMIZE = "optimize"
    """Plan optimize and re-optimize: 3 per minute."""
    DRIVER_CREATE = "driver_create"
    """Driver create (POST /drivers): 1 per second (public API documentation; the contract has no drivers)."""
    DRIVER_IMPORT = "driver_import"
    """Driver batch import (POST /drivers:import): 2 per minute (public API documentation)."""
    DEPOT_IMPORT = "depot_import"
    """v1's depot batch import (POST /depots:import). The public text names no
    limit for it; chosen: the batch import's request rules (100 per 10 minutes,
    at most 30 per minute), without its per-stop rule. The scheduler only ever
    lowers a limit it learns from 429s, so a generous guess is the one it can
    correct."""
    MEMBER_IMPORT = "member_import"
    """v1's member batch import (POST /members:import). The public text names no
    limit for it; chosen as for :attr:`DEPOT_IMPORT`: 100 per 10 minutes, at most
    30 per minute, corrected from the service's 429s."""


MAX_AMOUNT = 10**12
"""The largest :attr:`Rule.amount`: far beyond any service's limit, and small enough for every
computation with it (a rate, a float) to stay exact."""

MAX_PERIOD = 10.0**9
"""The longest :attr:`Rule.period`, in seconds (some 31 years)."""


def _positive_amount(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigurationError(f"Rule.amount must be an int, got {type(value).__name__} {value!r}")
    if value < 1:
        raise ConfigurationError(f"Rule.amount must be at least 1, got {value}")
    if value > MAX_AMOUNT:
        raise ConfigurationError(f"Rule.amount must be at most {MAX_AMOUNT:.0e}, got {_shown(value)}")


def _shown(value: int) -> str:
    """An int as a message shows it: whole when short, else its number of digits."""
    return str(value) if value < 10**30 else f"a number of {len(str(value))} digits"


def _seconds(value: Any) -> Any:
    """An int or float as a float (an int too large for one as infinity); anything else is
    left for the validator to name."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            return math.inf
    return value


def _positive_period(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not isinstance(value, float):
        raise ConfigurationError(f"Rule.period must be a number of seconds, got {type(value).__name__}")
    if not (value > 0 and math.isfinite(value)):
        raise ConfigurationError(f"Rule.period must be a positive number of seconds, got {value}")
    if value > MAX_PERIOD:
        raise ConfigurationError(f"Rule.period must be at most {MAX_PERIOD:.0e} seconds, got {value:g}")


def _per(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in ("request", "weight"):
        raise ConfigurationError(f"Rule.per must be 'request' or 'weight', got {value!r}")


@fields_documented
@attrs.frozen
class Rule:
    """At most ``amount`` in any sliding window of ``period`` seconds.

    Keyword Args:
        amount (int): How much may pass in one window: requests, or units of weight.
        period (float): Length of the sliding window, in seconds.
        per (Literal['request', 'weight']): ``request`` counts each request as 1; ``weight`` counts its
            weight (stops in a batch).
    """

    amount: int = attrs.field(
        validator=_positive_amount,
        metadata=described("How much may pass in one window: requests, or units of weight."),
    )
    period: float = attrs.field(
        converter=_seconds,
        validator=_positive_period,
        metadata=described("Length of the sliding window, in seconds."),
    )
    per: Literal["request", "weight"] = attrs.field(
        default="request",
        validator=_per,
        metadata=described(
            "``request`` counts each request as 1; ``weight`` counts its weight (stops in a batch)."
        ),
    )

    def cost(self, weight: int) -> int:
        """What one request of ``weight`` consumes of this rule.

        Args:
            weight: The request's weight (the stops of a batch; 1 for most requests).

        Returns:
            ``weight`` for a rule ``per="weight"``, else 1.
        """
        return weight if self.per == "weight" else 1

    def scaled(self, speedup: float) -> Rule:
        """The same rule with its period divided by ``speedup``.

        Args:
            speedup: How many times faster time runs (the emulator's speed-up); positive.

        Returns:
            A new :class:`Rule`.

        Raises:
            ConfigurationError: ``speedup`` is not a positive, finite number.
        """
        _check_speedup(speedup)
        return attrs.evolve(self, period=self.period / speedup)


def _check_speedup(speedup: object) -> None:
    if isinstance(speedup, bool) or not isinstance(speedup, int | float):
        raise ConfigurationError(f"speedup must be a number, got {type(speedup).__name__} {speedup!r}")
    if not (speedup > 0 and math.isfinite(speedup)):
        raise ConfigurationError(f"speedup must be a positive, finite number, got {speedup}")


def _strict_windows(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if not isinstance(value, bool):
        raise ConfigurationError(
            f"RateLimits.strict_windows must be True or False, got {type(value).__name__} {value!r}"
        )


def _category(name: Category | str, where: str) -> Category:
    """The :class:`Category` ``name`` names (itself, or its value).

    Raises:
        ConfigurationError: It names none; the message says ``where`` and lists them.
    """
    try:
        return Category(name)
    except ValueError:
        known = ", ".join(c.value for c in Category)
        raise ConfigurationError(f"{where}: {name!r} is not a valid Category ({known})") from None


def _freeze_rules(
    value: Mapping[Category, Iterable[Rule]] | Mapping[str, Iterable[Rule]],
) -> Mapping[Category, tuple[Rule, ...]]:
    if not isinstance(value, Mapping):
        raise ConfigurationError(f"RateLimits.rules must be a mapping, got {type(value).__name__}")
    frozen: dict[Category, tuple[Rule, ...]] = {}
    for name, rules in value.items():
        category = _category(name, "RateLimits.rules")
        if isinstance(rules, Rule) or not isinstance(rules, Iterable):
            raise ConfigurationError(f"RateLimits.rules[{category.value!r}] must be a list of Rule")
        frozen[category] = tuple(rules)
        for rule in frozen[category]:
            if not isinstance(rule, Rule):
                raise ConfigurationError(
                    f"RateLimits.rules[{category.value!r}] must hold Rule objects, got {type(rule).__name__}"
                )
    return frozen


_BEYOND_CONTRACT_RULES: dict[Category, list[Rule]] = {
    # Public API documentation: driver create 1 request/s, driver import 2 requests/min.
    Category.DRIVER_CREATE: [Rule(1, 1.0)],
    Category.DRIVER_IMPORT: [Rule(2, 60.0)],
    # v1's depot and member imports: no public text names their limits; chosen
    # (see the categories): the batch import's request rules.
    Category.DEPOT_IMPORT: [Rule(100, 600.0), Rule(30, 60.0)],
    Category.MEMBER_IMPORT: [Rule(100, 600.0), Rule(30, 60.0)],
}


@fields_documented
@attrs.frozen
class RateLimits:
    """The rules of every category. A category with no rules is not limited.

    The defaults are the contract's; since "limits may change at any moment" and
    teams can ask for higher ones, any values can be given::

        RateLimits({"read": [Rule(20, 1.0)], "write": [Rule(10, 1.0)]})

    Keyword Args:
        rules (Mapping[Category, tuple[Rule, ...]]): The rules of each category; all of a category's
            rules must admit a request.
        strict_windows (bool): Count each slot until one period after its *answer* (True): provably
            never more than the amount in any of the service's windows, whatever the latency, at the
            cost of one round trip per period. False (the default) counts it from its *send* plus the
            spread of recent round trips, which keeps the windows as long as the one-way delays vary
            less than the round trips do, and lets a category use its whole limit over a slow link; the
            429 learning covers the rest. The scheduler's docstring states both guarantees.
    """

    rules: Mapping[Category, tuple[Rule, ...]] = attrs.field(
        converter=_freeze_rules,
        metadata=described("The rules of each category; all of a category's rules must admit a request."),
    )
    strict_windows: bool = attrs.field(
        default=False,
        kw_only=True,
        validator=_strict_windows,
        metadata=described(
            "Count each slot until one period after its *answer* (True): provably never more than the "
            "amount in any of the service's windows, whatever the latency, at the cost of one round "
            "trip per period. False (the default) counts it from its *send* plus the spread of recent "
            "round trips, which keeps the windows as long as the one-way delays vary less than the "
            "round trips do, and lets a category use its whole limit over a slow link; the 429 learning "
            "covers the rest. The scheduler's docstring states both guarantees."
        ),
    )

    @classmethod
    def default(cls, *, strict_windows: bool = False) -> RateLimits:
        """The contract's limits (Limits section of the v0.2b contract).

        The contract has no driver endpoints, so the driver categories take the
        public API documentation's figures (as :meth:`public_docs` does); the
        v1 depot and member imports, which v0.2b does not have, take the rules
        :meth:`public_docs` chose for them.

        Args:
            strict_windows: Count each slot until one period after its answer (see
                :attr:`strict_windows`). Default False.

        Returns:
            The :class:`RateLimits`.
        """
        return cls(
            {
                Category.READ: [Rule(10, 1.0)],
                Category.WRITE: [Rule(5, 1.0)],
                Category.BATCH_IMPORT: [Rule(10, 60.0), Rule(1000, 60.0, per="weight")],
                Category.OPTIMIZE: [Rule(3, 60.0)],
                **_BEYOND_CONTRACT_RULES,
            },
            strict_windows=strict_windows,
        )

    @classmethod
    def public_docs(cls, *, strict_windows: bool = False) -> RateLimits:
        """The newer limits of the public API documentation (v1's default).

        Batch import and optimize each allow 100 requests per 10 minutes with at
        most 30 per minute; batch import also allows 1,000 stops per minute.
        Driver create allows 1 request per second, driver import 2 per minute.

        Not named by the public text, and chosen here (the scheduler learns a
        lower real limit from the service's 429s, and never sends above these):
        v1's depot import and member import take the batch import's request
        rules, 100 per 10 minutes with at most 30 per minute (categories
        ``depot_import`` and ``member_import``); v1's stop search is a read
        (10 per second, with every other read).

        Args:
            strict_windows: As for :meth:`default`.

        Returns:
            The :class:`RateLimits`.
        """
        return cls(
            {
                Category.READ: [Rule(10, 1.0)],
                Category.WRITE: [Rule(5, 1.0)],
                Category.BATCH_IMPORT: [
                    Rule(100, 600.0),
                    Rule(30, 60.0),
                    Rule(1000, 60.0, per="weight"),
                ],
                Category.OPTIMIZE: [Rule(100, 600.0), Rule(30, 60.0)],
                **_BEYOND_CONTRACT_RULES,
            },
            strict_windows=strict_windows,
        )

    @classmethod
    def unlimited(cls, *, strict_windows: bool = False) -> RateLimits:
        """No client-side limits at all (429 answers are still retried).

        Args:
            strict_windows: Kept for symmetry with the other constructors; no rule
                applies. Default False.

        Returns:
            The :class:`RateLimits`.
        """
        return cls({}, strict_windows=strict_windows)

    def scaled(self, speedup: float) -> RateLimits:
        """Every period divided by ``speedup``: for tests and benchmarks on a fast emulator.

        Args:
            speedup: How many times faster time runs; positive.

        Returns:
            A new :class:`RateLimits`.

        Raises:
            ConfigurationError: ``speedup`` is not a positive, finite number.
        """
        _check_speedup(speedup)
        return RateLimits(
            {category: [rule.scaled(speedup) for rule in rules] for category, rules in self.rules.items()},
            strict_windows=self.strict_windows,
        )

    def replace(self, category: Category | str, *rules: Rule) -> RateLimits:
        """A copy with the rules of one category replaced.

        Args:
            category: The :class:`Category` (or its value, e.g. ``"read"``).
            *rules: The category's new rules; none: the category is not limited.

        Returns:
            A new :class:`RateLimits`.

        Raises:
            ConfigurationError: ``category`` names no category, or a rule is not a :class:`Rule`.
        """
        updated = dict(self.rules)
        updated[_category(category, "RateLimits.replace")] = tuple(rules)
        return RateLimits(updated, strict_windows=self.strict_windows)

    def for_category(self, category: Category) -> tuple[Rule, ...]:
        """The rules of a category.

        Args:
            category: The :class:`Category`.

        Returns:
            Its rules; empty when it is not limited.
        """
        return self.rules.get(category, ())

    def max_weight(self, category: Category) -> int | None:
        """The largest weight one request of a category can ever be admitted with.

        Args:
            category: The :class:`Category`.

        Returns:
            The smallest amount of its ``per="weight"`` rules; None when it has none.
        """
        caps = [rule.amount for rule in self.for_category(category) if rule.per == "weight"]
        return min(caps) if caps else None
