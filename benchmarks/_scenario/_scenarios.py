"""Seeded scenarios for ``python -m benchmarks scenarios``: who else sends on the key, when.

A :class:`Scenario` is plain data drawn from ``random.Random(f"{family}/{seed}")``: the same
family and seed give the same scenario on any machine. Time is counted in periods of the
measured category (reads: 10 per second at the configured limits), from the start of the run.

The families (:data:`FAMILIES`):

``steady``, ``poisson``, ``bursty``, ``ramping``, ``onoff``
    one program of this library beside one neighbour of that kind (a plain program that
    sends on its own schedule, whatever the answers): evenly at 30-70 % of the limit; at
    random (Poisson) times, 20-50 % (never more than 70 % in a period); in bursts of 30-60 % of
    a period's amount at once every 2-5 periods; ramping from nothing up to 50-80 % and back;
    on (40-70 %) and off for 3-8 periods each;
``copies``
    2 to 4 programs of this library on the key, each its own client with its own memory; in
    half the scenarios one of them arrives after 5-15 periods, in half one leaves after 25-35;
``jitter``
    one program beside an even neighbour at 0-50 %, every program behind a link of 1-10 ms
    each way plus 0-20 ms of jitter (real milliseconds at the speed-up: a tenth to a third of
    a period);
``limits``
    one program alone against a real limit of 0.1 to 1x the configured one (first contact);
``storm``
    one program alone; after 8-12 periods the service answers every request of the key 429 for
    as long as 25 requests take at the configured limit (injected: the service's own storm).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import attrs

__all__ = ["FAMILIES", "NEIGHBOUR_FAMILIES", "Copy", "Link", "Neighbour", "Scenario", "draw"]

NEIGHBOUR_FAMILIES = ("steady", "poisson", "bursty", "ramping", "onoff")
FAMILIES = (*NEIGHBOUR_FAMILIES, "copies", "jitter", "limits", "storm")

PERIODS = 40
"""Periods in a run: enough for a steady state after the first contact (10 periods) and for the
storm's 20 periods of recovery, short enough for 40 seeds of every family in about 40 minutes."""

AMOUNT = 10
"""The configured amount of the measured category (reads: 10 a period of one second)."""


@attrs.frozen
class Neighbour:
    """A plain program on the key that sends at ``times`` (periods from the start), whatever the answers."""

    kind: str
    times: tuple[float, ...]
    share: float
    """Its mean (or peak, for ``ramping`` and ``onoff``) rate as a fraction of the real limit."""


@attrs.frozen
class Copy:
    """One program of this library (its own client, its own memory), present from ``arrive`` to ``leave``."""

    arrive: float = 0.0
    leave: float = PERIODS


@attrs.frozen
class Link:
    """Each program's link: ``delay`` seconds each way plus up to ``jitter`` more, drawn per request."""

    delay: float = 0.0
    jitter: float = 0.0


@attrs.frozen
class Scenario:
    """One scenario: everything the run needs, drawn from a family and a seed."""

    family: str
    seed: int
    amount: int
    """The real limit's amount per period (the client is configured with :data:`AMOUNT`)."""
    copies: tuple[Copy, ...] = (Copy(),)
    neighbours: tuple[Neighbour, ...] = ()
    link: Link = Link()
    storm_at: float | None = None
    """When the service's storm (``_scenario_run.STORM``) begins (periods), if there is one."""
    periods: int = PERIODS

    @property
    def name(self) -> str:
        return f"{self.family}/{self.seed}"

    def neighbour_rate(self, start: float, end: float) -> float:
        """The neighbours' sends per period in ``[start, end)``."""
        sent = sum(1 for n in self.neighbours for t in n.times if start <= t < end)
        return sent / (end - start)


def _even(rate: float, start: float, end: float, phase: float) -> list[float]:
    if rate <= 0:
        return []
    step = 1.0 / rate
    times, t = [], start + phase * step
    while t < end:
        times.append(t)
        t += step
    return times


def _neighbour(kind: str, rng: random.Random, amount: int, periods: int) -> Neighbour:
    if kind == "steady":
        share = rng.uniform(0.3, 0.7)
        times = _even(share * amount, 0.0, periods, rng.random())
    elif kind == "poisson":
        share = rng.uniform(0.2, 0.5)
        times, t = [], 0.0
        cap = int(0.7 * amount)
        while True:
            t += rng.expovariate(share * amount)
            if t >= periods:
                break
            # A clump beyond 70 % of the limit in a period is dropped: the neighbour alone stays
            # clear of the limit (and of the lockout it would bring on the whole key).
            if sum(1 for earlier in times[-cap:] if earlier > t - 1.0) < cap:
                times.append(t)
    elif kind == "bursty":
        share = rng.uniform(0.3, 0.6)
        every = rng.randint(2, 5)
        size = max(1, round(share * amount))
        first = rng.uniform(0.0, every)
        times = []
        burst = first
        while burst < periods:
            times.extend(burst + i * 1e-4 for i in range(size))
            burst += every
        share = size / (every * amount)
    elif kind == "ramping":
        share = rng.uniform(0.5, 0.8)
        # Up to the peak at the middle and back: the rate at t is peak * (1 - |2t/T - 1|).
        times, t = [], 0.0
        peak = share * amount
        while t < periods:
            rate = max(peak * (1.0 - abs(2.0 * t / periods - 1.0)), peak / 20)
            t += 1.0 / rate
            if t < periods:
                times.append(t)
    elif kind == "onoff":
        share = rng.uniform(0.4, 0.7)
        on, off = rng.randint(3, 8), rng.randint(3, 8)
        times = []
        start = rng.uniform(0.0, off)
        while start < periods:
            times.extend(_even(share * amount, start, min(start + on, periods), 0.0))
            start += on + off
    else:
        raise ValueError(f"unknown neighbour kind {kind!r}")
    return Neighbour(kind, tuple(round(t, 6) for t in times), round(share, 4))


def draw(family: str, seed: int) -> Scenario:
    """The scenario of ``family`` drawn with ``seed`` (the same on every call)."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; the families are {', '.join(FAMILIES)}")
    rng = random.Random(f"{family}/{seed}")
    periods = PERIODS
    if family in NEIGHBOUR_FAMILIES:
        return Scenario(family, seed, AMOUNT, neighbours=(_neighbour(family, rng, AMOUNT, periods),))
    if family == "copies":
        k = rng.randint(2, 4)
        copies = [Copy() for _ in range(k)]
        if rng.random() < 0.5:
            copies[-1] = Copy(arrive=float(rng.randint(5, 15)))
        if rng.random() < 0.5:
            copies[0] = attrs.evolve(copies[0], leave=float(rng.randint(25, 35)))
        return Scenario(family, seed, AMOUNT, copies=tuple(copies))
    if family == "jitter":
        share = rng.uniform(0.0, 0.5)
        neighbour = Neighbour(
            "steady", tuple(_even(share * AMOUNT, 0.0, periods, rng.random())), round(share, 4)
        )
        link = Link(round(rng.uniform(0.001, 0.010), 4), round(rng.uniform(0.0, 0.020), 4))
        return Scenario(family, seed, AMOUNT, neighbours=(neighbour,) if neighbour.times else (), link=link)
    if family == "limits":
        amount = max(1, round(AMOUNT * rng.uniform(0.1, 1.0)))
        return Scenario(family, seed, amount)
    # storm
    return Scenario(family, seed, AMOUNT, storm_at=float(rng.randint(8, 12)))


def seeds(text: str) -> list[int]:
    """``"0-9"``, ``"3"`` or ``"0-4,10"`` as a list of seeds."""
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out.extend(range(int(low), int(high or low) + 1))
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method (the 10th percentile of 40 values is the 4th)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]
