"""Every setting is checked when it is given: a bad one is a ``ConfigurationError`` naming it.

Before these checks, ``timeout=0``, ``-1`` and ``NaN`` silently turned the
timeout off (a GET to a silent server hung), ``inf`` raised a raw
``OverflowError`` and ``"10"`` a raw ``TypeError`` at the first request; the
keys ``12345`` and ``b"k"`` went out as ``Bearer 12345`` and ``Bearer b'k'``,
a blank key as ``Bearer``, a key with CR/LF or NUL failed inside aiohttp; an
empty ``base_url`` (an unset configuration variable) quietly meant the
production service. The policies' constructors let strings and infinities
through to a raw ``TypeError``/``ValueError`` or to an endless wait.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import route_planning_async as rp
from route_planning_async._rate_limits._limits import Rule
from route_planning_async.redis import RedisBackend

URL = "https://api.example.test/public/v0.2b"
KEY = "sk-live-0123456789abcdef"


def test_configuration_error_is_exported_in_the_tree() -> None:
    assert issubclass(rp.ConfigurationError, rp.RoutePlanningError)
    assert "ConfigurationError" in rp.__all__


# Timeouts ----------------------------------------------------------------------


@pytest.mark.parametrize("timeout", [0, 0.0, -1, -0.5, math.nan, math.inf, -math.inf])
def test_a_timeout_that_is_not_finite_and_positive_is_refused(timeout: float) -> None:
    with pytest.raises(rp.ConfigurationError, match="timeout must be a finite, positive number"):
        rp.RoutePlanningClient(KEY, base_url=URL, timeout=timeout)


@pytest.mark.parametrize("timeout", ["10", b"10", True, [10]])
def test_a_timeout_that_is_not_a_number_is_refused(timeout: Any) -> None:
    with pytest.raises(rp.ConfigurationError, match="timeout must be a number of seconds"):
        rp.RoutePlanningClient(KEY, base_url=URL, timeout=timeout)


@pytest.mark.parametrize("timeout", [0.001, 5, 60.0, None])
def test_a_finite_positive_timeout_or_an_explicit_none_is_accepted(timeout: float | None) -> None:
    client = rp.RoutePlanningClient(KEY, base_url=URL, timeout=timeout)
    assert client._timeout.total == timeout


# The key -------------------------------------------------------------------------


@pytest.mark.parametrize("key", [12345, b"k", ["k"]])
def test_a_key_that_is_not_a_str_is_refused(key: Any) -> None:
    with pytest.raises(rp.ConfigurationError, match="api_key must be a str"):
        rp.RoutePlanningClient(key, base_url=URL)


@pytest.mark.parametrize("key", ["", " ", "\t", "   \n"])
def test_a_blank_key_is_refused(key: str) -> None:
    with pytest.raises(rp.ConfigurationError, match="api_key must be a non-blank string"):
        rp.RoutePlanningClient(key, base_url=URL)


@pytest.mark.parametrize("key", ["sk\r\nX-Injected: 1", "sk\nlive", "sk\x00live", "sk\tlive", "sk\x7flive"])
def test_a_key_with_control_characters_is_refused_without_echoing_it(key: str) -> None:
    with pytest.raises(rp.ConfigurationError, match="api_key must not contain control characters") as info:
        rp.RoutePlanningClient(key, base_url=URL)
    assert "sk" not in str(info.value)


@pytest.mark.parametrize("control", ["\x85", "\x9b", "\x80", "\x9f"])
def test_a_key_with_c1_control_characters_is_refused_without_echoing_it(control: str) -> None:
    # U+0085 (next line) and U+009B (control sequence introducer) are control
    # characters too: a terminal or log reader may act on them.
    key = f"sk-live-{control}0123456789"
    with pytest.raises(rp.ConfigurationError, match="api_key must not contain control characters") as info:
        rp.RoutePlanningClient(key, base_url=URL)
    assert "sk-live" not in str(info.value)
    assert "0123456789" not in str(info.value)


def test_a_key_with_surrounding_spaces_is_refused() -> None:
    with pytest.raises(rp.ConfigurationError, match="api_key must not start or end with whitespace"):
        rp.RoutePlanningClient(f" {KEY} ", base_url=URL)


@pytest.mark.parametrize(
    ("auth", "header"),
    [("basic", "Basic c2stbGl2ZS0wMTIzNDU2Nzg5YWJjZGVmOg=="), ("bearer", f"Bearer {KEY}")],
)
def test_a_plain_key_is_accepted_with_either_scheme(auth: Any, header: str) -> None:
    client = rp.RoutePlanningClient(KEY, base_url=URL, auth=auth)
    assert client._headers["Authorization"] == header  # base64 of "<key>:" for Basic


def test_an_unknown_auth_scheme_is_refused() -> None:
    with pytest.raises(rp.ConfigurationError, match="auth must be 'basic' or 'bearer'"):
        rp.RoutePlanningClient(KEY, base_url=URL, auth="digest")  # type: ignore[arg-type]


# The base URL ---------------------------------------------------------------------


@pytest.mark.parametrize("base_url", ["", "   "])
def test_an_empty_base_url_is_refused_not_read_as_the_default(base_url: str) -> None:
    with pytest.raises(rp.ConfigurationError, match="base_url is empty"):
        rp.RoutePlanningClient(KEY, base_url=base_url)


def test_an_empty_base_url_variable_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", "")
    with pytest.raises(rp.ConfigurationError, match="ROUTE_PLANNING_BASE_URL is empty"):
        rp.RoutePlanningClient(KEY)


def test_the_base_url_variable_and_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUTE_PLANNING_BASE_URL", raising=False)
    assert rp.RoutePlanningClient(KEY).base_url == rp.DEFAULT_BASE_URL
    monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", "http://127.0.0.1:9/public/v0.2b")
    assert rp.RoutePlanningClient(KEY).base_url == "http://127.0.0.1:9/public/v0.2b"
    monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", "http://api.example.test/public/v0.2b")
    with pytest.raises(rp.ConfigurationError, match="ROUTE_PLANNING_BASE_URL must use https://"):
        rp.RoutePlanningClient(KEY)


@pytest.mark.parametrize(
    ("base_url", "message"),
    [
        ("/public/v0.2b", "must be an absolute https:// URL"),
        ("api.example.test/public/v0.2b", "must be an absolute https:// URL"),
        ("https://", "must be an absolute https:// URL"),
        ("http://api.example.test/public/v0.2b", "must use https://"),
        ("https://user:pw@api.example.test/public/v0.2b", "must not carry credentials"),
        ("https://api.example.test/public/v0.2b?", "must not have a query"),
        ("https://api.example.test/public/v0.2b?key=1", "must not have a query"),
        ("https://api.example.test/public/v0.2b#x", "must not have a query or fragment"),
        ("https://exa mple.test:99999/", "base_url"),
    ],
)
def test_an_unusable_base_url_is_refused(base_url: str, message: str) -> None:
    with pytest.raises(rp.ConfigurationError, match=message):
        rp.RoutePlanningClient(KEY, base_url=base_url)


def test_a_base_url_that_is_not_a_str_is_refused() -> None:
    with pytest.raises(rp.ConfigurationError, match="base_url must be a str"):
        rp.RoutePlanningClient(KEY, base_url=b"https://api.example.test")  # type: ignore[arg-type]


# The other settings of the client ------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "value"),
    [("rate_limits", {"read": []}), ("retry", 3), ("ssl", True), ("session", "s")],
)
def test_a_setting_of_the_wrong_type_is_refused(setting: str, value: Any) -> None:
    with pytest.raises(rp.ConfigurationError, match=f"^{setting} must be a"):
        rp.RoutePlanningClient(KEY, base_url=URL, **{setting: value})


def test_a_transport_without_send_is_refused() -> None:
    with pytest.raises(rp.ConfigurationError, match="transport must have an async send"):
        rp.RoutePlanningClient(KEY, base_url=URL, transport=object())  # type: ignore[arg-type]


# RetryPolicy, Rule, RateLimits, RedisBackend ----------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attempts": "3"}, "RetryPolicy.attempts must be an int"),
        ({"attempts": 2.5}, "RetryPolicy.attempts must be an int"),
        ({"attempts": True}, "RetryPolicy.attempts must be an int"),
        ({"attempts": 0}, "RetryPolicy.attempts must be at least 1"),
        ({"base": "x"}, "RetryPolicy.base must be a number of seconds"),
        ({"base": math.inf}, "RetryPolicy.base must be finite"),
        ({"cap": math.nan}, "RetryPolicy.cap must be >= 0"),
        ({"cap": -1}, "RetryPolicy.cap must be >= 0"),
        ({"max_retry_after": "300"}, "RetryPolicy.max_retry_after must be a number"),
        ({"max_wait": math.nan}, "RetryPolicy.max_wait must be >= 0"),
        ({"max_wait": "1"}, "RetryPolicy.max_wait must be a number"),
        ({"learning": 3}, "RetryPolicy.learning must be a LearningPolicy or None"),
    ],
)
def test_a_bad_retry_policy_is_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(rp.ConfigurationError, match=message):
        rp.RetryPolicy(**kwargs)


def test_a_retry_policy_takes_ints_and_unbounded_waits() -> None:
    policy = rp.RetryPolicy(attempts=2, base=1, cap=4, max_retry_after=math.inf, max_wait=math.inf)
    assert (policy.base, policy.cap) == (1.0, 4.0)
    assert isinstance(policy.base, float)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (("3", 1.0), {}, "Rule.amount must be an int"),
        ((2.5, 1.0), {}, "Rule.amount must be an int"),
        ((True, 1.0), {}, "Rule.amount must be an int"),
        ((1, "x"), {}, "Rule.period must be a number of seconds"),
        ((1, math.inf), {}, "Rule.period must be a positive number"),
        ((1, 0), {}, "Rule.period must be a positive number"),
        ((1, 1.0), {"per": "stops"}, "Rule.per must be 'request' or 'weight'"),
    ],
)
def test_a_bad_rule_is_refused(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(rp.ConfigurationError, match=message):
        Rule(*args, **kwargs)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"bogus": [Rule(1, 1.0)]}, "'bogus' is not a valid Category"),
        ({"read": Rule(1, 1.0)}, r"RateLimits.rules\['read'\] must be a list of Rule"),
        ({"read": [3]}, r"RateLimits.rules\['read'\] must hold Rule objects"),
        ([Rule(1, 1.0)], "RateLimits.rules must be a mapping"),
    ],
)
def test_bad_rate_limits_are_refused(rules: Any, message: str) -> None:
    with pytest.raises(rp.ConfigurationError, match=message):
        rp.RateLimits(rules)


@pytest.mark.parametrize(
    ("url", "kwargs", "message"),
    [
        ("redis://localhost", {"key_prefix": " "}, "key_prefix must be a non-blank string"),
        ("redis://localhost", {"key_prefix": "t", "timeout": 0}, "timeout must be a finite, positive"),
        ("redis://localhost", {"key_prefix": "t", "timeout": math.inf}, "timeout must be a finite, positive"),
        ("redis://localhost", {"key_prefix": "t", "timeout": "2"}, "timeout must be a number of seconds"),
        ("redis://localhost", {"key_prefix": "t", "lease": math.nan}, "lease must be a finite, positive"),
        ("http://localhost", {"key_prefix": "t"}, "url is not usable"),
        ("redis://:secret@localhost:port/0", {"key_prefix": "t"}, "url is not usable"),
        ("", {"key_prefix": "t"}, "url is empty"),
        (6379, {"key_prefix": "t"}, "url must be a redis:// URL"),
    ],
)
def test_a_bad_redis_backend_setting_is_refused(url: Any, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(rp.ConfigurationError, match=message) as info:
        RedisBackend(url, **kwargs)
    assert "secret" not in str(info.value)
