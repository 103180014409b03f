"""Learning the service's real limit, in virtual time against a service whose limits disagree.

Every test runs the scheduler against ``support.limited_service.LimitedService``
on the virtual-time loop: minutes of traffic in milliseconds, deterministically.
The figures asserted are the issue's bars with room for the discovery at the
start of a short run; the benchmarks measure them on the real emulator.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from support.limited_service import LimitedService, SlidingWindow, TokenBucket
from support.virtual_time import run_virtual, virtual_loop

from route_planning_async import InMemoryBackend, RoutePlanningClient
from route_planning_async._core import Request, Response
from route_planning_async._rate_limits._backends import Grant, WindowCount
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule
from route_planning_async._scheduler import Scheduler
from route_planning_async._scheduler._retry import RetryPolicy

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
    # Back at >= 95% of 10 per second within 20 periods of the return, and staying there: the
    # probe that failed while the limit was 4 (at 30 s) backs the next off to two spans (50 s),
    # then the step doubles (5, 7, 10) on trials of PROBE_TRIAL periods (docs/learning.md).
    assert service.periods_to_full(40.0, 10) <= 20


def test_a_failed_step_of_a_ramp_costs_one_429() -> None:
    """The limit drops to 4, then rises to 7: the ramp back doubles its step (4, 5, 7, then the
    configured 10) and the last step fails, and the probes after it. Each raise sends its first
    attempt alone, so every failed probe is refused once, not once per request of its step."""
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
    assert len(probes) >= 2
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


def test_clients_of_one_process_with_the_same_origin_and_key_share_one_budget() -> None:
    """Two clients on one origin and key send 20 reads at once where 10 a second are allowed:
    they share one budget (the second ten wait for the window), as the service counts one. A
    client given a backend of its own, or another key, keeps its own."""
    url = "https://api.example.test/public/v0.2b"
    limits = RateLimits.unlimited().replace(Category.READ, Rule(10, 1.0))

    async def main() -> dict[str, float]:
        sent: dict[str, list[float]] = {"a": [], "b": [], "own": [], "other key": []}

        def transport(name: str) -> Callable[[Request], Awaitable[Response]]:
            async def send(request: Request) -> Response:
                sent[name].append(virtual_loop().time())
                return Response(200, {}, b"{}")

            return send

        def client(name: str, key: str = "key", **options: Any) -> RoutePlanningClient:
            fake = type("Fake", (), {"send": staticmethod(transport(name))})()
            return RoutePlanningClient(key, base_url=url, transport=fake, rate_limits=limits, **options)

        async with (
            client("a") as a,
            client("b") as b,
            client("own", rate_limit_backend=InMemoryBackend()) as own,
            client("other key", "another") as other,
        ):
            await asyncio.gather(
                *(
                    c.raw.request("GET", f"/plans/p{i}", category="read")
                    for c in (a, b, own, other)
                    for i in range(10)
                )
            )
        return {name: max(times) for name, times in sent.items()}

    last = run_virtual(main)
    assert max(last["a"], last["b"]) >= 1.0  # one budget: the second ten waited a window
    assert last["own"] < 1.0
    assert last["other key"] < 1.0


def test_a_level_below_the_configured_one_is_sent_evenly() -> None:
    # Evenly below N (docs/learning.md): once the level is 4 of 10 a second, the sends go
    # at least a quarter of a second apart, not 4 at once (a probe to 5: a fifth; with no
    # latency here, the send whose answer raised the level went at it, so it was the raise's
    # first attempt, and the next waits a fifth).
    service = LimitedService([SlidingWindow(4, 1.0)])
    scheduler, answers = read_for(service, 30.0)
    assert scheduler.stats[Category.READ].learned_limits[0].amount in (4, 5)
    late = [arrival.at for arrival in service.arrivals if arrival.at >= 5.0]
    gaps = [later - earlier for earlier, later in itertools.pairwise(late)]
    assert len(late) >= 4 * 24
    assert min(gaps) >= 0.2 - 1e-9
    assert all(answer.status == 200 for answer in answers)


def test_a_raise_sends_its_first_attempt_at_once() -> None:
    # A raise tries the raised level on the window as it is (``Law.due``): its first attempt goes
    # when the answer that raised it comes, a round trip (4 ms) after the send before it, so a
    # probe the service does not admit is refused at once, not an eighth of a second later.
    service = LimitedService([SlidingWindow(7, 1.0)], up=0.002, down=0.002)
    _, answers = read_for(service, 60.0)
    arrivals = service.arrivals
    probes = [
        later.at - earlier.at
        for earlier, later in itertools.pairwise(arrivals)
        if later.at > 5.0 and not later.admitted
    ]
    assert len(probes) >= 2
    assert max(probes) <= 0.01
    assert all(answer.status == 200 for answer in answers)


class _Remote(InMemoryBackend):
    """A backend the lane must take for one that other processes share (not the default
    in-memory one): several schedulers on it are a fleet."""


def _fleet_reads(service: LimitedService, copies: int, seconds: float) -> None:
    """``copies`` schedulers (processes) sharing one backend, each with 3 tasks reading back to
    back for ``seconds`` of virtual time, each one's arrivals logged as its own source."""
    backend = _Remote()

    async def main() -> None:
        schedulers = [
            Scheduler(CONFIGURED, RetryPolicy(rng=random.Random(i)), backend=backend) for i in range(copies)
        ]

        async def worker(scheduler: Scheduler, source: str) -> None:
            send = service.sender(source)
            while virtual_loop().time() < seconds:
                assert (await scheduler.run(READ, send)).status == 200

        await asyncio.gather(*(worker(s, f"copy {i}") for i, s in enumerate(schedulers) for _ in range(3)))
        for scheduler in schedulers:
            await scheduler.aclose()

    run_virtual(main)


def test_a_fleet_sends_one_scout_at_first_contact() -> None:
    # The fleet (docs/learning.md): after a quiet spell one process sharing the backend scouts
    # the window; the others go once its turn (a period) is over, at the level it found.
    service = LimitedService([SlidingWindow(5, 1.0)], up=0.002, down=0.002)
    _fleet_reads(service, 4, 1.5)
    first: dict[str, float] = {}
    for arrival in service.arrivals:
        first.setdefault(arrival.source, arrival.at)
    scouts = [source for source, at in first.items() if at < 1.0]
    assert len(scouts) == 1
    assert service.refused <= 2  # one gate of `burst` - 1 out, not one per process


def test_a_level_learned_by_another_process_is_logged_as_theirs(caplog: pytest.LogCaptureFixture) -> None:
    # A process that takes the fleet's lower level from the backend (``Law.adopt``) had no 429 of
    # its own: its warning says where the level came from, not "0 requests refused".
    caplog.set_level(logging.INFO, logger="route_planning_async.scheduler")
    service = LimitedService([SlidingWindow(5, 1.0)], up=0.002, down=0.002)
    _fleet_reads(service, 4, 30.0)
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    theirs = [w for w in warnings if "learned a lower limit from their 429s" in w]
    assert theirs
    assert all("(configured 10 per 1 s)" in w for w in theirs)
    assert not [w for w in warnings if w.startswith("read: 0 requests refused")]


def test_a_fleet_takes_turns_to_probe() -> None:
    # The fleet's probes take turns (``Law.probe_turn``): a probe refused in one process is not
    # tried again by each of the others that never saw it: one failed probe per turn.
    service = LimitedService([SlidingWindow(5, 1.0)], up=0.002, down=0.002)
    _fleet_reads(service, 4, 60.0)
    late = [a.at for a in service.arrivals if a.at >= 2.0 and not a.admitted]
    # One probe per turn, at most, and a turn lasts what a failed probe's back-off would (twice
    # `span`, 10 periods): probes at about 10, 30 and 50 s, each refused at most twice (its own
    # 429 and one out before it was heard).
    probes = [at for i, at in enumerate(late) if i == 0 or at - late[i - 1] > 1.0]
    assert len(probes) <= 3
    assert all(later - earlier >= 20.0 for earlier, later in itertools.pairwise(probes))
    assert len(late) <= 2 * len(probes)


def test_a_429_to_another_process_s_raise_is_stale() -> None:
    # The fleet (docs/learning.md): another process sharing the backend raised the level (its
    # probe) while this one's attempt, sent at the level before, was out; the service refused
    # that attempt. The 429 is the raise's, not a decrease of the level that held: this process
    # takes the raise, and the level stays.
    service = LimitedService([SlidingWindow(5, 1.0)])
    backend = _Remote()

    async def main() -> tuple[float, float]:
        scheduler = Scheduler(CONFIGURED, RetryPolicy(rng=random.Random(0)), backend=backend)

        async def worker() -> None:
            while virtual_loop().time() < 20.0:
                assert (await scheduler.run(READ, service.send)).status == 200

        await asyncio.gather(*(worker() for _ in range(3)))
        learned = scheduler.stats[Category.READ].rate_factor
        await asyncio.sleep(1.0)
        raised = learned + 0.1  # another process's probe: one request a period more
        refused = [False]

        async def raised_while_out(request: Request) -> Response:
            if refused[0]:
                return await service.send(request)
            refused[0] = True
            await backend.recover(Category.READ.value, raised)
            return Response(429, {}, b'{"message": "rate limited", "code": "rate_limited"}')

        assert (await scheduler.run(READ, raised_while_out)).status == 200
        factor = scheduler.stats[Category.READ].rate_factor
        await scheduler.aclose()
        return learned, factor

    learned, factor = run_virtual(main)
    assert learned == 0.5
    assert factor == pytest.approx(0.6)


class _Slow(_Remote):
    """A shared backend whose every call takes 6 ms (a Redis round trip on a busy machine), longer
    than the link's round trip, so that the lane's handlers of two answers interleave at their
    awaits."""

    async def acquire(self, key: str, rules: Sequence[Rule], weight: int, now: float) -> Grant | float:
        await asyncio.sleep(0.006)
        # The windows are checked as the call arrives, 6 ms after ``now``.
        return await super().acquire(key, rules, weight, virtual_loop().time())

    async def release(self, grant: Grant, now: float, *, extra: float = 0.0, admitted: bool = True) -> None:
        await asyncio.sleep(0.006)
        await super().release(grant, now, extra=extra, admitted=admitted)

    async def window(self, key: str, rules: Sequence[Rule], now: float) -> tuple[WindowCount, ...]:
        await asyncio.sleep(0.006)
        return await super().window(key, rules, now)

    async def penalize(self, key: str, pause: float, factor: float, now: float) -> float:
        await asyncio.sleep(0.006)
        return await super().penalize(key, pause, factor, now)

    async def recover(self, key: str, factor: float) -> float:
        await asyncio.sleep(0.006)
        return await super().recover(key, factor)


def test_a_stale_429_handled_beside_a_decrease_keeps_the_backend_s_level() -> None:
    # Two 429s answered together at first contact: the first measures the level (4), the second,
    # to an attempt sent before, is stale (5) and changes nothing. Its handler runs while the
    # first one's write to the shared backend is under way; it must not write back the level it
    # read before that write: that put every process sharing the backend at the configured
    # limits again, and the refusals that followed cut the fleet's level below the real limit.
    service = LimitedService([SlidingWindow(5, 1.0)], up=0.002, down=0.002)
    backend = _Slow()

    async def main() -> tuple[int, float, float]:
        scheduler = Scheduler(CONFIGURED, RetryPolicy(rng=random.Random(0)), backend=backend)

        async def worker() -> None:
            while virtual_loop().time() < 0.5:
                assert (await scheduler.run(READ, service.send)).status == 200

        await asyncio.gather(*(worker() for _ in range(8)))
        stored = await backend.recover(Category.READ.value, 0.0)
        factor = scheduler.stats[Category.READ].rate_factor
        await scheduler.aclose()
        return service.refused, stored, factor

    refused, stored, factor = run_virtual(main)
    assert refused >= 2  # the measure's 429 and the stale one
    assert factor == 0.5
    assert stored == 0.5
