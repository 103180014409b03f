"""Categories, rules and RateLimits as data (``_limits.py``): no event loop, no scheduler."""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
import pytest

from route_planning_async._errors import ConfigurationError
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule


def test_categories_are_the_contracts_four_the_two_driver_ones_and_v1s_imports() -> None:
    assert [category.value for category in Category] == [
        "read",
        "write",
        "batch_import",
        "optimize",
        "driver_create",
        "driver_import",
        "depot_import",
        "member_import",
    ]
    assert Category("batch_import") is Category.BATCH_IMPORT
    assert str(Category.OPTIMIZE) == "optimize"


@pytest.mark.parametrize("preset", [RateLimits.default, RateLimits.public_docs])
def test_both_presets_carry_the_public_docs_driver_limits(preset: Callable[[], RateLimits]) -> None:
    # Public API documentation: driver create 1 request/s, driver import 2 requests/min.
    limits = preset()
    assert limits.for_category(Category.DRIVER_CREATE) == (Rule(1, 1.0),)
    assert limits.for_category(Category.DRIVER_IMPORT) == (Rule(2, 60.0),)


def test_a_rule_counts_requests_by_default() -> None:
    rule = Rule(10, 1)
    assert rule == Rule(10, 1.0, per="request")
    assert isinstance(rule.period, float)
    assert rule.cost(1) == rule.cost(500) == 1


def test_a_weight_rule_counts_the_weight() -> None:
    rule = Rule(1000, 60.0, per="weight")
    assert rule.cost(1) == 1
    assert rule.cost(100) == 100


@pytest.mark.parametrize(
    ("amount", "period", "message"),
    [
        (0, 1.0, "Rule.amount must be at least 1, got 0"),
        (-5, 1.0, "Rule.amount must be at least 1, got -5"),
        (1, 0.0, "Rule.period must be a positive number of seconds, got 0.0"),
        (1, -1.0, "Rule.period must be a positive number of seconds, got -1.0"),
        (1, float("nan"), "Rule.period must be a positive number of seconds, got nan"),
    ],
)
def test_unusable_rules_are_refused(amount: int, period: float, message: str) -> None:
    with pytest.raises(ConfigurationError) as raised:
        Rule(amount, period)
    assert str(raised.value) == message


def test_rules_are_frozen() -> None:
    rule = Rule(5, 1.0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        rule.amount = 6  # type: ignore[misc]
    assert hash(rule) == hash(Rule(5, 1.0))


def test_a_scaled_rule_divides_its_period_only() -> None:
    assert Rule(1000, 60.0, per="weight").scaled(4) == Rule(1000, 15.0, per="weight")


def test_the_default_limits_are_the_contracts() -> None:
    limits = RateLimits.default()
    assert limits.for_category(Category.READ) == (Rule(10, 1.0),)
    assert limits.for_category(Category.WRITE) == (Rule(5, 1.0),)
    assert limits.for_category(Category.BATCH_IMPORT) == (Rule(10, 60.0), Rule(1000, 60.0, per="weight"))
    assert limits.for_category(Category.OPTIMIZE) == (Rule(3, 60.0),)
    assert set(limits.rules) == set(Category)
    assert limits == RateLimits.default()


def test_the_public_docs_limits() -> None:
    limits = RateLimits.public_docs()
    assert limits.for_category(Category.READ) == (Rule(10, 1.0),)
    assert limits.for_category(Category.WRITE) == (Rule(5, 1.0),)
    assert limits.for_category(Category.BATCH_IMPORT) == (
        Rule(100, 600.0),
        Rule(30, 60.0),
        Rule(1000, 60.0, per="weight"),
    )
    assert limits.for_category(Category.OPTIMIZE) == (Rule(100, 600.0), Rule(30, 60.0))


def test_unlimited_has_no_rules() -> None:
    limits = RateLimits.unlimited()
    assert dict(limits.rules) == {}
    assert all(limits.for_category(category) == () for category in Category)
    assert all(limits.max_weight(category) is None for category in Category)


def test_rules_are_keyed_by_category_and_frozen_into_tuples() -> None:
    limits = RateLimits({"read": [Rule(20, 1.0)], "write": iter([Rule(10, 1.0), Rule(50, 60.0)])})
    assert dict(limits.rules) == {
        Category.READ: (Rule(20, 1.0),),
        Category.WRITE: (Rule(10, 1.0), Rule(50, 60.0)),
    }
    assert limits.for_category(Category.OPTIMIZE) == ()
    with pytest.raises(ValueError, match="'reads' is not a valid Category"):
        RateLimits({"reads": [Rule(1, 1.0)]})


def test_scaled_divides_every_period() -> None:
    scaled = RateLimits.default().scaled(60)
    assert scaled.for_category(Category.READ) == (Rule(10, 1.0 / 60),)
    assert scaled.for_category(Category.BATCH_IMPORT) == (Rule(10, 1.0), Rule(1000, 1.0, per="weight"))
    assert scaled.for_category(Category.OPTIMIZE) == (Rule(3, 1.0),)
    # Nothing else changes, and the original is left alone.
    assert RateLimits.default().for_category(Category.OPTIMIZE) == (Rule(3, 60.0),)
    assert RateLimits.unlimited().scaled(10) == RateLimits.unlimited()


@pytest.mark.parametrize(
    ("speedup", "message"),
    [
        (0, "speedup must be a positive, finite number, got 0"),
        (-2.0, "speedup must be a positive, finite number, got -2.0"),
        (float("nan"), "speedup must be a positive, finite number, got nan"),
        (float("inf"), "speedup must be a positive, finite number, got inf"),
        ("60", "speedup must be a number, got str '60'"),
        (True, "speedup must be a number, got bool True"),
    ],
)
def test_scaled_refuses_a_speedup_that_is_not_a_positive_number(speedup: object, message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        RateLimits.default().scaled(speedup)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        Rule(5, 1.0).scaled(speedup)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["false", 0, None])
def test_strict_windows_must_be_a_bool(value: object) -> None:
    with pytest.raises(ConfigurationError, match=r"RateLimits\.strict_windows must be True or False"):
        RateLimits({}, strict_windows=value)  # type: ignore[arg-type]


def test_replace_changes_one_category_only() -> None:
    default = RateLimits.default()
    faster = default.replace("read", Rule(20, 1.0), Rule(600, 60.0))
    assert faster.for_category(Category.READ) == (Rule(20, 1.0), Rule(600, 60.0))
    for category in (Category.WRITE, Category.BATCH_IMPORT, Category.OPTIMIZE):
        assert faster.for_category(category) == default.for_category(category)
    assert default.for_category(Category.READ) == (Rule(10, 1.0),)
    # No rules: that category is not limited.
    unlimited_writes = default.replace(Category.WRITE)
    assert unlimited_writes.for_category(Category.WRITE) == ()
    # The library's own error (a ValueError too), naming the method and the categories.
    refused = r"^RateLimits.replace: 'writes' is not a valid Category \(read, "
    with pytest.raises(ConfigurationError, match=refused):
        default.replace("writes", Rule(1, 1.0))


def test_max_weight_is_the_tightest_weight_rule() -> None:
    limits = RateLimits.default()
    assert limits.max_weight(Category.BATCH_IMPORT) == 1000
    # Request rules put no cap on the weight.
    assert limits.max_weight(Category.READ) is None
    assert limits.max_weight(Category.OPTIMIZE) is None
    two_caps = limits.replace(
        Category.BATCH_IMPORT, Rule(10, 60.0), Rule(1000, 60.0, per="weight"), Rule(250, 1.0, per="weight")
    )
    assert two_caps.max_weight(Category.BATCH_IMPORT) == 250
