"""The limit-mismatch benchmark's ground: its bars, the server's readings of its limits,
the sizes of its scenarios, the real limits it runs against and the measures of a run.

``bench_limit_mismatch.py`` runs the scenarios and ``_report.py`` reports them;
both take these from here.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from typing import Any

import attrs

from route_planning_async import Category, RateLimits, Rule
from route_planning_async.emulator import RequestLog

# ------------------------------------------------------------------ bars

TIME_BARS = {0.8: 1.25, 0.5: 1.25, 0.3: 1.35, 0.1: 1.5}
"""Acceptance: time / ideal at the real limit, per ratio of the real to the configured limit."""
SHARE_429_BAR = 0.05
"""Acceptance: 429s as a share of the requests sent, every matrix run and the penalty mode (the
service's rule, the v1 description's "Rate limiting"; every run here sends 60 requests or more)."""
LATENCY_UTILIZATION_BAR = 0.95
"""Acceptance over a slow link (default windows): utilization of the limit."""
LATENCY_429_BAR = 0.01
"""Acceptance over a slow link (default windows): 429s as a share of the requests sent."""
RECOVERY_BAR = 12.0
"""Acceptance: periods from the limit's return until the client is back at 95% of it: 2 P + 2, P
``max(3, ceil(20 / r))`` at the ``r`` = 4 requests a period the drop leaves (a bar set by the learner
that preceded the law, from its probe pacing)."""
RECOVERY_LEVEL = 0.95
BASELINE_CAP = 1.25
"""A baseline is stopped after this many times the ideal time (plus 0.5 s), as in bench_import."""

RATIOS = (1.0, 0.8, 0.5, 0.3, 0.1)
"""Real limit / configured limit."""
CONTRACT = "sliding windows, refused count"
"""The contract's own reading of its limits (and the emulator's default)."""
MODES: dict[str, dict[str, Any]] = {
    CONTRACT: {"limiter": "sliding_window", "count_rejected": True},
    "sliding windows, refused not counted": {"limiter": "sliding_window", "count_rejected": False},
    "token bucket, burst = 1 period": {"limiter": "token_bucket", "burst": 1.0, "count_rejected": True},
}
"""The server's reading of its limits, by table label; EmulatorConfig fields."""
MODE_TEXT = {
    CONTRACT: "exact sliding windows, a refused request occupies the window like an admitted one "
    "(the contract's rule)",
    "sliding windows, refused not counted": "exact sliding windows of admitted requests only",
    "token bucket, burst = 1 period": "a bucket of one period's amount, refilled continuously; a refused "
    "request takes its tokens too, down to an empty bucket",
}
BATCH = 100
PLAN_DATE = datetime.date(2030, 1, 7)
CONFIGURED = RateLimits.default()
"""The client's belief, always (sped up per scenario)."""
BASELINES = ("(b) fixed sleeps", "(c) aiolimiter + retry on 429", "(d) concurrent + backoff & jitter")
"""The baselines beside the library ((a), sequential without a limiter, is in the other benchmarks)."""


Case = tuple[str, str, float]
"""One matrix run: workload (``reads`` or ``imports``), server rule (a key of MODES), real / configured."""


def _grid(workload: str, modes: Sequence[str], ratios: Sequence[float]) -> tuple[Case, ...]:
    return tuple((workload, mode, ratio) for mode in modes for ratio in ratios)


@attrs.frozen
class Sizes:
    """How big each scenario is; the full run must stay within a few minutes on 2 cores."""

    reads: int
    read_tasks: int
    read_speedup: float
    stops: int
    import_speedup: float
    cases: tuple[Case, ...]
    """The matrix runs, in the order of the tables."""
    baseline_cases: frozenset[Case]
    """The matrix runs that also run the baselines."""
    latency_reads: int
    latency_speedup: float
    latencies: tuple[float, ...]
    """One-way latency at contract scale (seconds); divided by the speed-up on the link."""
    latency_baselines: tuple[float, ...]
    """The latencies whose runs also run the baselines."""
    jitter: float
    penalty_reads: int
    penalty_speedup: float
    penalty_threshold: float
    penalty_after: float
    drop_reads: int
    drop_speedup: float
    drop_at: float
    """Contract seconds into the run when the read limit drops to 0.4x."""
    return_at: float
    """Contract seconds into the run when it comes back."""
    baselines: bool = True


def sizes_for(quick: bool) -> Sizes:
    if quick:
        return Sizes(
            reads=60,
            read_tasks=20,
            read_speedup=50.0,
            stops=2_000,
            import_speedup=1200.0,
            cases=(*_grid("reads", [CONTRACT], (1.0, 0.5)), *_grid("imports", [CONTRACT], (1.0, 0.5))),
            baseline_cases=frozenset({("reads", CONTRACT, 0.5)}),
            latency_reads=40,
            latency_speedup=20.0,
            latencies=(0.05,),
            latency_baselines=(),
            jitter=0.01,
            penalty_reads=80,
            penalty_speedup=50.0,
            penalty_threshold=0.9,
            penalty_after=3.0,
            drop_reads=80,
            drop_speedup=50.0,
            drop_at=2.0,
            return_at=5.0,
            baselines=False,
        )
    # Reads at speed-up 20: a 50 ms window, ~25 loopback round trips; 400 reads are 40 windows at
    # 1.0x and 133 at 0.3x, so the 7 refusals of the first window at 0.3x are < 2% of the requests.
    # Imports at speed-up 300: a 200 ms window, ~20 import latencies (at 600 the per-window margin
    # of a few import round trips alone cost 1.3x the ideal at 1.0x); 20,000 stops are 200 requests,
    # 20 windows at 1.0x and 67 at 0.3x (the first window's 7 refusals: 3.5%). Imports under the
    # other two rules at 0.5x only, and the baselines where listed: most of them run to their cap,
    # and beside every run they would double the time. The latency runs keep the contract's
    # proportions: a 1 s window and 50/150 ms one-way delays, all divided by 4. The drop runs at
    # speed-up 5: a 200 ms window, so that a client at the limit holds ~98% of its slots and the
    # 95% level measures the recovery, not the loopback's noise.
    return Sizes(
        reads=400,
        read_tasks=50,
        read_speedup=20.0,
        stops=20_000,
        import_speedup=300.0,
        cases=(
            *_grid("reads", list(MODES), RATIOS),
            *_grid("imports", [CONTRACT], RATIOS),
            *_grid("imports", [m for m in MODES if m != CONTRACT], (0.5,)),
        ),
        baseline_cases=frozenset(
            {
                *_grid("reads", [CONTRACT], (0.8, 0.5, 0.3)),
                *_grid("reads", list(MODES), (0.5,)),
                *_grid("imports", [CONTRACT, "sliding windows, refused not counted"], (0.5,)),
            }
        ),
        latency_reads=200,
        latency_speedup=4.0,
        latencies=(0.05, 0.15),
        latency_baselines=(0.15,),
        jitter=0.01,
        penalty_reads=600,
        penalty_speedup=20.0,
        penalty_threshold=0.9,
        penalty_after=3.0,
        drop_reads=400,
        drop_speedup=5.0,
        drop_at=10.0,
        return_at=22.0,
    )


# ------------------------------------------------------------ limits


def read_rule(ratio: float) -> Rule:
    rule = CONFIGURED.for_category(Category.READ)[0]
    return Rule(max(1, round(rule.amount * ratio)), rule.period)


def import_rules(ratio: float) -> tuple[Rule, ...]:
    return tuple(
        Rule(max(1, round(r.amount * ratio)), r.period, r.per)
        for r in CONFIGURED.for_category(Category.BATCH_IMPORT)
    )


def real_limits(workload: str, ratio: float) -> RateLimits:
    """The configured limits with the measured category at ``ratio`` of itself."""
    if workload == "reads":
        return CONFIGURED.replace(Category.READ, read_rule(ratio))
    return CONFIGURED.replace(Category.BATCH_IMPORT, *import_rules(ratio))


def ideal_periods(units: dict[str, int], rules: Sequence[Rule], bucket: bool) -> float:
    """Periods between the first and the last admission at best, the slowest rule deciding."""
    worst = 0.0
    for rule in rules:
        n = units[rule.per]
        worst = max(worst, (n - rule.amount) / rule.amount if bucket else math.ceil(n / rule.amount) - 1)
    return max(worst, 0.0)


def limit_label(ratio: float, workload: str) -> str:
    if workload == "reads":
        return f"{ratio:g}x: {read_rule(ratio).amount}/s"
    req, stops = import_rules(ratio)
    return f"{ratio:g}x: {req.amount} req, {stops.amount:,} stops/min"


# ------------------------------------------------------------ measures


def slot_occupancy(times: Sequence[float], amount: int, period: float, since: float, until: float) -> float:
    """The share of the limit's ``amount`` slots held during ``[since, until)`` by admissions at ``times``.

    An admission at ``t`` holds one slot of the server's window during ``[t, t + period)``; a
    client at exactly the limit holds all of them, whatever the alignment of the interval.
    """
    held = sum(max(0.0, min(t + period, until) - max(t, since)) for t in times)
    return held / (amount * (until - since))


def recovery_periods(
    times: Sequence[float],
    amount: int,
    period: float,
    since: float,
    until: float,
    level: float = RECOVERY_LEVEL,
) -> tuple[int | None, list[float]]:
    """Whole periods from ``since`` (the limit's return) to the first window after which every window is full.

    The windows are ``[since + k P, since + (k + 1) P)`` up to ``until`` (the last admission, so
    the load was still pending); a window is full when its :func:`slot_occupancy` is at least
    ``level``. The answer is the smallest ``k`` such that window ``k`` and every later one are full
    (0: back at once), None when the last window is not; with the occupancy of every window.
    """
    occupancy = []
    k = 0
    while since + (k + 1) * period <= until:
        start = since + k * period
        occupancy.append(slot_occupancy(times, amount, period, start, start + period))
        k += 1
    if not occupancy or occupancy[-1] < level:
        return None, occupancy
    first = len(occupancy) - 1
    while first > 0 and occupancy[first - 1] >= level:
        first -= 1
    return first, occupancy


def traffic(log: RequestLog, category: str) -> dict[str, Any]:
    records = log.select(category)
    admitted = sum(1 for r in records if r.admitted)
    rejected = len(log.rejected(category))
    sent = admitted + rejected
    return {
        "sent": sent,
        "admitted": admitted,
        "rejected_429": rejected,
        "share_429": rejected / sent if sent else math.nan,
        "admitted_weight": sum(r.weight for r in records if r.admitted),
        "times": sorted(r.time for r in records if r.admitted),
        "limit_changes": [c.time for c in log.limit_changes],
    }


def pct(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{100 * value:.1f}%"
