"""The runner: ``python -m benchmarks [--quick] [--only NAME ...] [--out DIR]``.

Each benchmark is a function returning a dict of figures (see ``_results/_figures.py``);
the runner times it, keeps going when one fails (the failure is reported, not
hidden) and writes ``results.json`` and ``RESULTS.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks._results import _machine, _report
from benchmarks._results._figures import result

HERE = Path(__file__).resolve().parent

# name -> (module, function); the order is the order of RESULTS.md.
BENCHMARKS: dict[str, tuple[str, str]] = {
    "import_utilization": ("benchmarks.bench_import", "run"),
    "v1_import_utilization": ("benchmarks.bench_import_v1", "run"),
    "mixed_utilization": ("benchmarks.bench_mixed", "run"),
    "overhead": ("benchmarks.bench_overhead", "run"),
    "decoding": ("benchmarks.bench_decode", "run"),
    "polling": ("benchmarks.bench_polling", "run"),
    "memory": ("benchmarks.bench_memory", "run_memory"),
    "scaling": ("benchmarks.bench_memory", "run_scaling"),
    "redis": ("benchmarks.bench_redis", "main"),
    "limit_mismatch": ("benchmarks.bench_limit_mismatch", "run"),
    "neighbours": ("benchmarks.bench_neighbours", "run"),
}


def _call_redis(func: Callable[..., Any], quick: bool) -> dict[str, Any] | None:
    """The Redis module is standalone: ``main()`` returns a dict of figures."""
    if shutil.which("redis-server") is None:
        return result("Shared Redis rate-limit backend", notes=["Skipped: redis-server is not on PATH."])
    params = inspect.signature(func).parameters
    if quick:
        # Even its own quick mode runs for about half a minute: too long for the smoke pass.
        return result(
            "Shared Redis rate-limit backend",
            notes=["Skipped in --quick; run `python -m benchmarks.bench_redis --quick` on its own."],
        )
    value = func(quick=quick) if "quick" in params else func()
    if inspect.iscoroutine(value):
        value = asyncio.run(value)
    if not isinstance(value, dict):
        raise TypeError(f"bench_redis.main() returned {type(value).__name__}, not a dict")
    if "title" in value and "figures" in value:
        return value
    return result("Shared Redis rate-limit backend", figures=value)


def run_one(name: str, quick: bool) -> dict[str, Any]:
    """Run one benchmark and return its dict (or the traceback of its failure)."""
    module_name, func_name = BENCHMARKS[name]
    started = time.perf_counter()
    try:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            # A module another part of the project adds; until it exists, say so.
            return result(name, notes=[f"Skipped: {module_name} does not exist yet."]) | {"wall_seconds": 0.0}
        func = getattr(module, func_name)
        outcome = _call_redis(func, quick) if name == "redis" else func(quick=quick)
    except Exception:
        outcome = {"title": name, "error": traceback.format_exc()}
    assert outcome is not None
    outcome["wall_seconds"] = round(time.perf_counter() - started, 1)
    return outcome


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite; exit status 1 when a benchmark failed to run (a MISSED bar is a result)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="toy sizes: a smoke pass; figures not meaningful"
    )
    parser.add_argument("--only", nargs="+", choices=list(BENCHMARKS), help="run only these benchmarks")
    parser.add_argument(
        "--out",
        type=Path,
        help="where to write results.json and RESULTS.md (default: benchmarks/, or a temporary "
        "directory with --quick or --only so the committed results are never overwritten by a partial run)",
    )
    args = parser.parse_args(argv)
    names = args.only or list(BENCHMARKS)
    out: Path = args.out or (Path(tempfile.mkdtemp(prefix="bench-")) if args.quick or args.only else HERE)
    out.mkdir(parents=True, exist_ok=True)

    command = "python -m benchmarks" + (" " + " ".join(argv if argv is not None else sys.argv[1:])).rstrip()
    run: dict[str, Any] = {
        "command": command.strip(),
        "quick": args.quick,
        "machine": _machine.describe(),
        "benchmarks": {},
    }
    started = time.perf_counter()
    for name in names:
        print(f"[bench] {name} ...", flush=True)
        run["benchmarks"][name] = outcome = run_one(name, args.quick)
        status = (
            "ERROR"
            if "error" in outcome
            else ", ".join(f"{c['name']}: {c['status']}" for c in outcome["checks"])
        )
        print(f"[bench] {name} done in {outcome['wall_seconds']} s  {status}", flush=True)
        if "error" in outcome:
            print(outcome["error"], file=sys.stderr, flush=True)
    run["total_seconds"] = round(time.perf_counter() - started, 1)

    (out / "results.json").write_text(json.dumps(run, indent=2, default=str) + "\n")
    (out / "RESULTS.md").write_text(_report.render(run))
    print(f"[bench] wrote {out / 'RESULTS.md'} and {out / 'results.json'} in {run['total_seconds']} s")
    return 1 if any("error" in b for b in run["benchmarks"].values()) else 0
