"""Learning the service's real limit, in virtual time against a service whose limits disagree.

Every test runs the scheduler against ``support.limited_service.LimitedService``
on the virtual-time loop: minutes of traffic in milliseconds, deterministically.
The figures asserted are the issue's bars with room for the discovery at the
start of a short run; the benchmarks measure them on the real emulator.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence

import pytest
from support.limited_service import LimitedService, SlidingWindow, TokenBucket
from support.virtual_time import run_virtual, virtual_loop

from route_planning_async._backends import Grant, InMemoryBackend, WindowCount
from route_planning_async._core import Request, Response
from route_planning_async._learning import LearningPolicy, LimitLearner
from route_planning_async._limits import Category, RateLimits, Rule
from route_planning_async._retry import RetryPolicy
from route_planning_async._scheduler import Scheduler

READ = Request("GET", "/plans/p1", Category.READ)
CONFIGURED = RateLimits.unlimited().replace(Category.READ, Rule(10, 1.0))


def read_for(
    service: LimitedService,
    seconds: float,
    *,
    workers: int = 30,
    policy: RetryPolicy | None = None,
    limits: RateLimits = CONFIGURED,
) -> tuple[Scheduler, list[Response]]:
    """``workers`` tasks reading back to back for ``seconds`` of virtual time."""
    answers: list[Response] = []

    async def main() -> Scheduler:
        scheduler = Scheduler(limits, policy or RetryPolicy(rng=random.Random(3)))

        async def worker() -> None:
            while virtual_loop().time() < seconds:
                answers.append(await scheduler.run(READ, service.send))

        await asyncio.gather(*(worker() for _ in range(workers)))
        return scheduler

    return run_virtual(main), answers


@pytest.mark.parametrize("share", [0.8, 0.5, 0.3])
def test_a_lower_real_limit_is_learned_and_used_in_full(share: float) -> None:
    real = round(10 * share)
    service = LimitedService([SlidingWindow(real, 1.0)])
    scheduler, answers = read_for(service, 120.0)
    stats = scheduler.stats[Category.READ]
    # No request failed, and the service saw at most its limit per window once learned.
    assert all(answer.status == 200 for answer in answers)
    assert stats.learned_limits[0].amount <= real + 1
    # Over the last 100 s: at least 90% of the real limit (the ideal time within 1.11x).
    assert service.admitted_between(20.0, 120.0) >= 0.9 * real * 100
    # 429s: the discovery, then at most one probe per probe interval.
    assert service.refused <= 0.05 * len(service.arrivals)


def test_the_first_cut_lands_on_the_real_limit() -> None:
    service = LimitedService([SlidingWindow(3, 1.0)])
    scheduler, _ = read_for(service, 1.5)
    # Thirty requests queued, ten sent at once, three admitted: cut straight to 3, not by halves.
    assert scheduler.stats[Category.READ].learned_limits == (Rule(3, 1.0),)


def test_a_limit_that_drops_and_comes_back_is_followed() -> None:
    service = LimitedService(
        [SlidingWindow(10, 1.0)],
        schedule=[(20.0, [SlidingWindow(4, 1.0)]), (40.0, [SlidingWindow(10, 1.0)])],
    )
    _, answers = read_for(service, 60.0)
    assert all(answer.status == 200 for answer in answers)
    # While the limit is 4: about 4 per second.
    assert service.admitted_between(25.0, 40.0) >= 0.9 * 4 * 15
    # Back at >= 95% of 10 per second within 2 P + 2 periods of the return (P = 5 probe periods
    # at 4 requests a period: the probe pacing), and staying there.
    assert service.periods_to_full(40.0, 10) <= 2 * 5 + 2


def test_a_failed_step_of_a_ramp_costs_one_429() -> None:
    """The limit drops to 4, then rises to 7: the ramp back doubles its step (4, 5, 7, then the
    configured 10) and the last step fails. Each raise sends its first attempt alone, so every
    failed probe is refused once, not once per request of its step."""
    service = LimitedService(
        [SlidingWindow(10, 1.0)],
        schedule=[(10.0, [SlidingWindow(4, 1.0)]), (20.0, [SlidingWindow(7, 1.0)])],
        up=0.002,
        down=0.002,
    )
    _, answers = read_for(service, 60.0)
    assert all(answer.status == 200 for answer in answers)
    refused = [arrival.at for arrival in service.arrivals if arrival.at > 20.0 and not arrival.admitted]
    probes: list[list[float]] = []
    for at in refused:
        if probes and at - probes[-1][-1] < 0.5:
            probes[-1].append(at)
        else:
            probes.append([at])
    assert len(probes) >= 5
    assert [len(probe) for probe in probes] == [1] * len(probes)
    assert service.admitted_between(25.0, 60.0) >= 0.9 * 7 * 35


def test_a_service_that_counts_refused_requests_is_learned_too() -> None:
    service = LimitedService([SlidingWindow(5, 1.0, count_refused=True)])
    _, answers = read_for(service, 120.0)
    assert all(answer.status == 200 for answer in answers)
    assert service.admitted_between(20.0, 120.0) >= 0.85 * 5 * 100
    assert service.refused <= 0.05 * len(service.arrivals)


def test_a_token_bucket_with_a_burst_is_learned() -> None:
    service = LimitedService([TokenBucket(5, 1.0, burst=5)])
    _, answers = read_for(service, 120.0)
    assert all(answer.status == 200 for answer in answers)
    assert service.admitted_between(20.0, 120.0) >= 0.85 * 5 * 100
    assert service.refused <= 0.05 * len(service.arrivals)


def test_retry_after_is_honoured_while_learning() -> None:
    service = LimitedService([SlidingWindow(4, 1.0)], retry_after=True)
    _, answers = read_for(service, 60.0)
    assert all(answer.status == 200 for answer in answers)
    assert service.admitted_between(10.0, 60.0) >= 0.9 * 4 * 50


def test_batch_imports_learn_the_weighted_rule() -> None:
    """Batch imports of 100 stops: the service allows 500 stops a minute, not the configured 1,000."""
    limits = RateLimits.unlimited().replace(
        Category.BATCH_IMPORT, Rule(10, 60.0), Rule(1000, 60.0, per="weight")
    )
    service = LimitedService([SlidingWindow(10, 60.0), SlidingWindow(500, 60.0, per_weight=True)])
    request = Request("POST", "/plans/p1/stops:import", Category.BATCH_IMPORT, body=b"[]", weight=100)
    answers: list[Response] = []

    async def main() -> Scheduler:
        scheduler = Scheduler(limits, RetryPolicy(rng=random.Random(4)))
        answers.extend(await asyncio.gather(*(scheduler.run(request, service.send) for _ in range(100))))
        return scheduler

    run_virtual(main)
    assert all(answer.status == 200 for answer in answers)
    # 100 batches at 5 a minute take 20 minutes at best.
    finished = max(a.at for a in service.arrivals if a.admitted)
    assert finished <= 1.25 * 20 * 60
    assert service.refused <= 0.05 * len(service.arrivals) + 5


def test_a_link_with_latency_uses_the_whole_limit_by_default() -> None:
    """150 ms each way, 0-10 ms of jitter: the default anchoring keeps ~98% of the limit."""
    rng = random.Random(8)
    service = LimitedService(
        [SlidingWindow(10, 1.0)],
        up=lambda: 0.15 + rng.uniform(0, 0.01),
        down=lambda: 0.15 + rng.uniform(0, 0.01),
    )
    _, answers = read_for(service, 60.0)
    assert all(answer.status == 200 for answer in answers)
    assert service.admitted_between(5.0, 60.0) >= 0.95 * 10 * 55
    assert service.refused <= 0.01 * len(service.arrivals)

    strict = LimitedService([SlidingWindow(10, 1.0)], up=0.15, down=0.15)
    read_for(
        strict, 60.0, limits=RateLimits.unlimited(strict_windows=True).replace(Category.READ, Rule(10, 1.0))
    )
    # The provably safe rule pays the round trip: 1 / 1.3 of the limit.
    assert strict.admitted_between(5.0, 60.0) <= 0.8 * 10 * 55
    assert strict.refused == 0


def test_a_cut_is_logged_once_at_warning_with_the_numbers(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="route_planning_async.scheduler")
    service = LimitedService([SlidingWindow(3, 1.0)])
    read_for(service, 30.0)
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "the service admitted 3 in its window" in warnings[0]
    assert "sending at 3 per 1 s (configured 10 per 1 s)" in warnings[0]


def test_learning_can_be_turned_off() -> None:
    service = LimitedService([SlidingWindow(5, 1.0)])
    scheduler, answers = read_for(service, 10.0, policy=RetryPolicy(learning=None, rng=random.Random(1)))
    assert all(answer.status == 200 for answer in answers)
    assert scheduler.stats[Category.READ].rate_factor == 1.0


def test_the_learner_alone() -> None:
    learner = LimitLearner(LearningPolicy(first_probe_unproven=1.0), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    assert learner.teaches(1.0)
    # Three admitted in the window, after the first period: cut to 0.3.
    assert learner.cut(1.5, [3]) == pytest.approx(0.3)
    assert not learner.teaches(1.4)
    # The configured level had held: the first probe as soon as the pacing allows, P = 7
    # periods at 3 requests a period (max(3, ceil(20 / 3))), then one request more.
    assert learner.probe(8.4, 8.3) is None
    assert learner.probe(8.6, 8.5) == pytest.approx(0.4)
    # A ramp's first step holds first_step (2) periods, not one (a level that passed one
    # period by luck is no proof); then, an attempt sent at it having passed: two more.
    assert learner.probe(9.7, 9.65) is None
    assert learner.probe(10.5, 10.45) is None
    assert learner.probe(10.7, 8.5) is None  # sent before the raise: no evidence
    assert learner.probe(10.7, 10.65) == pytest.approx(0.6)
    # A 429 at 6: back to the 4 that held; the next probe waits twice as long, to the cap
    # of 2 P = 10 periods at 4 requests a period.
    assert learner.cut(11.0, [3]) == pytest.approx(0.4)
    assert learner.probe(20.9, 20.8) is None
    assert learner.probe(21.1, 21.0) == pytest.approx(0.5)


def probing_after_a_first_period_cut() -> LimitLearner:
    """A learner cut to 3 of 10 in its first period, and its probe to 4 a period later."""
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    assert learner.cut(0.5, [3]) == pytest.approx(0.3)
    assert learner.probe(1.4, 1.3) is None
    assert learner.probe(1.6, 1.5) == pytest.approx(0.4)
    return learner


def test_a_cut_in_the_first_period_probes_a_period_later_for_the_configured_limits() -> None:
    # A cut in this process's first period may have read a stopped run's slots, gone a
    # period later. The probe held: the configured limits come back at once.
    learner = probing_after_a_first_period_cut()
    assert learner.probe(1.9, 1.7) == pytest.approx(1.0)


def test_a_first_period_cut_whose_probe_fails_is_the_limit() -> None:
    learner = probing_after_a_first_period_cut()
    # Refused at 4: no tail, the 3 it began from is the limit (not the count of the moment).
    # The early probe took the first one's place: the next waits as after it, twice
    # first_probe_unproven.
    assert learner.cut(1.7, [2]) == pytest.approx(0.3)
    assert learner.probe(33.6, 33.5) is None
    assert learner.probe(33.8, 33.75) == pytest.approx(0.4)


def test_a_first_period_cut_s_step_that_held_two_periods_is_kept_when_the_jump_fails() -> None:
    # The step to 4 held first_step (2) periods before the jump to the configured limits, as
    # a ramp's first step must: the jump's failure comes back to 4, not to the 3 it began from.
    learner = probing_after_a_first_period_cut()
    assert learner.probe(3.7, 3.65) == pytest.approx(1.0)
    assert learner.cut(3.75, [4]) == pytest.approx(0.4)


@pytest.mark.parametrize("jump_at", [1.9, 2.7])
def test_a_first_period_cut_s_step_held_briefly_is_not_kept_when_the_jump_fails(jump_at: float) -> None:
    # Confirmed after ``confirm`` of a period, or a period (its attempts may not have used
    # it), the step to 4 is no proof: back to the 3 the service admitted.
    learner = probing_after_a_first_period_cut()
    assert learner.probe(jump_at, jump_at - 0.05) == pytest.approx(1.0)
    assert learner.cut(jump_at + 0.05, [3]) == pytest.approx(0.3)


def first_probe(learner: LimitLearner, since: float) -> tuple[float, float]:
    """The first raise :meth:`LimitLearner.probe` answers after ``since``, each tenth of a
    period asked with an attempt sent just before: (when, to what)."""
    for tenth in range(1, 1000):
        now = since + tenth / 10
        target = learner.probe(now, now - 0.05)
        if target is not None:
            return now, target
    raise AssertionError("no probe in 100 periods")


def test_another_process_s_cut_ends_this_one_s_ramp() -> None:
    # This process jumped to the configured limits after its first period's cut; the jump
    # failed in another process, which cut the fleet to 5. This one's next ramp begins
    # with one request more, not with the jump's step.
    learner = probing_after_a_first_period_cut()
    assert learner.probe(3.7, 3.65) == pytest.approx(1.0)
    learner.sync(0.5, 3.8)
    assert not learner.probing
    assert first_probe(learner, 3.8)[1] == pytest.approx(0.6)


def test_a_first_period_cut_s_check_takes_the_fleet_s_turn_for_the_wait_after_its_failure() -> None:
    # The check of a first period's cut is the fleet's first probe: if it fails, the next
    # waits twice first_probe_unproven (32 periods), for the process that checked and for
    # the others, which saw only the cut (they would have probed after 16).
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    learner.cut(0.5, [3])
    assert learner.probe_turn(1.6) == pytest.approx(32.0)
    # Any other probe takes recent_probe_interval (3) periods: the others then wait their own.
    later = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    later.sync(1.0, 0.0)
    later.cut(1.5, [3])
    assert later.probe_turn(30.0) == pytest.approx(3.0)


def test_a_fleet_probes_once_in_the_wait_after_its_first_period_cut_s_check() -> None:
    # Two processes sharing a backend read at 10 a second into a service that admits 5. The
    # other one's three attempts arrive first, and it then pauses for 5 s: this one alone is
    # refused, cuts in its first period and checks the cut a period later, which fails. The
    # other one never saw the check; it does not probe either until 32 periods after it
    # (before, it probed 16 periods after it saw the cut, and was refused).
    service = LimitedService([SlidingWindow(5, 1.0)], up=0.005, down=0.005)
    other_send = service.sender("other")

    async def main() -> None:
        backend = InMemoryBackend()
        this, other = (
            Scheduler(CONFIGURED, RetryPolicy(rng=random.Random(seed)), backend=backend) for seed in (1, 2)
        )

        async def worker(scheduler: Scheduler, send: Callable[[Request], Awaitable[Response]]) -> None:
            while virtual_loop().time() < 40.0:
                await scheduler.run(READ, send)

        async def others() -> None:
            await asyncio.gather(*(other.run(READ, other_send) for _ in range(3)))
            await asyncio.sleep(5.0)
            await asyncio.gather(*(worker(other, other_send) for _ in range(3)))

        async def ours() -> None:
            await asyncio.sleep(0.001)
            await asyncio.gather(*(worker(this, service.send) for _ in range(7)))

        await asyncio.gather(others(), ours())
        await this.aclose()
        await other.aclose()

    run_virtual(main)
    refused = [(round(arrival.at), arrival.source) for arrival in service.arrivals if not arrival.admitted]
    # The first burst's five, the check a period later, and the next probe 32 periods on.
    assert refused == [(0, "client")] * 5 + [(1, "client"), (33, "client")]


def test_another_process_s_cut_seen_in_the_first_period_is_not_probed_early() -> None:
    # A process joining a fleet finds another's cut in the backend: it did not read that
    # window itself, so nothing says it held a stopped run's slots.
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(0.5, 100.0)
    assert learner.probe(101.6, 101.5) is None
    assert learner.probe(116.1, 116.0) == pytest.approx(0.6)


def test_a_raise_to_the_configured_limits_is_a_probe_like_the_others() -> None:
    learner = LimitLearner(LearningPolicy(first_probe_unproven=1.0), (Rule(3, 1.0),))
    learner.sync(1.0, 0.0)
    assert learner.cut(1.5, [2]) == pytest.approx(2 / 3)
    # 2 held a whole period: one more is the configured 3, as soon as the pacing allows
    # (P = 10 periods at 2 requests a period).
    assert learner.probe(11.6, 11.55) == pytest.approx(1.0)
    assert learner.probing
    # Refused before it was confirmed: back to the 2 that held, not the window's count of 1.
    assert learner.cut(11.65, [1]) == pytest.approx(2 / 3)
    # The next probe waits twice as long (2 P).
    assert learner.probe(31.6, 31.5) is None
    assert learner.probe(31.7, 31.6) == pytest.approx(1.0)
    # Confirmed first_step (2) periods later, as a ramp's first step: nothing is left to probe.
    assert learner.probe(33.5, 33.4) is None
    assert learner.probing
    assert learner.probe(33.8, 33.75) is None
    assert not learner.probing


def test_a_raise_by_another_process_that_fails_goes_back_to_the_level_it_raised() -> None:
    # Processes sharing a backend: another one raised 5 to 6 (its probe). A 429 here within a
    # period fails that raise, back to 5, though the window shows only the 3 answered so far.
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(0.5, 0.0)
    learner.sync(0.6, 10.0)
    assert learner.cut(10.5, [3]) == pytest.approx(0.5)
    # A period after such a raise, it held: a 429 then cuts to what the window shows.
    learner.sync(0.6, 20.0)
    assert learner.cut(21.5, [3]) == pytest.approx(0.3)


def test_a_failed_probe_goes_back_to_the_level_that_held() -> None:
    learner = LimitLearner(LearningPolicy(first_probe_unproven=1.0), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    assert learner.cut(0.5, [7]) == pytest.approx(0.7)
    # 7 held a whole period: the probe to 8 starts from a proven level.
    assert learner.probe(1.6, 1.5) == pytest.approx(0.8)
    # Refused at 8 while answers of the 7 were still in flight (the window shows 5): back
    # to 7, not to the count of the moment.
    assert learner.cut(1.7, [5]) == pytest.approx(0.7)


@pytest.mark.parametrize("refused_at_five", [True, False])
def test_a_step_that_holds_where_a_probe_was_refused_goes_back_to_the_level_that_held(
    refused_at_five: bool,
) -> None:
    # 10 held, then a 429 with 4 in the window (others arrived, or the limit fell): cut to
    # 4; the first probe comes P = 5 periods later (4 requests a period: max(3, ceil(20 / 4))).
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    assert learner.cut(1.5, [4]) == pytest.approx(0.4)
    start = 6.6
    if refused_at_five:
        # The probe to 5 is refused: back to 4, and the next one waits twice as long (2 P).
        assert learner.probe(start, start - 0.05) == pytest.approx(0.5)
        assert learner.cut(start + 0.1, [4]) == pytest.approx(0.4)
        assert learner.probe(start + 10.0, start + 9.95) is None
        start += 10.2
    assert learner.probe(start, start - 0.05) == pytest.approx(0.5)
    # 5 holds its first step (two periods). Where a probe to 5 was refused, what refused it
    # is gone (the others left, or the limit came back): straight to the 10 that held.
    # Otherwise the ramp doubles its step, to 7.
    assert learner.probe(start + 1.9, start + 1.85) is None
    assert learner.probe(start + 2.1, start + 2.05) == pytest.approx(1.0 if refused_at_five else 0.7)


def test_a_jump_back_to_the_level_that_held_that_fails_comes_back_to_the_step() -> None:
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    learner.cut(1.5, [4])
    learner.probe(6.6, 6.55)
    learner.cut(6.7, [4])  # the probe to 5 refused
    learner.probe(16.8, 16.75)
    assert learner.probe(18.9, 18.85) == pytest.approx(1.0)
    # Refused at 10: others still hold part of it. Back to the 5 that held two periods; the
    # next ramp doubles its step as usual (the last refused probe was the jump, to 10).
    assert learner.cut(19.0, [5]) == pytest.approx(0.5)
    now, target = first_probe(learner, 19.0)
    assert target == pytest.approx(0.6)
    assert learner.probe(now + 2.1, now + 2.05) == pytest.approx(0.8)


@pytest.mark.parametrize("returns_at", [25.0 + half / 2 for half in range(20)])
def test_a_limit_that_comes_back_is_taken_back_within_2_p_plus_2_periods_whatever_the_probe_phase(
    returns_at: float,
) -> None:
    # The limit drops to 4 at 10 s and comes back at a time that falls anywhere in the probes'
    # cycle, even just after a failed probe (the next then waits 2 P = 10 periods).
    service = LimitedService(
        [SlidingWindow(10, 1.0)],
        schedule=[(10.0, [SlidingWindow(4, 1.0)]), (returns_at, [SlidingWindow(10, 1.0)])],
    )
    _, answers = read_for(service, returns_at + 20.0)
    assert all(answer.status == 200 for answer in answers)
    assert service.periods_to_full(returns_at, 10) <= 2 * 5 + 2


def test_a_refusal_below_a_probe_fails_the_probe() -> None:
    learner = LimitLearner(LearningPolicy(first_probe_unproven=1.0), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    learner.cut(0.5, [7])
    assert learner.probe(1.6, 1.5) == pytest.approx(0.8)
    # A 429 to an attempt sent before the raise teaches nothing of 8 itself...
    assert not learner.teaches(1.55)
    # ...but 7 was already full: the probe cannot hold, and the next one waits as after a cut.
    assert learner.probe_refused(1.62) == pytest.approx(0.7)
    assert not learner.probing
    assert learner.probe(2.6, 2.55) is None
    assert learner.probe(3.7, 3.65) == pytest.approx(0.8)


def test_an_admitted_answer_refutes_a_busy_pause() -> None:
    learner = LimitLearner(LearningPolicy(), (Rule(10, 1.0),))
    learner.sync(1.0, 0.0)
    # The first 429 of a fresh burst comes before any admitted answer: the window looks busy.
    assert learner.busy(0.005, [0], 0.0) == pytest.approx(1.0)
    assert learner.busy_until == pytest.approx(1.005)
    # An attempt sent after the pause began proves nothing; one of the burst itself does.
    assert not learner.refutes_busy(0.01, 0.02)
    assert learner.refutes_busy(0.0, 0.006)
    assert not learner.refutes_busy(0.0, 0.007)  # once
    assert learner.cut(0.006, [3]) == pytest.approx(0.3)


def test_a_fresh_burst_partly_refused_is_not_sent_again_in_full() -> None:
    # The service admits 3 of the first 10 and counts the refused ones: the answers
    # that pass refute the busy pause, so the next period sends 3, not 10 again.
    # Answers come back in any order (2 to 4 ms each way), refusals often first.
    rng = random.Random(3)
    service = LimitedService(
        [SlidingWindow(3, 1.0, count_refused=True)],
        up=lambda: 0.002 + rng.uniform(0, 0.002),
        down=lambda: 0.002 + rng.uniform(0, 0.002),
    )
    scheduler, answers = read_for(service, 2.5)
    assert all(answer.status == 200 for answer in answers)
    assert service.refused <= 8
    assert scheduler.stats[Category.READ].learned_limits == (Rule(3, 1.0),)


class RemoteBackend(InMemoryBackend):
    """The in-memory backend answering after a round trip, as a shared one does (Redis)."""

    def __init__(self) -> None:
        super().__init__()
        self.lowest = 1.0
        """The lowest rate factor it held."""

    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        await asyncio.sleep(0.0005)
        return await super().acquire(key, rules, weight, now)

    async def recover(self, key: str, factor: float) -> float:
        await asyncio.sleep(0.0005)
        return await super().recover(key, factor)

    async def usage(self, key: str, rules: Sequence[Rule], now: float) -> tuple[int, ...]:
        await asyncio.sleep(0.0005)
        return await super().usage(key, rules, now)

    async def window(self, key: str, rules: Sequence[Rule], now: float) -> tuple[WindowCount, ...]:
        await asyncio.sleep(0.0005)
        return await super().window(key, rules, now)

    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        await asyncio.sleep(0.0005)
        factor = await super().penalize(key, pause, factor, now)
        self.lowest = min(self.lowest, factor)
        return factor


def test_two_429s_of_one_burst_make_one_cut_with_a_backend_that_answers_later() -> None:
    # Both 429s were sent at the configured level; the second is judged after the
    # first one's cut, while the backend's answer was on its way. It used to cut
    # again ("one request less": refused at the level in force), to 4 of the 5.
    service = LimitedService([SlidingWindow(5, 1.0)], up=lambda: 0.002, down=lambda: 0.002)

    async def main() -> None:
        scheduler = Scheduler(CONFIGURED, RetryPolicy(rng=random.Random(3)), backend=backend)
        answers = await asyncio.gather(*(scheduler.run(READ, service.send) for _ in range(7)))
        assert all(answer.status == 200 for answer in answers)

    backend = RemoteBackend()
    run_virtual(main)
    assert service.refused == 2
    assert backend.lowest == 0.5


def through_a_drop(backend: InMemoryBackend, seed: int, *, low: int, seconds: float) -> LimitedService:
    """30 readers at the configured 10/s for ``seconds``, through ``backend``, against a service
    whose limit drops to ``low`` from 10 s to 30 s, over a link of 2 to 4 ms each way."""
    rng = random.Random(seed)
    service = LimitedService(
        [SlidingWindow(10, 1.0)],
        schedule=[(10.0, [SlidingWindow(low, 1.0)]), (30.0, [SlidingWindow(10, 1.0)])],
        up=lambda: 0.002 + rng.uniform(0, 0.002),
        down=lambda: 0.002 + rng.uniform(0, 0.002),
    )

    async def main() -> None:
        scheduler = Scheduler(CONFIGURED, RetryPolicy(rng=random.Random(3)), backend=backend)

        async def worker() -> None:
            while virtual_loop().time() < seconds:
                # A stalled category fails here, not by hanging the test.
                await asyncio.wait_for(scheduler.run(READ, service.send), 30.0)

        await asyncio.gather(*(worker() for _ in range(30)))

    run_virtual(main)
    return service


class CrossingBackend(InMemoryBackend):
    """A shared backend whose grant is made at once and reaches the caller a round trip later,
    so that it may cross the caller's own penalize or recover (Redis answers so)."""

    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        grant = await super().acquire(key, rules, weight, now)
        await asyncio.sleep(0.001)
        return grant


@pytest.mark.parametrize("seed", range(3))
def test_a_grant_that_crossed_the_lanes_own_change_is_not_taken_for_another_process(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alone on its backend, a process changes the factor only itself: a grant made before its
    own cut or raise, arriving after it, must not read as another process's raise or cut (it
    did: the learner went back up to the old level, then down again, doubling its probe wait)."""
    moved: list[tuple[float, float]] = []
    sync = LimitLearner.sync

    def recording_sync(self: LimitLearner, factor: float, now: float) -> None:
        before = self.factor
        sync(self, factor, now)
        if self.factor != before:
            moved.append((before, self.factor))

    monkeypatch.setattr(LimitLearner, "sync", recording_sync)
    service = through_a_drop(CrossingBackend(), seed, low=5, seconds=50.0)
    assert moved == []
    # Cut at the drop, probing as the pacing allows, and back within 2 P + 2 periods of the
    # return (P = 4 at 5 requests a period).
    assert service.admitted_between(40.0, 50.0) >= 0.95 * 10 * 10


@pytest.mark.parametrize("seed", range(4))
def test_a_probe_with_a_backend_that_answers_later_never_stalls_the_category(seed: int) -> None:
    """A raise may close a probe's gate while an attempt's grant is on its way from a shared
    backend: that attempt is not one of the probe's, and the gate must not wait for its answer
    (it used to wait forever: the category stopped after the limit came back)."""
    service = through_a_drop(RemoteBackend(), seed, low=4, seconds=60.0)
    # Back at the full limit after the return.
    assert service.admitted_between(40.0, 60.0) >= 0.95 * 10 * 20
