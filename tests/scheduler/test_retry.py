"""RetryPolicy as data: which outcomes are retried, after how long (no event loop needed)."""

from __future__ import annotations

import email.utils
import random

import pytest

from route_planning_async._core import Request, Response
from route_planning_async._errors import ConfigurationError, RequestTimeoutError, TransportError
from route_planning_async._learning import LearningPolicy
from route_planning_async._rate_limits._limits import Category
from route_planning_async._scheduler._retry import RetryPolicy

GET = Request("GET", "/plans/p1", Category.READ)
DELETE = Request("DELETE", "/plans/p1", Category.WRITE)
POST = Request("POST", "/plans", Category.WRITE, body=b"{}")
PATCH = Request("PATCH", "/plans/p1", Category.WRITE, body=b"{}")


def answer(status: int, **headers: str) -> Response:
    return Response(status, {key.replace("_", "-"): value for key, value in headers.items()}, b"")


def transport_error(*, maybe_sent: bool) -> TransportError:
    return TransportError("connection reset", method="GET", request_url="/plans", maybe_sent=maybe_sent)


def test_defaults_are_sensible() -> None:
    policy = RetryPolicy()
    assert policy.attempts == 6
    assert [policy.ceiling(n) for n in range(1, 10)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]
    assert policy.ceiling(5000) == 30.0
    assert policy.learning == LearningPolicy()
    assert policy.max_wait is None


@pytest.mark.parametrize(
    ("request_", "retried"),
    [(GET, True), (DELETE, True), (POST, False), (PATCH, False)],
)
@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_is_retried_only_for_get_and_delete(request_: Request, retried: bool, status: int) -> None:
    decision = RetryPolicy().decide(request_, answer(status), 1)
    assert decision.retry is retried
    assert decision.reason == "server_error"
    assert not decision.rate_limited


@pytest.mark.parametrize("request_", [GET, DELETE, POST, PATCH])
def test_429_is_retried_for_every_method(request_: Request) -> None:
    decision = RetryPolicy().decide(request_, answer(429), 1)
    assert decision.retry
    assert decision.rate_limited


@pytest.mark.parametrize(
    ("request_", "maybe_sent", "retried"),
    [
        (GET, True, True),
        (DELETE, True, True),
        (POST, True, False),
        (PATCH, True, False),
        (POST, False, True),
        (PATCH, False, True),
        (GET, False, True),
    ],
)
def test_transport_errors(request_: Request, maybe_sent: bool, retried: bool) -> None:
    decision = RetryPolicy().decide(request_, transport_error(maybe_sent=maybe_sent), 1)
    assert decision.retry is retried
    assert decision.reason == "transport_error"


def test_timeouts_count_as_maybe_sent() -> None:
    timeout = RequestTimeoutError("timed out", method="POST", request_url="/plans", maybe_sent=True)
    assert not RetryPolicy().decide(POST, timeout, 1).retry
    assert RetryPolicy().decide(GET, timeout, 1).retry


@pytest.mark.parametrize("status", [200, 204, 400, 401, 403, 404, 409, 410, 422])
def test_other_answers_are_final(status: int) -> None:
    decision = RetryPolicy().decide(GET, answer(status), 1)
    assert not decision.retry
    assert decision.reason == "final"


def test_attempts_run_out() -> None:
    policy = RetryPolicy(attempts=3)
    assert policy.decide(GET, answer(500), 2).retry
    assert not policy.decide(GET, answer(500), 3).retry
    assert not policy.decide(GET, transport_error(maybe_sent=False), 3).retry
    assert not RetryPolicy.disabled().decide(GET, answer(429), 1).retry


def test_a_429_is_retried_however_many_came_before_until_max_wait() -> None:
    # The service refused the request, so repeating it is safe, and no fixed count of
    # 429s makes it fail: only the caller's patience (max_wait, or cancelling) does.
    policy = RetryPolicy(attempts=3)
    assert policy.decide(GET, answer(429), 50, waited=3600.0).retry
    bounded = RetryPolicy(max_wait=10.0)
    assert bounded.decide(GET, answer(429, Retry_After="2"), 9, waited=8.0).retry
    assert not bounded.decide(GET, answer(429, Retry_After="2"), 9, waited=8.5).retry
    # A Retry-After beyond max_retry_after is still raised at once.
    assert not policy.decide(GET, answer(429, Retry_After="301"), 1).retry


def test_retry_after_in_seconds_is_honoured() -> None:
    decision = RetryPolicy().decide(POST, answer(429, Retry_After="7"), 1)
    assert decision.retry
    assert decision.delay == 7.0
    assert decision.retry_after == 7.0


def test_retry_after_as_http_date_is_honoured() -> None:
    now = 1_800_000_000.0
    date = email.utils.formatdate(now + 42, usegmt=True)
    decision = RetryPolicy().decide(GET, answer(429, Retry_After=date), 1, wall_time=now)
    assert decision.delay == 42.0
    past = email.utils.formatdate(now - 10, usegmt=True)
    assert RetryPolicy().decide(GET, answer(429, Retry_After=past), 1, wall_time=now).delay == 0.0


def test_unreadable_retry_after_falls_back_to_backoff() -> None:
    policy = RetryPolicy(rng=random.Random(3))
    decision = policy.decide(GET, answer(429, Retry_After="soon"), 1)
    assert decision.retry
    assert decision.retry_after is None
    assert 0 <= decision.delay <= 0.5


def test_too_long_retry_after_is_not_waited_out() -> None:
    decision = RetryPolicy(max_retry_after=60).decide(GET, answer(429, Retry_After="3600"), 1)
    assert not decision.retry
    assert decision.retry_after == 3600.0


def test_full_jitter_stays_within_its_bounds_and_spreads() -> None:
    policy = RetryPolicy(base=1.0, cap=8.0, rng=random.Random(1234))
    for retry in range(1, 7):
        ceiling = min(8.0, 2.0 ** (retry - 1))
        delays = [policy.backoff(retry) for _ in range(500)]
        assert all(0.0 <= delay <= ceiling for delay in delays)
        # Full jitter uses the whole range, not just its top.
        assert min(delays) < 0.1 * ceiling
        assert max(delays) > 0.9 * ceiling


def test_seeded_jitter_is_reproducible() -> None:
    first = RetryPolicy(rng=random.Random(99))
    second = RetryPolicy(rng=random.Random(99))
    assert [first.backoff(n) for n in range(1, 8)] == [second.backoff(n) for n in range(1, 8)]
    decision = RetryPolicy(rng=random.Random(99)).decide(GET, answer(503), 1)
    assert decision.delay == random.Random(99).uniform(0, 0.5)


def test_jitter_callable_replaces_the_rng() -> None:
    policy = RetryPolicy(base=2.0, cap=5.0, jitter=lambda ceiling: ceiling)
    assert [policy.backoff(n) for n in (1, 2, 3)] == [2.0, 4.0, 5.0]
    # A jitter callable cannot push a wait outside [0, ceiling].
    assert RetryPolicy(jitter=lambda ceiling: ceiling * 10).backoff(1) == 0.5
    assert RetryPolicy(jitter=lambda ceiling: -1.0).backoff(1) == 0.0


def test_testing_switch_never_waits() -> None:
    policy = RetryPolicy.testing(attempts=4)
    assert policy.attempts == 4
    assert policy.decide(GET, answer(429, Retry_After="30"), 1).delay == 0.0
    assert policy.decide(GET, answer(500), 3).delay == 0.0
    assert policy.learning is None
    assert RetryPolicy(base=0).backoff(7) == 0.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attempts": 0}, "attempts must be at least 1"),
        ({"base": -1}, "base must be >= 0"),
        ({"max_wait": -1.0}, "max_wait must be >= 0"),
        ({"honour_retry_after": "false"}, "honour_retry_after must be True or False, got str 'false'"),
        ({"honour_retry_after": 0}, "honour_retry_after must be True or False, got int 0"),
        ({"rng": 42}, "rng must be a random.Random, got int"),
        ({"jitter": 0.5}, r"jitter must be a callable \(ceiling -> delay\) or None, got float"),
    ],
)
def test_unusable_values_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=f"RetryPolicy.{message}"):
        RetryPolicy(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"decrease": 0.0},
        {"decrease": 1.0},
        {"ceiling": 1.5},
        {"burst": 0},
        {"burst": 2.5},
        {"span": float("inf")},
        {"memory": float("nan")},
        {"ceiling": "0.3"},
        {"span": True},
        {"decrease": None},
    ],
)
def test_unusable_learning_values_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigurationError, match=f"LearningPolicy.{next(iter(kwargs))} must be"):
        LearningPolicy(**kwargs)  # type: ignore[arg-type]


def test_learning_numbers_may_be_ints() -> None:
    policy = LearningPolicy(span=5, memory=30)
    assert (policy.span, policy.memory) == (5.0, 30.0)


def test_attempts_that_may_have_been_applied() -> None:
    policy = RetryPolicy()
    assert policy.may_have_applied(answer(500))
    assert policy.may_have_applied(answer(503))
    assert policy.may_have_applied(transport_error(maybe_sent=True))
    assert policy.may_have_applied(
        RequestTimeoutError("slow", method="GET", request_url="/plans", maybe_sent=True)
    )
    # Refused or never sent: the service cannot have applied it.
    assert not policy.may_have_applied(answer(429, retry_after="1"))
    assert not policy.may_have_applied(answer(404))
    assert not policy.may_have_applied(answer(400))
    assert not policy.may_have_applied(transport_error(maybe_sent=False))


def test_a_404_to_a_retried_delete_after_an_applied_attempt_means_done() -> None:
    """Contract, Plans rule 3: the first attempt deleted it."""
    policy = RetryPolicy()
    assert policy.already_done(DELETE, answer(404), after_applied=True)
    # The first attempt, or after attempts the service refused: a real "not found".
    assert not policy.already_done(DELETE, answer(404), after_applied=False)
    # Only a DELETE, only a 404.
    for request_ in (GET, POST, PATCH):
        assert not policy.already_done(request_, answer(404), after_applied=True)
    for status in (200, 204, 400, 409, 410, 429, 500):
        assert not policy.already_done(DELETE, answer(status), after_applied=True)
    assert not policy.already_done(DELETE, transport_error(maybe_sent=True), after_applied=True)


@pytest.mark.parametrize("request_", [GET, DELETE, POST, PATCH])
def test_a_transport_error_that_retrying_cannot_help_is_never_retried(request_: Request) -> None:
    # A TLS certificate that could not be verified stays so: not even a GET, never sent, is tried again.
    error = TransportError(
        "certificate", method=request_.method, request_url="/plans", maybe_sent=False, retryable=False
    )
    decision = RetryPolicy(attempts=6).decide(request_, error, 1)
    assert (decision.retry, decision.reason) == (False, "transport_error")
