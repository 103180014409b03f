"""Scenarios of the learner in virtual time, seeded: minutes at the contract's real limits in milliseconds.

The client's scheduler runs against the tests' socket-free service with limits of
its own (``tests/support/limited_service.py``) on the virtual-time loop
(``tests/support/virtual_time.py``), the same pieces the learning tests use. A
seed draws the link's jitter, the other process's timing and the retry policy's
randomness, so five seeds are five different runs of one scenario.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from support.limited_service import LimitedService, Limiter, SlidingWindow, TokenBucket, run_requests
from support.virtual_time import run_virtual, virtual_loop

from benchmarks._scenario import _judge
from route_planning_async._core import Request, Response
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule
from route_planning_async._scheduler import Scheduler
from route_planning_async._scheduler._retry import RetryPolicy

__all__ = [
    "IMPORT_PERIOD",
    "MISMATCH_WORKLOADS",
    "NEIGHBOUR_WORKLOADS",
    "learning_bound",
    "mismatch",
    "neighbour_bound",
    "neighbour_fixed",
    "neighbours",
    "resume",
]

READ = Request("GET", "/plans/p1", Category.READ)
WRITE = Request("POST", "/plans/p1/stops", Category.WRITE, body=b"{}")
OPTIMIZE = Request("POST", "/plans/p1:optimize", Category.OPTIMIZE)
IMPORT = Request("POST", "/plans/p1/stops:import", Category.BATCH_IMPORT, body=b"[]", weight=100)
CONTRACT = RateLimits.default()
IMPORT_PERIOD = 60.0
READ_RULE = CONTRACT.for_category(Category.READ)[0]
IMPORT_RULES = CONTRACT.for_category(Category.BATCH_IMPORT)


def _link(rng: random.Random, base: float, jitter: float) -> dict[str, Any]:
    return {"up": lambda: base + rng.uniform(0, jitter), "down": lambda: base + rng.uniform(0, jitter)}


def _server_import_rules(ratio: float, count_refused: bool = True) -> list[Limiter]:
    return [
        SlidingWindow(max(1, round(rule.amount * ratio)), rule.period, rule.per == "weight", count_refused)
        for rule in IMPORT_RULES
    ]


def _import(
    service: LimitedService, batches: int, seed: int, workers: int = 10
) -> tuple[float, list[Response], Scheduler]:
    """``batches`` batch imports of 100 stops by ``workers`` tasks, from now; answers the time taken."""

    async def main() -> tuple[float, list[Response], Scheduler]:
        started = virtual_loop().time()
        scheduler = Scheduler(CONTRACT, RetryPolicy(rng=random.Random(seed)))
        answers = await run_requests(scheduler, IMPORT, service.send, batches, workers)
        return virtual_loop().time() - started, answers, scheduler

    return run_virtual(main)


def resume(seed: int, stops: int = 20_000) -> dict[str, Any]:
    """An import right after another process used the whole window, beside the same import fresh.

    The other process (the stopped run of the same import) sent its last window's ten batches
    at once, at a random time of the minute before the restart.
    """
    rng = random.Random(seed)
    batches = stops // 100
    fresh_service = LimitedService(_server_import_rules(1.0), **_link(random.Random(seed), 0.02, 0.01))
    fresh, fresh_answers, _ = _import(fresh_service, batches, seed)
    service = LimitedService(_server_import_rules(1.0), **_link(rng, 0.02, 0.01))
    before = rng.uniform(0.5, IMPORT_PERIOD - 0.5)
    other = service.sender("others")

    async def whole() -> tuple[float, list[Response], Scheduler]:
        await asyncio.gather(*(other(IMPORT) for _ in range(10)))
        await asyncio.sleep(before)
        started = virtual_loop().time()
        scheduler = Scheduler(CONTRACT, RetryPolicy(rng=random.Random(seed)))
        answers = await run_requests(scheduler, IMPORT, service.send, batches, 10)
        return virtual_loop().time() - started, answers, scheduler

    elapsed, answers, scheduler = run_virtual(whole)
    own = service.of("client")
    refused = sum(1 for arrival in own if not arrival.admitted)
    return {
        "fresh": fresh,
        "resumed": elapsed,
        "ratio": elapsed / (fresh + IMPORT_PERIOD),
        "sent": len(own),
        "refused": refused,
        "share_429": refused / len(own),
        "failed": sum(1 for a in answers + fresh_answers if a.status != 200),
        "rate_factor": scheduler.stats[Category.BATCH_IMPORT].rate_factor,
    }


NEIGHBOUR_WORKLOADS: dict[str, tuple[Request, tuple[Rule, ...]]] = {
    "reads": (READ, (READ_RULE,)),
    "writes": (WRITE, CONTRACT.for_category(Category.WRITE)),
    "optimize, public documentation": (OPTIMIZE, RateLimits.public_docs().for_category(Category.OPTIMIZE)),
}
"""The neighbours scenario's workloads: the request and the rules of its category (the client's
and the service's). The bars are on reads; the others show the same learning with fewer requests
per period (writes, 5/s) and with more (optimize, 100 per 10 minutes, at most 30 per minute)."""


@attrs.frozen
class _Beside:
    """One neighbours scenario: the service, the unseen neighbour on it, and its times (seconds)."""

    request: Request
    rules: tuple[Rule, ...]
    amount: int
    """The longest rule's amount a period (the neighbour's share is of it)."""
    period: float
    left: int
    """What the neighbour leaves (``_left``)."""
    begins: float
    """When the neighbour comes."""
    until: float
    """When it leaves."""
    seconds: float
    """When the run ends: at least ``2 P + 10`` periods after it left (the give-back's bar, and eight
    to see it)."""
    stays: float
    """Periods the neighbour stays."""
    service: LimitedService
    neighbour: Callable[[], Awaitable[None]]
    """The neighbour's traffic: ``share`` of the longest rule, evenly, from ``begins`` to ``until``."""

    @property
    def back_bar(self) -> int:
        """The give-back's bar, ``2 P + 2`` periods, ``P = max(3, ceil(20 / left))``."""
        return 2 * _pace(self.left) + 2

    def judged(self) -> dict[str, Any]:
        """The client's figures over the neighbour's stay (and the periods back after it left)."""
        own = self.service.of("client", self.begins, self.until)
        refused = sum(1 for arrival in own if not arrival.admitted)
        attempts = [
            _judge.Attempt(arrival.at / self.period, "ok" if arrival.admitted else "refused")
            for arrival in own
        ]
        learned = self.stays - 5
        return {
            "of_remainder": self.service.admitted_between(self.begins + 5 * self.period, self.until, "client")
            / (self.left * learned),
            "share_429": refused / len(own) if own else 0.0,
            "refused": refused,
            "sent": len(own),
            "ceiling": _judge.ceiling_breaches(attempts),
            "periods_back": self.service.periods_to_full(
                self.until,
                self.amount,
                period=self.period,
                within=(self.seconds - self.until) / self.period - 4,
            ),
        }


def _pace(left: int) -> int:
    """``P``: the periods between probes of the learner that preceded the law, at ``left`` a period."""
    return max(3, math.ceil(20 / left))


def _longest(workload: str) -> Rule:
    """The workload's longest rule: the neighbour's share, and what it leaves, are of its amount."""
    return max(NEIGHBOUR_WORKLOADS[workload][1], key=lambda r: r.period)


def _left(share: float, workload: str) -> int:
    """Whole requests a window of the longest rule holds beside the neighbour's most in one."""
    amount = _longest(workload).amount
    return amount - math.ceil(amount * share - 1e-9)


def _beside(share: float, seed: int, workload: str, start: float, stays: float, after: float) -> _Beside:
    request, rules = NEIGHBOUR_WORKLOADS[workload]
    rule = _longest(workload)
    amount, period = rule.amount, rule.period
    left = _left(share, workload)
    after = max(after, 2 * _pace(left) + 10)
    rng = random.Random(seed)
    begins, until = start * period, (start + stays) * period
    service = LimitedService(
        [SlidingWindow(r.amount, r.period) for r in rules], **_link(rng, 0.002 * period, 0.002 * period)
    )
    gap = period / (amount * share)
    phase = rng.uniform(0, gap)

    async def neighbour() -> None:
        await _evenly(service.sender("neighbour"), request, begins + phase, gap, until)

    return _Beside(
        request, rules, amount, period, left, begins, until, until + after * period, stays, service, neighbour
    )


async def _evenly(
    send: Callable[[Request], Awaitable[Response]], request: Request, at: float, gap: float, until: float
) -> None:
    """Send ``request`` once every ``gap`` seconds from ``at`` until ``until``, whatever comes back."""
    sending: set[asyncio.Task[Response]] = set()
    while at < until:
        await asyncio.sleep(max(0.0, at - virtual_loop().time()))
        task = asyncio.ensure_future(send(request))
        sending.add(task)
        task.add_done_callback(sending.discard)
        at += gap
    await asyncio.gather(*sending)


def neighbours(
    share: float,
    seed: int,
    *,
    workload: str = "reads",
    start: float = 10.0,
    stays: float = 40.0,
    after: float = 40.0,
) -> dict[str, Any]:
    """A workload from 30 tasks; from ``start`` an unseen neighbour sends ``share`` of its longest
    rule, evenly, for ``stays`` periods, then stops; the tasks go on ``after`` periods more (at least
    the ``2 P + 2`` the give-back may take, and eight to see it). The default, 40, also holds the
    law's slowest way back from a level the neighbour's arrival cut (a lent level: a probe twice
    ``span`` periods after a failed one, then its trials; ``docs/learning.md``, transitions 7, 10
    and 11), so that a give-back past its bar shows how long it took, not that it was not seen.

    Times are in periods of the longest rule (for reads, seconds); so is the link's delay. What is
    left is counted in whole requests a window holds beside the neighbour's (its most in a window:
    ``ceil(share x amount)``); ``P = max(3, ceil(20 / r))`` at ``r`` requests a period left (the
    give-back's bar, set by the learner that preceded the law from its probe pacing).
    """
    scene = _beside(share, seed, workload, start, stays, after)
    answers: list[Response] = []

    async def main() -> None:
        scheduler = Scheduler(
            RateLimits.unlimited().replace(scene.request.category, *scene.rules),
            RetryPolicy(rng=random.Random(seed)),
        )

        async def worker() -> None:
            while virtual_loop().time() < scene.seconds:
                answers.append(await scheduler.run(scene.request, scene.service.send))

        other = asyncio.ensure_future(scene.neighbour())
        await asyncio.gather(*(worker() for _ in range(30)))
        await other

    run_virtual(main)
    return {
        **scene.judged(),
        "back_bar": scene.back_bar,
        "failed": sum(1 for a in answers if a.status != 200),
    }


def neighbour_fixed(
    share: float, seed: int, rate: float, *, workload: str = "reads", start: float = 10.0, stays: float = 40.0
) -> dict[str, Any]:
    """:func:`neighbours`' scenario (the same service, link and neighbour for ``seed``) with a plain
    program in the library's place: ``rate`` requests a period, evenly, from the start until the
    neighbour leaves (at a phase of its own seed), whatever comes back."""
    scene = _beside(share, seed, workload, start, stays, 0.0)
    gap = scene.period / rate
    phase = random.Random(f"fixed {seed}").uniform(0, gap)

    async def main() -> None:
        mine = _evenly(scene.service.sender("client"), scene.request, phase, gap, scene.until)
        await asyncio.gather(scene.neighbour(), mine)

    run_virtual(main)
    return {**scene.judged(), "rate": rate / scene.left}


def neighbour_bound(
    share: float, seed: int, *, workload: str = "reads", start: float = 10.0, stays: float = 40.0
) -> dict[str, Any]:
    """The best fixed-rate program in hindsight beside :func:`neighbours`' neighbour, for ``seed``.

    A plain program sends evenly at one rate from the start until the neighbour leaves, in the
    same scenario (the same service, link and neighbour); the bound is the highest rate, up to
    what is left, whose run keeps the 429 ceiling (every program's bar), found by the scenarios'
    search over rates. What it admits while the neighbour stays is counted as the library's is.

    Answers that run's figures, with ``rate`` as a share of what is left (0, and no other figures,
    when no rate keeps the ceiling).
    """
    left = _left(share, workload)

    def run(rate: float) -> dict[str, Any]:
        return neighbour_fixed(share, seed, rate, workload=workload, start=start, stays=stays)

    async def evaluate(rates: list[float]) -> list[dict[str, Any]]:
        return [await asyncio.to_thread(run, rate) for rate in rates]

    found = asyncio.run(_judge.search(evaluate, lambda figures: not figures["ceiling"], left, rounds=4))
    if found.best is None:
        return {"rate": 0.0, "of_remainder": 0.0}
    return found.best


MODES: dict[str, dict[str, Any]] = {
    "sliding windows, refused count": {"count_refused": True},
    "sliding windows, refused not counted": {"count_refused": False},
    "token bucket, burst = 1 period": {"bucket": True},
}
"""The server's reading of its limits (as in ``bench_limit_mismatch``)."""


def _limiters(rules: Sequence[Rule], ratio: float, mode: str) -> list[Limiter]:
    spec = MODES[mode]
    out: list[Limiter] = []
    for rule in rules:
        amount = max(1, round(rule.amount * ratio))
        weighted = rule.per == "weight"
        if spec.get("bucket"):
            out.append(TokenBucket(amount, rule.period, burst=amount, per_weight=weighted))
        else:
            out.append(SlidingWindow(amount, rule.period, weighted, spec["count_refused"]))
    return out


def _ideal(units: dict[str, int], rules: Sequence[Rule], ratio: float, bucket: bool) -> float:
    worst = 0.0
    for rule in rules:
        amount = max(1, round(rule.amount * ratio))
        n = units[rule.per]
        periods = (n - amount) / amount if bucket else math.ceil(n / amount) - 1
        worst = max(worst, periods * rule.period)
    return worst


def learning_bound(units: dict[str, int], rules: Sequence[Rule], ratio: float, mode: str) -> float:
    """The provable bound on the time of any client that learns the real limit, in seconds.

    A client believing the configured limits learns a lower real one only from a 429: without
    one it cannot tell the real limit from the configured one, which it must fill when that is
    the real one. A service that counts refused requests (or takes their tokens) counts that 429
    like an admitted request, so the client needs the slots of one request more than the ideal:
    the bound is the ideal of ``n + 1`` requests. Where refusals are not counted, it is the ideal.
    """
    spec = MODES[mode]
    bucket = bool(spec.get("bucket"))
    if not (bucket or spec.get("count_refused")):
        return _ideal(units, rules, ratio, bucket)
    weight = units["weight"] // units["request"]
    more = {"request": units["request"] + 1, "weight": units["weight"] + weight}
    return _ideal(more, rules, ratio, bucket)


MISMATCH_WORKLOADS = ("reads", "imports", "optimize")
"""The matrix's workloads: reads and imports at the contract's limits, optimize at the public
documentation's (100 per 10 minutes, at most 30 per minute: the contract's 3 per minute has no
tenth in whole requests)."""


def mismatch(workload: str, mode: str, ratio: float, seed: int) -> dict[str, Any]:
    """``bench_limit_mismatch``'s matrix run in virtual time, at the contract's real limits:
    400 reads from 50 tasks, 20,000 stops in batches of 100 from 10 tasks, or 60 optimizations
    from 10 tasks at the public documentation's limits."""
    rng = random.Random(seed)
    bucket = bool(MODES[mode].get("bucket"))
    configured = CONTRACT
    rules: Sequence[Rule]
    if workload == "optimize":
        configured = RateLimits.public_docs()
        rules = configured.for_category(Category.OPTIMIZE)
        service = LimitedService(_limiters(rules, ratio, mode), **_link(rng, 0.02, 0.01))
        n, tasks, request = 60, 10, OPTIMIZE
        units = {"request": n, "weight": n}
    elif workload == "reads":
        rules = (READ_RULE,)
        service = LimitedService(_limiters(rules, ratio, mode), **_link(rng, 0.002, 0.002))
        n, tasks, request = 400, 50, READ
        units = {"request": n, "weight": n}
    else:
        rules = IMPORT_RULES
        service = LimitedService(_limiters(rules, ratio, mode), **_link(rng, 0.02, 0.01))
        n, tasks, request = 200, 10, IMPORT
        units = {"request": n, "weight": 100 * n}

    async def main() -> tuple[float, list[Response]]:
        scheduler = Scheduler(configured, RetryPolicy(rng=random.Random(seed)))
        answers = await run_requests(scheduler, request, service.send, n, tasks)
        return virtual_loop().time(), answers

    elapsed, answers = run_virtual(main)
    admitted = [a.at for a in service.arrivals if a.admitted]
    last_latency = elapsed - max(admitted) if admitted else 0.0
    ideal = _ideal(units, rules, ratio, bucket) + last_latency
    bound = learning_bound(units, rules, ratio, mode) + last_latency
    refused = service.refused
    return {
        "ratio_to_ideal": elapsed / ideal if ideal else math.nan,
        "bound_to_ideal": bound / ideal if ideal else math.nan,
        "share_429": refused / len(service.arrivals),
        "refused": refused,
        "sent": len(service.arrivals),
        "failed": sum(1 for a in answers if a.status != 200),
    }
