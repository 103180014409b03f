"""``python -m benchmarks scenarios``: seeded scenarios on the emulator over real sockets, each judged
against the best fixed-rate program in hindsight.

::

    python -m benchmarks scenarios --family steady --seeds 0-9         # print a line per scenario
    python -m benchmarks scenarios --seeds 0-39 --jobs 2 --record      # every family, kept in scenarios.json
    python -m benchmarks scenarios --report                            # SCENARIOS.md and the plots
    python -m benchmarks scenarios --family jitter --against-record    # the library alone, against the record
    python -m benchmarks scenarios --family copies --seeds 30 --trace  # each copy's level as it moved
    python -m benchmarks scenarios --family jitter --against-record --at-bound  # at the bound's level
    python -m benchmarks scenarios --family steady --against-record --at-bound --after-first-contact
    python -m benchmarks scenarios --family jitter --seeds 0-39 --against-record --out law.json
    python -m benchmarks scenarios --compare law.json change.json  # two saved runs, seed by seed

What a scenario is: ``_scenario/_scenarios.py`` (the families); how it runs: ``_scenario/_run.py``; how it is
judged: ``_scenario/_judge.py`` (the bars, the 429 ceiling, the search over rates and the rerun that
confirms its bound). ``--record`` merges the
runs into ``benchmarks/scenarios.json`` (a scenario run again replaces its earlier run), so the
families can be run in pieces; ``--report`` writes ``benchmarks/SCENARIOS.md`` and one SVG plot per
family (``benchmarks/scenarios/<family>.svg``) from that file. ``--against-record`` runs only the
library's arm and judges it against the bound recorded in that file (``run_scenario``'s ``bound``):
for comparing a change of the library with the recorded one (each family's line then adds the
difference seed by seed, :func:`paired`, and where in the run the ratio is lost, now and then,
:func:`phases`), not for the record; with ``--at-bound``, the library's
programs run at the recorded bound's level, not learning (``run_scenario``'s ``at_bound`` says
how), and with ``--after-first-contact`` too, only from their third period, the first spent as the
law spends it and the second quiet (``run_scenario``'s ``after_first_contact``). ``--trace``
runs one scenario in this process and prints what its library programs log about their learned
level, as it comes (:class:`~benchmarks._scenario._run.TraceHandler` says what a line holds).
``--out FILE`` saves the runs made (with or without ``--record``; those made before a failure too),
and ``--compare BEFORE AFTER`` compares two saved runs (or records) seed by seed, family by family
(:func:`compare`; ``--family`` and ``--seeds`` narrow it). That is how a change of the library is
judged: the library with the change and without it, each in a work tree of its own holding the same
record, run ``--against-record`` side by side on the same machine, each with ``--out``, then
``--compare`` of the two files (a run against the record is not made as the record was, so it is
compared with another such run: :func:`paired` says how far apart they land).

Each run lasts :data:`~benchmarks._scenario._scenarios.PERIODS` periods of reads (10 a second at the
configured limits) at a speed-up of 10: 4 seconds, then 3 rounds of the fixed-rate search of 4
seconds each and the rerun that confirms the bound (one, more when it fails again), about 18
seconds a scenario and half a core. Two processes (``--jobs 2``) run the 360 scenarios of 40 seeds
in about 53 minutes on a machine of 2 cores. The runs are short so
that 40 seeds of every family fit in that time; they are long enough for the first contact (10
periods) and a storm's 20 periods of recovery.

On a busy machine a process that gets less CPU than it needs falls behind, and its plain programs
skip the sends they cannot make in time: each line gives the share skipped, and the report its
worst. Above a few per cent the figures are bent (the bound and the neighbours are lighter than
drawn); run with ``--jobs 1`` then (about twice as long): at a load average of 5 on 2
cores, ``--jobs 2`` skipped up to 60 % of the plain sends, ``--jobs 1`` at most 2 %.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import datetime
import json
import logging
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks._scenario import _report as _scenario_report
from benchmarks._scenario._run import TraceHandler, run_scenario, skipped_share
from benchmarks._scenario._scenarios import FAMILIES, draw, percentile, seeds

HERE = Path(__file__).resolve().parent
RECORD = HERE / "scenarios.json"


def _one(
    family: str,
    seed: int,
    bound: dict[str, Any] | None = None,
    at_bound: bool = False,
    after_first_contact: bool = False,
) -> dict[str, Any]:
    return asyncio.run(
        run_scenario(
            draw(family, seed), bound=bound, at_bound=at_bound, after_first_contact=after_first_contact
        )
    )


def _commit() -> str:
    """The checked-out commit (the library measured), ``-dirty`` after it when the work tree has
    changes the commit does not hold, or ``?``."""
    done = subprocess.run(
        ["git", "describe", "--always", "--dirty", "--abbrev=7", "--exclude=*"],
        cwd=HERE,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or "?"


def _made(command: str, started: float, load_before: Sequence[float], scenarios: int) -> dict[str, Any]:
    """How a set of runs was made: the command, when, how long, the machine's load and the commit."""
    return {
        "command": command.strip(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "scenarios": scenarios,
        "seconds": round(time.monotonic() - started),
        "load": [round(value, 2) for value in (*load_before[:1], *os.getloadavg()[:1])],
        "machine": f"{os.cpu_count()} cores",
        "commit": _commit(),
    }


def line(run: dict[str, Any]) -> str:
    """One scenario's line: each program's admitted and 429s, the fixed-rate bound, the ratio, the verdict."""
    verdict = run["verdict"]
    programs = ", ".join(
        f"{name} {p['admitted']} admitted / {p['refused']} x 429 of {p['attempts']}"
        for name, p in run["library"].items()
        if name.startswith("copy-")
    )
    if "configured_at" in run:
        programs += f" (configured at {run['configured_at']}/period, not learning)"
    status = "PASS" if verdict["passed"] else "MISSED (" + "; ".join(verdict["misses"]) + ")"
    return (
        f"{run['family']}/{run['seed']}: {programs} | {'recorded ' if run.get('bound') == 'recorded' else ''}"
        f"fixed-rate best {run['fixed_rate']:.2f}/period: "
        f"{verdict['bound']} admitted | ratio {verdict['ratio']:.2f} | {status} | plain sends skipped "
        f"{skipped_share(run):.0%}"
    )


def _order(run: dict[str, Any]) -> tuple[int, int]:
    return FAMILIES.index(run["family"]), run["seed"]


def summary(
    runs: Sequence[dict[str, Any]], recorded: Mapping[tuple[str, int], dict[str, Any]] | None = None
) -> str:
    """One family's line: runs passed, the worst and 10th-percentile ratio, the mean, the worst 429 share.

    With the ``recorded`` runs (``--against-record``), it adds :func:`paired` against them and
    :func:`phases` then and now."""
    ratios = [run["verdict"]["ratio"] for run in runs]
    share = max(
        (_scenario_report.refused_share(p) for run in runs for p in _scenario_report.copies(run)),
        default=0.0,
    )
    text = (
        f"{runs[0]['family']}: {sum(run['verdict']['passed'] for run in runs)} of {len(runs)} passed | "
        f"ratio worst {min(ratios):.2f}, 10th percentile {percentile(ratios, 0.1):.2f}, "
        f"mean {sum(ratios) / len(ratios):.3f} | worst 429 share {share:.1%}"
    )
    if recorded is None:
        return text
    before = [recorded[run["family"], run["seed"]] for run in runs]
    return f"{text} | {paired(runs, before)} | {phases(runs, before)}"


def phases(runs: Sequence[dict[str, Any]], before: Sequence[dict[str, Any]]) -> str:
    """Where the ratio is lost, now and in the record: :func:`~benchmarks._scenario._report.phase_ratios`
    of the same scenarios (SCENARIOS.md's phase table, for these runs alone)."""

    def cells(of: Sequence[dict[str, Any]]) -> str:
        return " ".join("-" if r is None else f"{r:.3f}" for r in _scenario_report.phase_ratios(of))

    names = ", ".join(f"{start}-{end - 1}" for start, end in _scenario_report.PHASES)
    return f"by phase (periods {names}): {cells(runs)} now, {cells(before)} then"


def paired(runs: Sequence[dict[str, Any]], before: Sequence[dict[str, Any]]) -> str:
    """The library's runs against its recorded runs of the same scenarios, seed by seed: the mean
    of the differences of their ratios, its standard error, and the runs passed before and now.

    Paired by seed, the spread between a family's scenarios cancels, which its count of passes
    does not show (the same library run twice moved a family's passes by up to 5 of 40). The
    standard error is that of the scenarios' own noise only; a run's conditions (the machine's
    load, its timers) move every scenario at once: the same library, run again on the same
    machine, differed from its record by up to 0.048 in a family's mean (poisson, 2.7 standard
    errors). Read a difference within about 0.05 as noise."""
    mean, error = _difference(runs, before)
    return (
        f"against the record, seed by seed: ratio {mean:+.3f} "
        f"(standard error {error:.3f}), passed {sum(old['verdict']['passed'] for old in before)} "
        f"then, {sum(run['verdict']['passed'] for run in runs)} now"
    )


def _difference(runs: Sequence[dict[str, Any]], before: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """The mean of the ratios' differences, seed by seed, and its standard error (:func:`paired`)."""
    diffs = [run["verdict"]["ratio"] - old["verdict"]["ratio"] for run, old in zip(runs, before, strict=True)]
    error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    return statistics.fmean(diffs), error


def _over_a_429_bar(run: dict[str, Any]) -> bool:
    """Whether a program of the library's broke the 429 ceiling in the run."""
    return any(program["breaches"] for program in _scenario_report.copies(run))


def _figures(runs: Sequence[dict[str, Any]]) -> tuple[int, float, int, int, float]:
    """Runs passed, mean ratio, runs over a 429 bar, the library's 429s, worst ratio."""
    ratios = [run["verdict"]["ratio"] for run in runs]
    return (
        sum(run["verdict"]["passed"] for run in runs),
        statistics.fmean(ratios),
        sum(_over_a_429_bar(run) for run in runs),
        sum(program["refused"] for run in runs for program in _scenario_report.copies(run)),
        min(ratios),
    )


_RUN_FIELDS = {"family": str, "seed": int, "library": dict, "verdict": dict}


def saved_runs(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The runs and the ``made`` entries of a file ``--out`` or ``--record`` wrote; a
    :class:`ValueError` that says what is wrong when the text is not one."""
    try:
        saved = json.loads(text)
    except ValueError as error:
        raise ValueError(f"not JSON ({error})") from None
    if not isinstance(saved, dict) or not isinstance(saved.get("runs"), list):
        raise ValueError('not a saved run: no list of "runs"')
    for index, run in enumerate(saved["runs"]):
        wrong = [
            name
            for name, kind in _RUN_FIELDS.items()
            if not isinstance(run, dict) or not isinstance(run.get(name), kind)
        ]
        if wrong:
            raise ValueError(f"run {index} has no {', '.join(wrong)} of a scenario run")
        if run["family"] not in FAMILIES:
            raise ValueError(f"run {index} is of an unknown family {run['family']!r}")
        if not {"ratio", "passed"} <= run["verdict"].keys():
            raise ValueError(f"run {index} ({run['family']}/{run['seed']}) has no verdict's ratio and passed")
    made = saved.get("made", [])
    return saved["runs"], made if isinstance(made, list) else []


def compare(before: Sequence[dict[str, Any]], after: Sequence[dict[str, Any]]) -> list[str]:
    """Two sets of runs of the same scenarios (``--compare``), seed by seed: a line per family, then
    one for them all. Each gives the runs passed, the mean ratio (and its difference, paired by
    seed, with its standard error: :func:`paired` says how to read it), the runs over a 429 bar,
    the library's 429s and the worst ratio, before -> after. Only the scenarios in both are
    compared; each line says how many."""
    first = {(run["family"], run["seed"]): run for run in before}
    pairs = sorted(
        ((first[run["family"], run["seed"]], run) for run in after if (run["family"], run["seed"]) in first),
        key=lambda pair: _order(pair[1]),
    )
    if not pairs:
        raise ValueError("the two runs have no scenario in common")
    families: list[str | None] = [*dict.fromkeys(then["family"] for then, _ in pairs)]
    lines = []
    for family in [*families, None] if len(families) > 1 else families:
        then = [old for old, new in pairs if family in (None, old["family"])]
        now = [new for old, new in pairs if family in (None, old["family"])]
        mean, error = _difference(now, then)
        (p0, m0, o0, r0, w0), (p1, m1, o1, r1, w1) = _figures(then), _figures(now)
        count = f"{len(now)} scenario{'s' if len(now) > 1 else ''}"
        spread = f"standard error {error:.3f}" if len(now) > 1 else "one seed: no standard error"
        lines.append(
            f"{family or 'all'} ({count}): passed {p0} -> {p1} | mean ratio {m0:.3f} -> {m1:.3f}, "
            f"seed by seed {mean:+.3f} ({spread}) | runs over a 429 bar {o0} -> {o1} | "
            f"the library's 429s {r0} -> {r1} | worst ratio {w0:.2f} -> {w1:.2f}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks scenarios", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--family", nargs="+", choices=FAMILIES, help="the families to run (default: every one)"
    )
    parser.add_argument("--seeds", help="seeds: 0-9, 3 or 0-4,10 (default 0-4)")
    parser.add_argument("--jobs", type=int, default=2, help="processes running scenarios at once (default 2)")
    parser.add_argument("--record", action="store_true", help=f"merge the runs into {RECORD.name}")
    parser.add_argument(
        "--report", action="store_true", help=f"write SCENARIOS.md and the plots from {RECORD.name}"
    )
    parser.add_argument(
        "--against-record",
        action="store_true",
        help=f"run only the library's arm, judged against the bound recorded in {RECORD.name}",
    )
    parser.add_argument(
        "--at-bound",
        action="store_true",
        help="with --against-record: the library at the recorded bound's level, not learning "
        "(run_scenario's at_bound in benchmarks/_scenario/_run.py says how)",
    )
    parser.add_argument(
        "--after-first-contact",
        action="store_true",
        help="with --at-bound: the first period at the contract's limits, the second quiet, then the "
        "bound's level (run_scenario's after_first_contact in benchmarks/_scenario/_run.py says why)",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="one scenario, in this process: print what its library programs log about their learned "
        "level (TraceHandler in benchmarks/_scenario/_run.py)",
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help="save the runs made in FILE (for --compare)")
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BEFORE", "AFTER"),
        help="run nothing: compare two saved runs (--out files or records) seed by seed; "
        "--family and --seeds narrow it",
    )
    parser.add_argument("--record-file", type=Path, default=RECORD, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.against_record and (args.record or args.report):
        parser.error("--against-record runs are judged against the record; they are not recorded")
    if args.at_bound and not args.against_record:
        parser.error("--at-bound runs are judged against the record: give --against-record")
    if args.after_first_contact and not args.at_bound:
        parser.error("--after-first-contact runs the bound's level after the first period: give --at-bound")
    if args.trace and (args.record or args.report or args.out):
        parser.error("--trace runs are not recorded")
    if args.out and args.report and not args.family:
        parser.error("--report alone runs nothing for --out to save: give --family too")
    if args.compare:
        if args.record or args.report or args.against_record or args.trace or args.out:
            parser.error("--compare runs nothing: it reads two saved runs")
        families, chosen = set(args.family or FAMILIES), set(seeds(args.seeds)) if args.seeds else None
        saved: list[list[dict[str, Any]]] = []
        for name, path in zip(("before", "after"), args.compare, strict=True):
            try:
                found, made_by = saved_runs(path.read_text())
            except (OSError, ValueError) as error:
                parser.error(f"{path} is not a saved run: {error}")
            saved.append(
                [
                    run
                    for run in found
                    if run["family"] in families and (chosen is None or run["seed"] in chosen)
                ]
            )
            for entry in made_by:
                what = f"{entry.get('command', '?')} at {entry.get('commit', '?')}, {entry.get('date', '?')}"
                print(f"{name}: {path}: {what}")
        try:
            print("\n".join(compare(*saved)))
        except ValueError as error:
            parser.error(f"{args.compare[0]} and {args.compare[1]}: {error}")
        return 0
    if args.out and not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no folder {args.out.parent} to write it in")
    runs: list[dict[str, Any]] = []
    command = "python -m benchmarks scenarios " + " ".join(sys.argv[2:] if argv is None else argv)
    load_before = os.getloadavg()
    started = time.monotonic()
    wanted = [(family, seed) for family in args.family or FAMILIES for seed in seeds(args.seeds or "0-4")]
    bounds: dict[tuple[str, int], dict[str, Any]] = {}
    if args.against_record:
        recorded = json.loads(args.record_file.read_text())["runs"] if args.record_file.exists() else []
        bounds = {(run["family"], run["seed"]): run for run in recorded}
        missing = [f"{family}/{seed}" for family, seed in wanted if (family, seed) not in bounds]
        if missing:
            parser.error(f"{args.record_file.name} holds no run of {', '.join(missing)}")
    if args.trace:
        if len(wanted) != 1:
            parser.error(f"--trace runs one scenario (one family, one seed), not {len(wanted)}")
        ((family, seed),) = wanted
        logger = logging.getLogger("route_planning_async.scheduler")
        handler, level, propagate = TraceHandler(sys.stdout), logger.level, logger.propagate
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
        try:
            run = _one(family, seed, bounds.get((family, seed)), args.at_bound, args.after_first_contact)
        finally:
            logger.removeHandler(handler)
            logger.setLevel(level)
            logger.propagate = propagate
        print(line(run), flush=True)
    elif args.family or not args.report:
        try:
            with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
                futures = {
                    pool.submit(
                        _one,
                        family,
                        seed,
                        bounds.get((family, seed)),
                        args.at_bound,
                        args.after_first_contact,
                    ): (family, seed)
                    for family, seed in wanted
                }
                for future in concurrent.futures.as_completed(futures):
                    run = future.result()
                    runs.append(run)
                    print(line(run), flush=True)
        finally:
            # The runs made are saved even when one of them failed or the run was interrupted.
            if args.out and runs:
                made = _made(command, started, load_before, len(runs))
                args.out.write_text(json.dumps({"runs": sorted(runs, key=_order), "made": [made]}) + "\n")
        for family in dict.fromkeys(run["family"] for run in sorted(runs, key=_order)):
            family_runs = sorted((run for run in runs if run["family"] == family), key=_order)
            print(summary(family_runs, bounds if args.against_record else None), flush=True)
        passed = sum(run["verdict"]["passed"] for run in runs)
        print(f"{passed} of {len(runs)} passed in {time.monotonic() - started:.0f} s", flush=True)
    if args.record:
        made = _made(command, started, load_before, len(runs))
        kept = json.loads(args.record_file.read_text()) if args.record_file.exists() else {"runs": []}
        names = {(run["family"], run["seed"]) for run in runs}
        merged = [run for run in kept["runs"] if (run["family"], run["seed"]) not in names] + runs
        merged.sort(key=_order)
        record = {"runs": merged, "made": [*kept.get("made", []), made]}
        args.record_file.write_text(json.dumps(record, separators=(",", ":")) + "\n")
    if args.report:
        record = json.loads(args.record_file.read_text())
        _scenario_report.write(record["runs"], args.record_file.parent, record.get("made", []))
    return 0
