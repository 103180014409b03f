"""SCENARIOS.md and one SVG plot per family, from the recorded scenario runs (plain SVG, no plotting
library: the file is the same for the same figures)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from benchmarks._scenario._judge import BARS
from benchmarks._scenario._run import LATE, SEARCH_ROUNDS, SEARCH_WIDTH, SPEEDUP, skipped_share
from benchmarks._scenario._scenarios import FAMILIES, PERIODS, percentile
from route_planning_async.emulator import Lockout

__all__ = ["PHASES", "copies", "phase_ratios", "refused_share", "svg", "write"]

_BRACKET = SEARCH_WIDTH * (SEARCH_WIDTH + 1) ** (SEARCH_ROUNDS - 1)


def copies(run: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures of a run's programs of this library (not its neighbours)."""
    return [p for name, p in run["library"].items() if name.startswith("copy-")]


def refused_share(p: dict[str, Any]) -> float:
    """A program's 429s over what it sent, the service's storm aside (the ceiling's share)."""
    sent = p["attempts"] - p["storm"]
    return p["refused"] / sent if sent else 0.0


def _most_in_ten(p: dict[str, Any]) -> int:
    per = p["refused_per_period"]
    width = BARS.window_periods
    return max((sum(per[i : i + width]) for i in range(max(1, len(per) - width + 1))), default=0)


def _row(family: str, runs: list[dict[str, Any]]) -> str:
    ratios = [run["verdict"]["ratio"] for run in runs]
    shares = [refused_share(p) for run in runs for p in copies(run)]
    windows = [_most_in_ten(p) for run in runs for p in copies(run)]
    copy_shares = [s for run in runs for s in run["verdict"]["shares"]]
    first = [run["verdict"]["first_contact_refused"] for run in runs]
    used = [
        run["verdict"].get("first_period_use", 1.0)
        for run in runs
        if run["amount"] == run["configured"] and not run["neighbours"] and len(run["copies"]) == 1
    ]
    recovery = [run["verdict"]["recovery_periods"] for run in runs if run["storm_at"] is not None]
    missed = [str(run["seed"]) for run in runs if not run["verdict"]["passed"]]
    skipped = [skipped_share(run) for run in runs]
    reruns = [run["reruns"] for run in runs if "reruns" in run]
    repeated = sum(1 for tried in reruns if tried and tried[0][1])
    unconfirmed = sum(1 for run in runs if run.get("confirmed") is False)
    cells = [
        family,
        str(len(runs)),
        str(len(runs) - len(missed)),
        f"{min(ratios):.2f}",
        f"{percentile(ratios, 0.1):.2f}",
        f"{max(shares):.1%}",
        str(max(windows)),
        f"{min(copy_shares):.2f}" if copy_shares else "",
        str(max(first)) if family == "limits" else "",
        f"{min(used):.0%}" if used and family in ("limits", "storm") else "",
        ("never" if None in recovery else str(max(recovery))) if recovery else "",
        f"{max(skipped):.1%}",
        (f"{repeated} of {len(reruns)}" + (f", {unconfirmed} unconfirmed" if unconfirmed else ""))
        if reruns
        else "",
        ", ".join(missed) or "none",
    ]
    return "| " + " | ".join(cells) + " |"


PHASES = ((0, 2), (2, 10), (10, 20), (20, PERIODS))
"""The periods the phase table of SCENARIOS.md sums apart (its text says what each is)."""


def phase_ratios(runs: Sequence[dict[str, Any]]) -> list[float | None]:
    """What the library's programs admitted over what the fixed-rate ones admitted, in each of
    :data:`PHASES`, every run summed (None: no fixed-rate run admitted anything in it)."""
    ratios: list[float | None] = []
    for start, end in PHASES:
        library = fixed = 0
        for run in runs:
            if run["fixed"] is None:
                continue
            for name, program in run["library"].items():
                if name.startswith("copy-"):
                    library += sum(program["admitted_per_period"][start:end])
                    fixed += sum(run["fixed"][name]["admitted_per_period"][start:end])
        ratios.append(library / fixed if fixed else None)
    return ratios


def _phase_row(family: str, runs: list[dict[str, Any]]) -> str:
    """The phase table's row of ``family``: :func:`phase_ratios`."""
    cells = [family, *("" if ratio is None else f"{ratio:.2f}" for ratio in phase_ratios(runs))]
    return "| " + " | ".join(cells) + " |"


def markdown(runs: Sequence[dict[str, Any]], made: Sequence[dict[str, Any]]) -> str:
    by_family = {f: [run for run in runs if run["family"] == f] for f in FAMILIES}
    lockout = Lockout()
    lines = [
        "# Scenarios: this library beside other traffic, on the emulator over real sockets",
        "",
        "Written by `python -m benchmarks scenarios --report` from `scenarios.json`. The families, the "
        "run and the judge are described in `benchmarks/_scenario/_scenarios.py`, "
        "`benchmarks/_scenario/_run.py` and `benchmarks/_scenario/_judge.py` (the bars, as data: "
        "`Bars`). The runs recorded:",
        "",
        *(
            f"- `{m['command']}` at commit {m.get('commit', '?')}: {m['scenarios']} scenarios in "
            f"{m['seconds']} s on {m['date']} ({m['machine']}, load average {m['load'][0]} before, "
            f"{m['load'][1]} after)"
            for m in made
        ),
        "",
        f"Each scenario: reads for {PERIODS} periods on an emulator of its own (plain HTTP on loopback, "
        f"sped up x{SPEEDUP:g}, the lockout on: `Lockout(share={lockout.share}, refusals="
        f"{lockout.refusals}, periods={lockout.periods:g}, release={lockout.release})`), the client "
        "configured with the contract's limits, its programs run first, alone on the emulator, then "
        "the search (`run_scenario` in `benchmarks/_scenario/_run.py` says why). The bound is the "
        "best fixed-rate program in hindsight: "
        "plain programs sending evenly at one rate, in the same scenario (same neighbours, storm and "
        f"link) on keys of their own, the highest rate within the 429 ceiling found by {SEARCH_ROUNDS} "
        f"rounds of {SEARCH_WIDTH} rates (a bracket at most 1/{_BRACKET} of the limit "
        "wide), confirmed by a rerun on a key of its own (`confirm` in "
        "`benchmarks/_scenario/_judge.py` says why and how); *Bound repeated* counts the seeds whose "
        "search's best passed its rerun. Ratio: what the library's programs admitted over what the "
        "fixed-rate ones admitted. "
        f"A plain program's send the machine held up more than {LATE} of a period is skipped, not sent "
        "late in a burst; the share skipped (worst run) says how much the machine's load bent the "
        "figures: on a quiet machine it is near 0, and the bound is then the tightest.",
        "",
        f"Bars: 429s at most {BARS.refused_share:.0%} of a program's attempts ({BARS.few_refused} under "
        f"{BARS.few_attempts}), at most {BARS.window_refused} in any {BARS.window_periods} periods (the "
        f"service's storms aside); ratio at least {BARS.beside_neighbour:.0%} (copies together "
        f"{BARS.copies_together:.0%}, each at least {BARS.copy_share:.0%} of its fixed counterpart); first "
        f"contact (limits) at most {BARS.first_contact_refused} 429s in {BARS.first_contact_periods} "
        f"periods; after a storm, {BARS.storm_level:.0%} of what is left within {BARS.storm_periods} "
        "periods.",
        "",
        "| Family | Seeds | PASS | Worst ratio | Ratio, 10th percentile | Worst 429 share | Most 429s in "
        "10 periods | Worst copy share | First contact 429s | First period used | Recovery (periods) | "
        "Plain sends skipped | Bound repeated | MISSED seeds |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(f, family_runs) for f, family_runs in by_family.items() if family_runs]
    lines += [
        "",
        "Where the ratio is lost: what the library's programs admitted over what the fixed-rate "
        "ones admitted, in each phase of the run, every seed summed (the first contact, the periods "
        "after it, the next ten, the rest).",
        "",
        "| Family | " + " | ".join(f"Periods {start}-{end - 1}" for start, end in PHASES) + " |",
        "|---|" + "---|" * len(PHASES),
        *(_phase_row(f, family_runs) for f, family_runs in by_family.items() if family_runs),
    ]
    lines += [
        "",
        "## Plots",
        "",
        "Each family's worst run (the lowest ratio): what the library's programs admitted "
        "per period (the level), what the neighbours left of the real limit, the best fixed-rate "
        "program's level, and the 429s.",
        "",
    ]
    for family, family_runs in by_family.items():
        if family_runs:
            worst = min(family_runs, key=lambda run: run["verdict"]["ratio"])
            lines.append(f"![{family}/{worst['seed']}](scenarios/{family}.svg)")
            lines.append("")
    return "\n".join(lines)


@attrs.frozen
class _Frame:
    width: int = 720
    height: int = 300
    left: int = 50
    right: int = 20
    top: int = 48
    bottom: int = 40

    def x(self, period: float, periods: int) -> float:
        return self.left + (self.width - self.left - self.right) * period / periods

    def y(self, value: float, top: float) -> float:
        return self.height - self.bottom - (self.height - self.top - self.bottom) * value / top


def _steps(frame: _Frame, values: Sequence[float], top: float) -> str:
    n = len(values)
    points = []
    for i, v in enumerate(values):
        points.append(f"{frame.x(i, n):.1f},{frame.y(v, top):.1f}")
        points.append(f"{frame.x(i + 1, n):.1f},{frame.y(v, top):.1f}")
    return " ".join(points)


def svg(run: dict[str, Any]) -> str:
    """The plot of one run: level, what is left, the fixed-rate level, 429s."""
    frame = _Frame()
    periods = run["periods"]
    programs = copies(run)
    level = [sum(p["admitted_per_period"][i] for p in programs) for i in range(periods)]
    refused = [sum(p["refused_per_period"][i] for p in programs) for i in range(periods)]
    fixed = run["fixed"] or {}
    fixed_level = [
        sum(p["admitted_per_period"][i] for name, p in fixed.items() if name.startswith("copy-"))
        for i in range(periods)
    ]
    left = run["left"]
    top = max([run["configured"], *level, *left, *fixed_level]) + 1
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{frame.width}" height="{frame.height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{frame.width}" height="{frame.height}" fill="white"/>',
        f'<text x="{frame.left}" y="18" font-size="13">{run["family"]}/{run["seed"]}: ratio '
        f"{run['verdict']['ratio']:.2f}, {'PASS' if run['verdict']['passed'] else 'MISSED'}</text>",
    ]
    for tick in range(0, int(top) + 1, max(1, int(top) // 5)):
        y = frame.y(tick, top)
        x2 = frame.width - frame.right
        out.append(f'<line x1="{frame.left}" x2="{x2}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{frame.left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick}</text>')
    for tick in range(0, periods + 1, 5):
        x = frame.x(tick, periods)
        out.append(
            f'<text x="{x:.1f}" y="{frame.height - frame.bottom + 15}" text-anchor="middle">{tick}</text>'
        )
    out.append(f'<text x="{frame.width / 2:.0f}" y="{frame.height - 8}" text-anchor="middle">period</text>')
    out.append(f'<polyline fill="none" stroke="#999" stroke-width="2" points="{_steps(frame, left, top)}"/>')
    if fixed:
        out.append(
            '<polyline fill="none" stroke="#2a7" stroke-dasharray="4 3" '
            f'points="{_steps(frame, fixed_level, top)}"/>'
        )
    out.append(f'<polyline fill="none" stroke="#14c" stroke-width="2" points="{_steps(frame, level, top)}"/>')
    for i, count in enumerate(refused):
        if count:
            x = frame.x(i + 0.5, periods)
            y = frame.y(0, top)
            out.append(
                f'<circle cx="{x:.1f}" cy="{y - 4:.1f}" r="{2 + min(count, 8)}" fill="#d22" opacity="0.7"/>'
            )
    legend = [
        ("#999", "what is left (limit - neighbours)"),
        ("#14c", "level (admitted)"),
        ("#2a7", "best fixed rate"),
        ("#d22", "429s (size: count)"),
    ]
    for j, (colour, text) in enumerate(legend):
        x = frame.left + 10 + j * 165
        out.append(f'<rect x="{x}" y="{frame.top - 22}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="{frame.top - 13}">{text}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(runs: Sequence[dict[str, Any]], where: Path, made: Sequence[dict[str, Any]]) -> None:
    """``SCENARIOS.md`` and ``scenarios/<family>.svg`` in ``where``; ``made``: the runs recorded."""
    (where / "SCENARIOS.md").write_text(markdown(runs, made) + "\n")
    plots = where / "scenarios"
    plots.mkdir(exist_ok=True)
    for family in FAMILIES:
        family_runs = [run for run in runs if run["family"] == family]
        if family_runs:
            worst = min(family_runs, key=lambda run: run["verdict"]["ratio"])
            (plots / f"{family}.svg").write_text(svg(worst))
