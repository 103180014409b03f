"""The limit-mismatch benchmark's report: its checks against the bars, its figures, tables,
settings and notes, from the runs ``bench_limit_mismatch.py`` made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from benchmarks._harness import _baselines as baselines
from benchmarks._mismatch._ground import (
    BASELINE_CAP,
    BASELINES,
    BATCH,
    LATENCY_429_BAR,
    LATENCY_UTILIZATION_BAR,
    MODE_TEXT,
    MODES,
    RATIOS,
    RECOVERY_BAR,
    SHARE_429_BAR,
    TIME_BARS,
    Case,
    Sizes,
    limit_label,
    pct,
)
from benchmarks._results._figures import check, result, rounded, table


@attrs.frozen
class Runs:
    """What the scenarios of one benchmark run measured (``bench_limit_mismatch.py``)."""

    matrix: list[dict[str, Any]]
    """One entry per matrix case, in the order of the tables."""
    latency: list[dict[str, Any]]
    """One entry per link latency."""
    penalty: dict[str, Any]
    """The sustained-use penalty scenario."""
    drop: dict[str, Any]
    """The limit that drops to 0.4x and comes back."""


def report(sizes: Sizes, runs: Runs) -> dict[str, Any]:
    """The benchmark's result: the library beside the baselines; figures, bars and tables."""
    return result(
        "Limit mismatch: the service's real limits differ from the configured ones",
        settings=_settings(sizes, runs.drop),
        figures=_figures(runs.latency, runs.penalty, runs.drop, sizes),
        checks=_checks(sizes, runs),
        tables=[
            *_matrix_tables(runs.matrix),
            _latency_table(runs.latency),
            _penalty_table(runs.penalty, sizes),
            _drop_table(runs.drop),
        ],
        notes=NOTES,
    ) | {"raw": {name: _strip(value) for name, value in attrs.asdict(runs, recurse=False).items()}}


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:g} ms"


def _worst(matrix: list[dict[str, Any]], workload: str, ratios: Sequence[float], key: str) -> float | None:
    values = [c["library"][key] for c in matrix if c["workload"] == workload and c["ratio"] in ratios]
    return max(values) if values else None


def _checks(sizes: Sizes, runs: Runs) -> list[dict[str, Any]]:
    matrix, latency, penalty, drop = runs.matrix, runs.latency, runs.penalty, runs.drop
    checks = []
    for workload in ("reads", "imports"):
        for ratios, bar in (((0.8, 0.5), TIME_BARS[0.8]), ((0.3,), TIME_BARS[0.3]), ((0.1,), TIME_BARS[0.1])):
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
    return f"{ratio} · {pct(out['traffic']['share_429'])} · {out['failed']:,}"


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
                    limit_label(case["ratio"], workload),
                    rounded(lib["ideal"], 3),
                    rounded(lib["elapsed"], 3),
                    rounded(lib["ratio"], 3),
                    f"<= {bar:g}" if bar else "(see note)",
                    f"{lib['traffic']['rejected_429']} / {lib['traffic']['sent']}",
                    pct(lib["share_429"]),
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
                            limit_label(c["ratio"], workload),
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
                    pct(out["traffic"]["share_429"]),
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
            pct(out["traffic"]["share_429"]),
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
            pct(out["traffic"]["share_429"]),
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
        f"{pct(plib['settled'])} ({pct(sizes.penalty_threshold)})"
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
