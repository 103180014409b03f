"""The scheduler carrying out retries: per-method rules, history, 429 pauses, cuts and their sharing.

How a category learns the service's real limit is tested in ``test_learning.py``.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence

import pytest
from support.virtual_time import run_virtual, virtual_loop

from route_planning_async._core import Request, Response, decode
from route_planning_async._errors import (
    NotFoundError,
    RateLimitError,
    ServerError,
    TransportError,
)
from route_planning_async._rate_limits._backends import InMemoryBackend
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule
from route_planning_async._scheduler import Scheduler
from route_planning_async._scheduler._retry import RetryPolicy

OK = Response(200, {}, b"{}")
GET = Request("GET", "/plans/p1", Category.READ)
DELETE = Request("DELETE", "/plans/p1", Category.WRITE)
POST = Request("POST", "/plans", Category.WRITE, body=b"{}")
PATCH = Request("PATCH", "/plans/p1", Category.WRITE, body=b"{}")

Outcome = Response | TransportError


def status(code: int, retry_after: str | None = None) -> Response:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Response(code, headers, b'{"message": "nope", "code": "x"}')


def connection_error(*, maybe_sent: bool) -> TransportError:
    return TransportError("connection refused", method="GET", request_url="/x", maybe_sent=maybe_sent)


class Script:
    """A fake transport answering from a script; records when each attempt was sent."""

    def __init__(self, outcomes: Sequence[Outcome], then: Outcome = OK) -> None:
        self.outcomes = list(outcomes)
        self.then = then
        self.sent_at: list[float] = []

    async def send(self, request: Request) -> Response:
        self.sent_at.append(asyncio.get_running_loop().time())
        outcome = self.outcomes.pop(0) if self.outcomes else self.then
        if isinstance(outcome, TransportError):
            raise outcome
        return outcome


def run_script(
    request: Request,
    outcomes: Sequence[Outcome],
    policy: RetryPolicy | None = None,
    limits: RateLimits | None = None,
) -> tuple[Response | BaseException, Script, Scheduler]:
    script = Script(outcomes)
    scheduler = Scheduler(
        limits if limits is not None else RateLimits.unlimited(),
        policy if policy is not None else RetryPolicy(rng=random.Random(5)),
    )

    async def main() -> Response | BaseException:
        try:
            return await scheduler.run(request, script.send)
        except Exception as exc:
            return exc

    return run_virtual(main), script, scheduler


# --- per-method rules -------------------------------------------------------------------------


@pytest.mark.parametrize("request_", [GET, DELETE])
def test_get_and_delete_are_retried_after_5xx(request_: Request) -> None:
    result, script, scheduler = run_script(request_, [status(500), status(503)])
    assert result == OK
    assert len(script.sent_at) == 3
    assert scheduler.stats[request_.category].retries == 2
    assert scheduler.stats[request_.category].sent == 3
    assert scheduler.stats[request_.category].requests == 1


@pytest.mark.parametrize("request_", [GET, DELETE])
def test_get_and_delete_are_retried_after_connection_errors(request_: Request) -> None:
    result, script, _ = run_script(request_, [connection_error(maybe_sent=True)])
    assert result == OK
    assert len(script.sent_at) == 2


@pytest.mark.parametrize("request_", [POST, PATCH])
def test_post_and_patch_are_not_retried_after_5xx(request_: Request) -> None:
    result, script, scheduler = run_script(request_, [status(500)])
    assert isinstance(result, Response)
    assert result.status == 500
    assert len(script.sent_at) == 1
    assert scheduler.stats[Category.WRITE].retries == 0
    with pytest.raises(ServerError):
        decode(request_, result)


@pytest.mark.parametrize("request_", [POST, PATCH])
def test_post_and_patch_are_not_retried_after_an_ambiguous_transport_error(request_: Request) -> None:
    error = connection_error(maybe_sent=True)
    result, script, _ = run_script(request_, [error])
    assert result is error
    assert len(script.sent_at) == 1


@pytest.mark.parametrize("request_", [POST, PATCH, GET])
def test_connection_never_made_is_retried_for_any_method(request_: Request) -> None:
    result, script, _ = run_script(request_, [connection_error(maybe_sent=False)] * 2)
    assert result == OK
    assert len(script.sent_at) == 3


def test_connection_never_made_gives_its_slot_back() -> None:
    """Nothing reached the service, so a retry needs no new window."""
    limits = RateLimits.unlimited().replace(Category.WRITE, Rule(1, 60.0))
    policy = RetryPolicy.testing()
    result, script, _ = run_script(POST, [connection_error(maybe_sent=False)], policy, limits)
    assert result == OK
    assert script.sent_at == [0.0, 0.0]


def test_delete_404_after_a_failed_attempt_means_done() -> None:
    result, script, _ = run_script(DELETE, [status(500), status(404)])
    assert isinstance(result, Response)
    assert (result.status, result.body) == (204, b"")
    assert decode(DELETE, result) is None
    assert len(script.sent_at) == 2


def test_delete_404_after_a_lost_connection_means_done() -> None:
    result, _, _ = run_script(DELETE, [connection_error(maybe_sent=True), status(404)])
    assert isinstance(result, Response)
    assert result.status == 204


def test_delete_404_on_the_first_attempt_is_not_found() -> None:
    result, _, _ = run_script(DELETE, [status(404)])
    assert isinstance(result, Response)
    assert result.status == 404
    with pytest.raises(NotFoundError):
        decode(DELETE, result)


def test_delete_404_after_only_429s_is_not_found() -> None:
    """A 429 was refused, not applied: the later 404 is a real one."""
    result, _, _ = run_script(DELETE, [status(429, "1"), status(404)])
    assert isinstance(result, NotFoundError)
    assert [record.status for record in result.history] == [429]


def test_get_404_after_a_5xx_is_raised_with_history() -> None:
    result, _, _ = run_script(GET, [status(502), status(404)])
    assert isinstance(result, NotFoundError)
    assert [record.status for record in result.history] == [502]


# --- exhaustion and history ----------------------------------------------------------------------


def test_exhausted_5xx_raises_the_last_error_with_history() -> None:
    policy = RetryPolicy(attempts=4, base=0.5, cap=30, rng=random.Random(11))
    result, script, _ = run_script(GET, [status(500), status(502), status(503), status(504)], policy)
    assert isinstance(result, ServerError)
    assert result.status == 504
    assert [record.status for record in result.history] == [500, 502, 503]
    assert "after 4 attempts" in str(result)
    assert len(script.sent_at) == 4
    # Each record's delay is the full-jitter wait that was actually slept.
    expected = random.Random(11)
    delays = [expected.uniform(0, min(30, 0.5 * 2**n)) for n in range(3)]
    assert [record.delay for record in result.history] == pytest.approx(delays)
    gaps = [b - a for a, b in zip(script.sent_at, script.sent_at[1:], strict=False)]
    assert gaps == pytest.approx(delays)


def test_a_429_never_runs_out_of_attempts() -> None:
    """Twenty 429s in a row, more than any attempt count: the request still succeeds."""
    result, script, scheduler = run_script(POST, [status(429, "1")] * 20, RetryPolicy(attempts=2))
    assert result == OK
    assert script.sent_at == [float(n) for n in range(21)]
    assert scheduler.stats[Category.WRITE].rate_limited == 20


def test_429s_beyond_max_wait_raise_rate_limit_error_with_history() -> None:
    # Retried at 2 and 4; a third wait of 2 s would end at 6, past the 5 s allowed.
    result, script, _ = run_script(POST, [status(429, "2")] * 3, RetryPolicy(max_wait=5.0))
    assert isinstance(result, RateLimitError)
    assert result.retry_after == 2.0
    assert [record.status for record in result.history] == [429, 429]
    assert [record.delay for record in result.history] == [2.0, 2.0]
    assert script.sent_at == [0.0, 2.0, 4.0]


def test_a_refused_request_goes_back_to_the_head_of_its_line() -> None:
    """Queued behind nobody new: the refused request is retried before those that came later."""
    limits = RateLimits.unlimited().replace(Category.READ, Rule(1, 1.0))
    order: list[str] = []

    async def main() -> None:
        scheduler = Scheduler(limits, RetryPolicy(learning=None))
        answers = [status(429, "0.5")]

        def sender(tag: str) -> Callable[[Request], Awaitable[Response]]:
            async def send(request: Request) -> Response:
                order.append(tag)
                return answers.pop() if answers and tag == "first" else OK

            return send

        first = asyncio.create_task(scheduler.run(GET, sender("first")))
        await asyncio.sleep(0)
        later = [asyncio.create_task(scheduler.run(GET, sender(f"later{n}"))) for n in range(2)]
        await asyncio.gather(first, *later)

    run_virtual(main)
    assert order == ["first", "first", "later0", "later1"]


def test_exhausted_transport_errors_raise_with_history() -> None:
    errors = [connection_error(maybe_sent=True) for _ in range(3)]
    result, _, _ = run_script(GET, errors, RetryPolicy.testing(attempts=3))
    assert result is errors[-1]
    history = result.history  # type: ignore[union-attr]
    assert [record.status for record in history] == [None, None]
    assert "connection refused" in history[0].description
    assert any("after 3 attempts" in note for note in result.__notes__)  # type: ignore[union-attr]


def test_5xx_on_post_after_429s_is_raised_with_history() -> None:
    result, script, _ = run_script(POST, [status(429, "0"), status(500)])
    assert isinstance(result, ServerError)
    assert [record.status for record in result.history] == [429]
    assert len(script.sent_at) == 2


# --- 429: Retry-After, pause, slowdown, recovery -----------------------------------------------


def test_retry_after_seconds_delays_the_retry() -> None:
    result, script, scheduler = run_script(GET, [status(429, "3")])
    assert result == OK
    assert script.sent_at == [0.0, 3.0]
    assert scheduler.stats[Category.READ].rate_limited == 1


def test_retry_after_http_date_delays_the_retry() -> None:
    date = email.utils.formatdate(time.time() + 30, usegmt=True)
    result, script, _ = run_script(GET, [status(429, date)])
    assert result == OK
    # The date has one-second resolution and the wall clock moved a little.
    assert 28.0 <= script.sent_at[1] <= 30.0


def test_429_without_retry_after_backs_off_with_full_jitter() -> None:
    policy = RetryPolicy(base=1.0, cap=4.0, rng=random.Random(21), learning=None)
    result, script, _ = run_script(GET, [status(429)] * 4, policy)
    assert result == OK
    expected = random.Random(21)
    delays = [expected.uniform(0, min(4.0, 2.0**n)) for n in range(4)]
    gaps = [b - a for a, b in zip(script.sent_at, script.sent_at[1:], strict=False)]
    assert gaps == pytest.approx(delays)
    assert all(0 <= gap <= 4.0 for gap in gaps)


def test_429_pauses_the_whole_category() -> None:
    """Other requests of the category wait out the pause; other categories do not."""
    script = Script([status(429, "5")])
    others: list[tuple[str, float]] = []

    async def main() -> None:
        scheduler = Scheduler(RateLimits.default(), RetryPolicy(learning=None))

        async def other(request: Request, tag: str) -> None:
            await asyncio.sleep(0.5)
            await scheduler.run(request, Script([]).send)
            others.append((tag, virtual_loop().time()))

        await asyncio.gather(
            scheduler.run(GET, script.send),
            other(GET, "read"),
            other(POST, "write"),
        )

    run_virtual(main)
    assert script.sent_at == [0.0, 5.0]
    assert dict(others) == {"write": 0.5, "read": 5.0}


def test_a_burst_of_429s_cuts_once_per_round_trip(caplog: pytest.LogCaptureFixture) -> None:
    """Twenty 429s in a row at first contact: the first says the budget is busy (wait a window
    at the same level), the second, soon after, measures the level (the service admitted none:
    down to one request per period); the rest, at that level, change nothing and are told at
    DEBUG (docs/learning.md: busy waits once per confirmed level)."""
    caplog.set_level(logging.DEBUG, logger="route_planning_async.scheduler")
    limits = RateLimits.unlimited().replace(Category.READ, Rule(10, 1.0))

    async def main() -> list[float]:
        scheduler = Scheduler(limits, RetryPolicy())
        answers = [status(429, "1")] * 20
        after_the_storm: list[float] = []

        async def send(request: Request) -> Response:
            await asyncio.sleep(0.1)
            if answers:
                return answers.pop()
            after_the_storm.append(scheduler.stats[Category.READ].rate_factor)
            return OK

        await asyncio.gather(*(scheduler.run(GET, send) for _ in range(10)))
        assert scheduler.stats[Category.READ].rate_limited == 20
        return after_the_storm

    assert run_virtual(main)[0] == pytest.approx(0.1)
    busy = [message for message in caplog.messages if "the budget is busy" in message]
    cuts = [message for message in caplog.messages if "429" in message and "probing upward" in message]
    assert len(busy) == 1, busy
    assert len(cuts) == 1, cuts


def test_a_429_in_one_scheduler_slows_every_scheduler_on_the_backend() -> None:
    """The pause and the learned factor live in the backend, as in Redis for several processes."""
    backend = InMemoryBackend()
    limits = RateLimits.unlimited().replace(Category.WRITE, Rule(5, 1.0))
    other_sent: list[float] = []

    async def main() -> float:
        first = Scheduler(limits, RetryPolicy(), backend=backend)
        second = Scheduler(limits, RetryPolicy(), backend=backend)
        await first.run(POST, Script([status(429, "4"), status(429, "4")]).send)

        async def send(request: Request) -> Response:
            other_sent.append(virtual_loop().time())
            return OK

        # The service admitted nothing in its window: the first 429 reads as a busy budget
        # (a pause, the same level), the second, right after it, cuts to the floor (1 per
        # period), and the second scheduler uses what the first learned.
        await second.run(POST, send)
        learned = first.stats[Category.WRITE].rate_factor
        assert learned < 1.0
        return second.stats[Category.WRITE].rate_factor == learned

    assert run_virtual(main)
    # The first retried at 4 s and 8 s, when the pauses ended; the second waited out the
    # same pause, then the learned one request per period.
    assert other_sent == [9.0]


def test_testing_policy_makes_retries_instant() -> None:
    result, script, scheduler = run_script(GET, [status(429, "60"), status(500)], RetryPolicy.testing())
    assert result == OK
    assert script.sent_at == [0.0, 0.0, 0.0]
    assert scheduler.stats[Category.READ].rate_factor == 1.0


def test_waits_and_retries_are_logged_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="route_planning_async.scheduler")
    limits = RateLimits.unlimited().replace(Category.READ, Rule(1, 1.0))
    result, _, _ = run_script(GET, [status(429, "2"), status(503)], RetryPolicy(learning=None), limits)
    assert result == OK
    messages = "\n".join(caplog.messages)
    assert "GET /plans/p1: 429 Too Many Requests; retry 1 in 2.000 s" in messages
    assert "GET /plans/p1: 503 Service Unavailable; retry 2 in" in messages
    assert "read: waiting" in messages
    assert all(record.levelno == logging.DEBUG for record in caplog.records)
