"""8. Limit mismatch: the service's real limits differ from the client's configured ones.

The client is always configured with ``RateLimits.default()`` (sped up); the
emulator, in its own process, enforces limits of its own:

- **matrix**: reads (``plans.get`` from many tasks) and a bulk import
  (``stops.import_many``) against a real limit of 1.0, 0.8, 0.5 and 0.3 times the
  configured one, read by the server as exact sliding windows where refused
  requests count, as sliding windows where they do not, and as a token bucket
  whose burst is one period's amount (refused requests take tokens too);
- **latency**: reads over a link with one-way latency and jitter, with the
  default (send-time) windows and with ``strict_windows=True``;
- **penalty**: reads against the sustained-use penalty (``punish_sustained``);
- **drop**: reads while the limit drops to 0.4 of itself and comes back.

Beside the library run the baselines of ``baselines.py`` (fixed sleeps,
aiolimiter plus retry, backoff and jitter), configured with the same belief
(the default limits), against the same emulator settings in the same run: in
every latency, penalty and drop scenario, and in the matrix runs that
``Sizes.baseline_cases`` lists (the settings line of RESULTS.md names them).

Ideal time at the real limit ``L`` per period ``P`` (the first window is free):
with sliding windows, ``(ceil(N / L) - 1) x P``; with a token bucket of ``L``
tokens refilled at ``L / P``, ``(N - L) / L x P``; for imports, per rule (requests
of 100 stops, and stops), the larger; plus the measured latency of the last
request of the library, as in ``bench_import``.
"""

from __future__ import annotations

import asyncio
import datetime
import math
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from benchmarks import baselines
from benchmarks._emu import EmulatorServer, category_figures
from benchmarks._figures import check, result, rounded, table
from benchmarks._payloads import stop_inputs
from benchmarks._tracing import Latencies
from route_planning_async import Category, RateLimits, RoutePlanningClient, RoutePlanningError, Rule
from route_planning_async.emulator import PunishSustained, RequestLog

# ------------------------------------------------------------------ bars

TIME_BARS = {0.8: 1.25, 0.5: 1.25, 0.3: 1.35}
"""Acceptance: time / ideal at the real limit, per ratio of the real to the configured limit."""
SHARE_429_BAR = 0.05
"""Acceptance: 429s as a share of the requests sent, every matrix run and the penalty mode."""
LATENCY_UTILIZATION_BAR = 0.95
"""Acceptance over a slow link (default windows): utilization of the limit."""
LATENCY_429_BAR = 0.01
"""Acceptance over a slow link (default windows): 429s as a share of the requests sent."""
RECOVERY_BAR = 5.0
"""Acceptance: periods from the limit's return until the client is back at 95% of it."""
RECOVERY_LEVEL = 0.95
BASELINE_CAP = 1.25
"""A baseline is stopped after this many times the ideal time (plus 0.5 s), as in bench_import."""

RATIOS = (1.0, 0.8, 0.5, 0.3)
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


def _sizes(quick: bool) -> Sizes:
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
        drop_reads=270,
        drop_speedup=5.0,
        drop_at=10.0,
        return_at=22.0,
    )


# ------------------------------------------------------------ limits


def _read_rule(ratio: float) -> Rule:
    rule = CONFIGURED.for_category(Category.READ)[0]
    return Rule(max(1, round(rule.amount * ratio)), rule.period)


def _import_rules(ratio: float) -> tuple[Rule, ...]:
    return tuple(
        Rule(max(1, round(r.amount * ratio)), r.period, r.per)
        for r in CONFIGURED.for_category(Category.BATCH_IMPORT)
    )


def _real_limits(workload: str, ratio: float) -> RateLimits:
    """The configured limits with the measured category at ``ratio`` of itself."""
    if workload == "reads":
        return CONFIGURED.replace(Category.READ, _read_rule(ratio))
    return CONFIGURED.replace(Category.BATCH_IMPORT, *_import_rules(ratio))


def _ideal_periods(units: dict[str, int], rules: Sequence[Rule], bucket: bool) -> float:
    """Periods between the first and the last admission at best, the slowest rule deciding."""
    worst = 0.0
    for rule in rules:
        n = units[rule.per]
        worst = max(worst, (n - rule.amount) / rule.amount if bucket else math.ceil(n / rule.amount) - 1)
    return max(worst, 0.0)


def _label(ratio: float, workload: str) -> str:
    if workload == "reads":
        return f"{ratio:g}x: {_read_rule(ratio).amount}/s"
    req, stops = _import_rules(ratio)
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


def _traffic(log: RequestLog, category: str) -> dict[str, Any]:
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


def _pct(value: float | None) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


# ------------------------------------------------------------ runs


def _client_kwargs(server: EmulatorServer, limits: RateLimits) -> dict[str, Any]:
    return {
        "base_url": server.base_url,
        "ssl": server.ssl_context,
        "rate_limits": limits.scaled(server.speedup),
    }


async def _fresh_plan(server: EmulatorServer, title: str, schedule: bool = False) -> str:
    """A plan to read or import into; the setup traffic is then forgotten by the log and the limiter
    (and with ``schedule`` the emulator's limit schedule starts over)."""
    async with RoutePlanningClient(server.api_key, **_client_kwargs(server, CONFIGURED)) as client:
        plan = await client.plans.create(title=title, starts=PLAN_DATE)
    server.reset()
    if schedule:
        server.restart_limit_schedule()
    return plan.id


def _split(n: int, parts: int) -> list[int]:
    return [n // parts + (1 if i < n % parts else 0) for i in range(parts)]


async def _library_reads(
    server: EmulatorServer,
    n: int,
    tasks: int,
    cap: float,
    limits: RateLimits = CONFIGURED,
    schedule: bool = False,
) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, "bench reads", schedule)
    latencies = Latencies()
    failures: Counter[str] = Counter()
    done = 0
    async with (
        latencies.session() as session,
        RoutePlanningClient(server.api_key, session=session, **_client_kwargs(server, limits)) as client,
    ):

        async def task(count: int) -> None:
            nonlocal done
            for _ in range(count):
                try:
                    await client.plans.get(plan_id)
                    done += 1
                except RoutePlanningError as exc:
                    failures[type(exc).__name__] += 1

        started = time.monotonic()
        finished = True
        try:
            async with asyncio.timeout(cap):
                await asyncio.gather(*(task(k) for k in _split(n, tasks)))
        except TimeoutError:
            finished = False
        elapsed = time.monotonic() - started
        stats = client.stats[Category.READ]
    last = latencies.last_started()
    return {
        "finished": finished,
        "started": started,
        "elapsed": elapsed,
        "done": done,
        "failed": n - done,
        "failures": dict(failures),
        "last_latency": last[1] - last[0] if last else math.nan,
        "client_429": stats.rate_limited,
        "learned": [repr(r) for r in getattr(stats, "learned_limits", ())],
        "traffic": _traffic(server.log(), "read"),
    }


async def _library_import(server: EmulatorServer, n: int, cap: float) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, "bench import")
    latencies = Latencies()
    async with (
        latencies.session() as session,
        RoutePlanningClient(server.api_key, session=session, **_client_kwargs(server, CONFIGURED)) as client,
    ):
        started = time.monotonic()
        try:
            report = await asyncio.wait_for(client.stops.import_many(plan_id, stop_inputs(n)), cap)
        except TimeoutError:
            report = None
        elapsed = time.monotonic() - started
        stats = client.stats[Category.BATCH_IMPORT]
    last = latencies.last_started(":import")
    created = report.created if report is not None else 0
    return {
        "finished": report is not None,
        "started": started,
        "elapsed": elapsed,
        "done": created,
        "failed": n - created,
        "report": repr(report),
        "last_latency": last[1] - last[0] if last else math.nan,
        "client_429": stats.rate_limited,
        "learned": [repr(r) for r in getattr(stats, "learned_limits", ())],
        "traffic": _traffic(server.log(), "batch_import"),
    }


def _read_workload(plan_id: str, n: int, tasks: int) -> list[list[baselines.Call]]:
    bare = plan_id.split("/", 1)[1]
    return [[baselines.Call("GET", f"/plans/{bare}", "read")] * k for k in _split(n, tasks)]


def _import_workload(plan_id: str, n: int) -> list[list[baselines.Call]]:
    return baselines.import_calls(plan_id, n, BATCH)


BASELINES = ("(b) fixed sleeps", "(c) aiolimiter + retry on 429", "(d) concurrent + backoff & jitter")
"""The baselines beside the library ((a), sequential without a limiter, is in the other benchmarks)."""


async def _baseline(
    server: EmulatorServer, name: str, workload: str, n: int, tasks: int, cap: float, schedule: bool = False
) -> dict[str, Any]:
    plan_id = await _fresh_plan(server, f"bench {workload}", schedule)
    calls = _read_workload(plan_id, n, tasks) if workload == "reads" else _import_workload(plan_id, n)
    target = baselines.Target(server.base_url, server.api_key, server.ssl_context)
    strategy = baselines.strategies(CONFIGURED.scaled(server.speedup))[name]
    started = time.monotonic()
    out = await baselines.run_capped(strategy, target, calls, server.speedup, cap)
    out["started"] = started
    out["elapsed"] = out["seconds"]
    out["traffic"] = _traffic(server.log(), "read" if workload == "reads" else "batch_import")
    out["done"] = out["weight_ok"]
    out["failed"] = out["weight_total"] - out["weight_ok"]
    return out


# ------------------------------------------------------------ scenarios


def _matrix_case(sizes: Sizes, workload: str, mode: str, ratio: float) -> dict[str, Any]:
    real = _real_limits(workload, ratio)
    reads = workload == "reads"
    speedup = sizes.read_speedup if reads else sizes.import_speedup
    n = sizes.reads if reads else sizes.stops
    category = Category.READ if reads else Category.BATCH_IMPORT
    rules = real.for_category(category)
    period = rules[0].period / speedup
    units = {"request": n if reads else math.ceil(n / BATCH), "weight": n}
    schedule = _ideal_periods(units, rules, MODES[mode]["limiter"] == "token_bucket") * period
    with EmulatorServer(limits=real, speedup=speedup, tls=False, **MODES[mode]) as server:
        cap = 6 * schedule / min(ratio, 1.0) + 10
        if reads:
            lib = asyncio.run(_library_reads(server, n, sizes.read_tasks, cap))
        else:
            lib = asyncio.run(_library_import(server, n, cap))
        ideal = schedule + (lib["last_latency"] if math.isfinite(lib["last_latency"]) else 0.0)
        lib["ideal"] = ideal
        lib["ratio"] = lib["elapsed"] / ideal if lib["finished"] else math.inf
        lib["share_429"] = lib["traffic"]["share_429"]
        outs: dict[str, Any] = {}
        if sizes.baselines and (workload, mode, ratio) in sizes.baseline_cases:
            base_cap = BASELINE_CAP * ideal + 0.5
            for name in BASELINES:
                outs[name] = asyncio.run(_baseline(server, name, workload, n, sizes.read_tasks, base_cap))
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return {"workload": workload, "mode": mode, "ratio": ratio, "library": lib, "baselines": outs}


def _latency_case(sizes: Sizes, latency: float) -> dict[str, Any]:
    speedup = sizes.latency_speedup
    rule = CONFIGURED.for_category(Category.READ)[0]
    period = rule.period / speedup
    n = sizes.latency_reads
    settings = {"latency": latency / speedup, "latency_jitter": sizes.jitter / speedup, "seed": 7}
    out: dict[str, Any] = {"latency": latency}
    with EmulatorServer(limits=CONFIGURED, speedup=speedup, tls=False, **settings) as server:
        for label, limits in (
            ("library", CONFIGURED),
            ("strict", attrs.evolve(CONFIGURED, strict_windows=True)),
        ):
            run = asyncio.run(
                _library_reads(server, n, sizes.read_tasks, 20 * n / rule.amount * period + 10, limits)
            )
            log = server.log()
            run["utilization"] = category_figures(log, CONFIGURED, speedup, "read")["utilization"]
            out[label] = run
        ideal = (math.ceil(n / rule.amount) - 1) * period + 2 * (latency + sizes.jitter) / speedup
        out["ideal"] = ideal
        out["baselines"] = {}
        if sizes.baselines and latency in sizes.latency_baselines:
            for name in BASELINES:
                base = asyncio.run(
                    _baseline(server, name, "reads", n, sizes.read_tasks, BASELINE_CAP * ideal + 0.5)
                )
                base["utilization"] = category_figures(server.log(), CONFIGURED, speedup, "read")[
                    "utilization"
                ]
                out["baselines"][name] = base
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return out


def _penalty(sizes: Sizes) -> dict[str, Any]:
    speedup = sizes.penalty_speedup
    rule = CONFIGURED.for_category(Category.READ)[0]
    period = rule.period / speedup
    n = sizes.penalty_reads
    penalty = PunishSustained(sizes.penalty_threshold, sizes.penalty_after)
    out: dict[str, Any] = {}

    def settled(times: list[float]) -> float | None:
        """Slot occupancy over the second half of the run (the level the client settled at)."""
        if len(times) < 2 or times[-1] - times[0] < 4 * period:
            return None
        mid = (times[0] + times[-1]) / 2
        return slot_occupancy(times, rule.amount, period, mid, times[-1])

    with EmulatorServer(limits=CONFIGURED, speedup=speedup, tls=False, punish_sustained=penalty) as server:
        lib = asyncio.run(_library_reads(server, n, sizes.read_tasks, 40 * n / rule.amount * period + 10))
        lib["utilization"] = category_figures(server.log(), CONFIGURED, speedup, "read")["utilization"]
        lib["settled"] = settled(lib["traffic"]["times"])
        out["library"] = lib
        # What the client may use without drawing the penalty: just under the threshold.
        ideal = (math.ceil(n / (rule.amount * sizes.penalty_threshold)) - 1) * period
        out["ideal"] = ideal
        out["baselines"] = {}
        if sizes.baselines:
            for name in BASELINES:
                base = asyncio.run(
                    _baseline(server, name, "reads", n, sizes.read_tasks, BASELINE_CAP * ideal + 0.5)
                )
                base["utilization"] = category_figures(server.log(), CONFIGURED, speedup, "read")[
                    "utilization"
                ]
                base["settled"] = settled(base["traffic"]["times"])
                out["baselines"][name] = base
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return out


def _drop(sizes: Sizes) -> dict[str, Any]:
    speedup = sizes.drop_speedup
    rule = CONFIGURED.for_category(Category.READ)[0]
    low = CONFIGURED.replace(Category.READ, Rule(max(1, round(rule.amount * 0.4)), rule.period))
    period = rule.period / speedup
    n = sizes.drop_reads
    schedule = [(sizes.drop_at, low), (sizes.return_at, CONFIGURED)]
    out: dict[str, Any] = {"low": low.for_category(Category.READ)[0].amount}

    def measure(run: dict[str, Any]) -> dict[str, Any]:
        # The schedule restarts just before each run: its last two changes are the drop and the return.
        times = run["traffic"]["times"]
        drop, back = run["traffic"]["limit_changes"][-2:]
        k, windows = recovery_periods(times, rule.amount, period, back, times[-1] if times else back)
        run["recovery_periods"] = k
        run["windows_after_return"] = [round(w, 3) for w in windows]
        run["windows_measured"] = len(windows)
        # How much of the lowered limit was used once the drop was two periods old.
        run["occupancy_during_drop"] = (
            slot_occupancy(times, out["low"], period, drop + 2 * period, back)
            if back > drop + 2 * period
            else None
        )
        return run

    with EmulatorServer(limits=CONFIGURED, speedup=speedup, tls=False, limit_schedule=schedule) as server:
        # The ideal: every read the real limits allow, at full rate before and after the drop.
        low_reads = out["low"] * (sizes.return_at - sizes.drop_at)
        after = max(0.0, n - rule.amount * sizes.drop_at - low_reads) / rule.amount
        ideal = (sizes.return_at + after) * period
        out["ideal"] = ideal
        cap = 4 * ideal + 10
        out["library"] = measure(asyncio.run(_library_reads(server, n, sizes.read_tasks, cap, schedule=True)))
        out["baselines"] = {}
        if sizes.baselines:
            for name in BASELINES:
                base_cap = BASELINE_CAP * ideal + 0.5
                base = asyncio.run(
                    _baseline(server, name, "reads", n, sizes.read_tasks, base_cap, schedule=True)
                )
                out["baselines"][name] = measure(base)
        errors = server.internal_errors()
    if errors:
        raise RuntimeError(f"the emulator raised: {errors}")
    return out


# ------------------------------------------------------------ report


def run(quick: bool = False, sizes: Sizes | None = None) -> dict[str, Any]:
    """Every scenario, the library beside the baselines; figures, bars and tables.

    ``sizes`` overrides the full (or ``quick``) sizes, for the smoke test.
    """
    sizes = sizes if sizes is not None else _sizes(quick)
    matrix = [_matrix_case(sizes, *case) for case in sizes.cases]
    latency = [_latency_case(sizes, lat) for lat in sizes.latencies]
    penalty = _penalty(sizes)
    drop = _drop(sizes)
    return result(
        "Limit mismatch: the service's real limits differ from the configured ones",
        settings=_settings(sizes, drop),
        figures=_figures(latency, penalty, drop, sizes),
        checks=_checks(sizes, matrix, latency, penalty, drop),
        tables=[
            *_matrix_tables(matrix),
            _latency_table(latency),
            _penalty_table(penalty, sizes),
            _drop_table(drop),
        ],
        notes=NOTES,
    ) | {
        "raw": {
            "matrix": _strip(matrix),
            "latency": _strip(latency),
            "penalty": _strip(penalty),
            "drop": _strip(drop),
        }
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:g} ms"


def _worst(matrix: list[dict[str, Any]], workload: str, ratios: Sequence[float], key: str) -> float | None:
    values = [c["library"][key] for c in matrix if c["workload"] == workload and c["ratio"] in ratios]
    return max(values) if values else None


def _checks(
    sizes: Sizes,
    matrix: list[dict[str, Any]],
    latency: list[dict[str, Any]],
    penalty: dict[str, Any],
    drop: dict[str, Any],
) -> list[dict[str, Any]]:
    checks = []
    for workload in ("reads", "imports"):
        for ratios, bar in (((0.8, 0.5), TIME_BARS[0.8]), ((0.3,), TIME_BARS[0.3])):
            present = [r for r in ratios if (workload, r) in {(w, q) for w, _, q in sizes.cases}]
            if present:
                worst = _worst(matrix, workload, present, "ratio")
                where = " and ".join(f"{r:g}x" for r in present)
                checks.append(
                    check(f"{workload} at {where}: worst time / ideal", rounded(worst, 3), "<=", bar)
                )
        worst_share = _worst(matrix, workload, RATIOS, "share_429")
        checks.append(
            check(
                f"{workload}: worst 429 share of requests sent", rounded(worst_share, 4), "<=", SHARE_429_BAR
            )
        )
        failed = sum(c["library"]["failed"] for c in matrix if c["workload"] == workload)
        unit = "reads failed" if workload == "reads" else "stops not created"
        checks.append(check(f"{workload}: {unit}, every run", failed, "==", 0))
    for case in latency:
        lib = case["library"]
        where = f"reads over {_ms(case['latency'])} latency"
        checks.append(check(f"{where}: utilization", lib["utilization"], ">=", LATENCY_UTILIZATION_BAR))
        share = rounded(lib["traffic"]["share_429"], 4)
        checks.append(check(f"{where}: 429 share", share, "<=", LATENCY_429_BAR))
    share = rounded(penalty["library"]["traffic"]["share_429"], 4)
    checks.append(check("sustained-use penalty: 429 share", share, "<=", SHARE_429_BAR))
    back = drop["library"]["recovery_periods"]
    checks.append(check("limit back from 0.4x: periods to >= 95%", back, "<=", RECOVERY_BAR))
    return checks


def _cell(out: dict[str, Any], ideal: float) -> str:
    """``time / ideal · 429 share · failed`` of one run, for the comparison tables."""
    if out["finished"]:
        ratio = f"{out['elapsed'] / ideal:.2f}x"
    else:
        pace = out.get("projected_seconds", math.inf) / ideal
        ratio = f"cap (pace {pace:.1f}x)" if math.isfinite(pace) else "cap"
    return f"{ratio} · {_pct(out['traffic']['share_429'])} · {out['failed']:,}"


def _matrix_tables(matrix: list[dict[str, Any]]) -> list[dict[str, Any]]:
    tables = []
    for workload in ("reads", "imports"):
        rows = []
        for case in (c for c in matrix if c["workload"] == workload):
            lib = case["library"]
            bar = TIME_BARS.get(case["ratio"])
            rows.append(
                [
                    case["mode"],
                    _label(case["ratio"], workload),
                    rounded(lib["ideal"], 3),
                    rounded(lib["elapsed"], 3),
                    rounded(lib["ratio"], 3),
                    f"<= {bar:g}" if bar else "(see note)",
                    f"{lib['traffic']['rejected_429']} / {lib['traffic']['sent']}",
                    _pct(lib["share_429"]),
                    lib["failed"],
                    ", ".join(lib["learned"]) or "n/a",
                ]
            )
        failed = "Reads failed" if workload == "reads" else "Stops not created"
        tables.append(
            table(
                f"{workload.capitalize()}: the library against each real limit",
                [
                    "Server rule",
                    "Real limit",
                    "Ideal (s)",
                    "Time (s)",
                    "x ideal",
                    "Bar",
                    "429s / sent",
                    "429 share",
                    failed,
                    "Learned (client stats, sped up)",
                ],
                rows,
            )
        )
        compared = [c for c in matrix if c["workload"] == workload and c["baselines"]]
        if compared:
            tables.append(
                table(
                    f"{workload.capitalize()}: library and baselines "
                    f"(x ideal · 429 share · {failed.lower()})",
                    ["Server rule", "Real limit", "library", *BASELINES],
                    [
                        [
                            c["mode"],
                            _label(c["ratio"], workload),
                            _cell(c["library"], c["library"]["ideal"]),
                            *(_cell(c["baselines"][b], c["library"]["ideal"]) for b in BASELINES),
                        ]
                        for c in compared
                    ],
                )
            )
    return tables


def _time(out: dict[str, Any]) -> Any:
    return rounded(out["elapsed"], 3) if out["finished"] else f"stopped at {out['elapsed']:.1f}"


def _latency_table(latency: list[dict[str, Any]]) -> dict[str, Any]:
    rows = []
    for case in latency:
        runs = {
            "library": case["library"],
            "library, strict_windows=True": case["strict"],
            **case["baselines"],
        }
        for name, out in runs.items():
            rows.append(
                [
                    _ms(case["latency"]),
                    name,
                    out["utilization"],
                    _pct(out["traffic"]["share_429"]),
                    out["failed"],
                    _time(out),
                ]
            )
    return table(
        "Reads over a slow link: utilization of 10/s and 429s",
        ["One-way latency", "Strategy", "Utilization", "429 share", "Failed", "Time (s)"],
        rows,
    )


def _penalty_table(penalty: dict[str, Any], sizes: Sizes) -> dict[str, Any]:
    rows = [
        [
            name,
            out["utilization"],
            rounded(out["settled"], 3),
            _pct(out["traffic"]["share_429"]),
            out["failed"],
            _time(out),
        ]
        for name, out in {"library": penalty["library"], **penalty["baselines"]}.items()
    ]
    return table(
        f"Sustained-use penalty at 1.0x (threshold {sizes.penalty_threshold:g} of 10/s, "
        f"after {sizes.penalty_after:g} periods)",
        ["Strategy", "Utilization", "Settled level (2nd half)", "429 share", "Failed", "Time (s)"],
        rows,
    )


def _drop_table(drop: dict[str, Any]) -> dict[str, Any]:
    rows = [
        [
            name,
            out["recovery_periods"] if out["recovery_periods"] is not None else "never",
            rounded(out["occupancy_during_drop"], 3),
            _pct(out["traffic"]["share_429"]),
            out["failed"],
            out["windows_measured"],
        ]
        for name, out in {"library": drop["library"], **drop["baselines"]}.items()
    ]
    return table(
        f"Reads while the limit drops from 10/s to {drop['low']}/s and returns",
        [
            "Strategy",
            "Periods back to >= 95%",
            f"Use of {drop['low']}/s during the drop",
            "429 share",
            "Failed",
            "Windows after the return",
        ],
        rows,
    )


def _figures(
    latency: list[dict[str, Any]], penalty: dict[str, Any], drop: dict[str, Any], sizes: Sizes
) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for case in latency:
        figures[f"{_ms(case['latency'])} one-way: utilization, default windows"] = case["library"][
            "utilization"
        ]
        figures[f"{_ms(case['latency'])} one-way: utilization, strict_windows=True"] = case["strict"][
            "utilization"
        ]
    plib, dlib = penalty["library"], drop["library"]
    figures["penalty: utilization of the limit"] = plib["utilization"]
    figures["penalty: settled level, 2nd half (threshold)"] = (
        f"{_pct(plib['settled'])} ({_pct(sizes.penalty_threshold)})"
    )
    figures["penalty: 429s / sent"] = f"{plib['traffic']['rejected_429']} / {plib['traffic']['sent']}"
    figures["drop: periods from the return to >= 95%"] = dlib["recovery_periods"]
    figures["drop: slot occupancy of the first windows after the return"] = dlib["windows_after_return"][:10]
    figures["drop: 429s / sent"] = f"{dlib['traffic']['rejected_429']} / {dlib['traffic']['sent']}"
    figures["failed requests in the latency, penalty and drop runs"] = (
        sum(c[k]["failed"] for c in latency for k in ("library", "strict")) + plib["failed"] + dlib["failed"]
    )
    return figures


def _runs(cases: Sequence[Case] | frozenset[Case]) -> str:
    """Matrix runs, grouped: ``reads under <rule> at 1x, 0.8x; ...``."""
    grouped: dict[tuple[str, str], list[float]] = {}
    for workload, mode, ratio in cases:
        grouped.setdefault((workload, mode), []).append(ratio)
    order = {name: i for i, name in enumerate(MODES)}
    return "; ".join(
        f"{workload} under {mode} at " + ", ".join(f"{r:g}x" for r in sorted(ratios, reverse=True))
        for (workload, mode), ratios in sorted(
            grouped.items(), key=lambda g: (g[0][0] != "reads", order[g[0][1]])
        )
    )


def _settings(sizes: Sizes, drop: dict[str, Any]) -> dict[str, Any]:
    return {
        "client": "RateLimits.default() sped up like the emulator, default RetryPolicy",
        "reads": f"{sizes.reads} plans.get from {sizes.read_tasks} tasks, speed-up "
        f"{sizes.read_speedup:g} (window {_ms(1 / sizes.read_speedup)})",
        "imports": f"stops.import_many of {sizes.stops:,} stops ({math.ceil(sizes.stops / BATCH)} "
        f"requests of {BATCH}), speed-up {sizes.import_speedup:g} (window {_ms(60 / sizes.import_speedup)})",
        "why these sizes": "windows of about 25 read and 20 import round trips on loopback; enough windows "
        "that the first window's unavoidable 429s at 0.3x (reads: 7 of the 10 the configuration allows; "
        "imports, which send one batch first and double per answer: the last doubling's overshoot) are "
        "under 2% (reads) and 3.5% (imports) of the requests; imports (20 to 67 windows of 200 ms each) "
        "under the other two rules at 0.5x only, and the baselines only where listed, so that the whole "
        "benchmark takes about 5 minutes on 2 cores",
        "matrix runs": _runs(sizes.cases) + " (of the configured limit, on the measured category only)",
        "server rules": "; ".join(f"{k}: {MODE_TEXT[k]}" for k in MODES),
        "baselines in the matrix": _runs(sizes.baseline_cases) + " (configured with the same default "
        f"limits; stopped at {BASELINE_CAP:g} x ideal + 0.5 s, as in import_utilization)",
        "latency": f"{sizes.latency_reads} reads from {sizes.read_tasks} tasks at 1.0x, one-way "
        + " and ".join(_ms(x) for x in sizes.latencies)
        + f" + 0-{_ms(sizes.jitter)} jitter each way at contract scale: speed-up "
        f"{sizes.latency_speedup:g} divides the 1 s window and every delay alike; baselines at "
        + (" and ".join(_ms(x) for x in sizes.latency_baselines) or "none"),
        "penalty": f"{sizes.penalty_reads} reads at 1.0x, speed-up {sizes.penalty_speedup:g}, "
        f"punish_sustained threshold {sizes.penalty_threshold:g}, after {sizes.penalty_after:g} periods",
        "drop": f"{sizes.drop_reads} reads, speed-up {sizes.drop_speedup:g}: 10/s, then {drop['low']}/s "
        f"from {sizes.drop_at:g} s, 10/s again from {sizes.return_at:g} s (contract seconds from the "
        "start of the measured load; the emulator's limit_schedule)",
        "transport": "HTTP on loopback (the scheduling is measured, not TLS), emulator in its own process",
    }


NOTES = [
    "Time / ideal: from the first call to the last answer, over the ideal time at the real limit (the "
    "module docstring's formula, plus the latency of the library's last request). 429 share: the "
    "emulator's 429 answers of the category over every request of it that it received.",
    "At 1.0x the bars of import_utilization (<= 1.03 x the minimum, 0 x 429) and mixed_utilization "
    "(>= 97% of every limit, 0 x 429) hold the library to the configured limits; the 1.0x rows here "
    "have no time bar of their own.",
    "Comparison cells: time / ideal (a baseline stopped at its cap shows the pace it was going at), "
    "429 share, and reads failed or stops not created (lost to a 429 without retry, or not done at "
    "the cap).",
    "Utilization over a slow link and under the penalty: admitted x period / (amount x (span + "
    "period)), as in mixed_utilization. Settled level under the penalty: the share of the limit's "
    "slots held by admitted requests over the second half of the run (an admission at t holds one "
    "slot during [t, t + period)).",
    "Periods back to >= 95%: R is the moment the limit returns (the emulator's limit timeline), P its "
    "period. Windows [R + kP, R + (k+1)P) are cut up to the last admitted request; a window is full "
    "when the admitted requests hold >= 95% of the limit's slots during it (slots as above, so the "
    "measure does not depend on how the windows align with the client's bursts). The figure is the "
    "smallest k such that window k and every later one are full: 0 is a client back at once, 'never' "
    "one whose last window is not full.",
    *(f"Baseline {name}: {baselines.DESCRIPTIONS[name]}." for name in BASELINES),
]


def _strip(value: Any) -> Any:
    """The raw figures without the admission times (too long for results.json)."""
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k != "times"}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value
