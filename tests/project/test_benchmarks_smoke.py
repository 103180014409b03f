"""The benchmark suite still runs: a ``--quick`` pass on toy sizes writes both result files.

The figures of a quick pass mean nothing (toy sizes, big speed-ups); this only
makes CI notice when a change breaks the harness or a benchmark.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from benchmarks import bench_limit_mismatch as limit_mismatch
from benchmarks._harness._emu import EmulatorServer
from benchmarks._harness._instructions import instructions_counted
from benchmarks._mismatch._ground import BASELINES, CONTRACT, recovery_periods, sizes_for, slot_occupancy
from benchmarks._results._report import render
from route_planning_async import Category, RateLimits, RoutePlanningClient

REPO = Path(__file__).resolve().parents[2]
EXPECTED = {
    "import_utilization",
    "v1_import_utilization",
    "mixed_utilization",
    "overhead",
    "decoding",
    "polling",
    "memory",
    "scaling",
    "redis",
    "limit_mismatch",
    "neighbours",
}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_quick_pass_writes_results(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        # Toy sizes, but a whole suite in a child process: room for a loaded machine.
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]

    run = json.loads((tmp_path / "results.json").read_text())
    assert run["quick"] is True
    assert set(run["benchmarks"]) == EXPECTED
    for name, bench in run["benchmarks"].items():
        assert "error" not in bench, f"{name}: {bench.get('error')}"
        for chk in bench["checks"]:
            assert chk["status"] in {"PASS", "MISSED"}, (name, chk)
    # Every benchmark but the optional Redis one reports figures and at least one bar.
    for name in EXPECTED - {"redis"}:
        assert run["benchmarks"][name]["figures"], name
        assert run["benchmarks"][name]["checks"], name
    assert run["machine"]["cores"] >= 1

    report = (tmp_path / "RESULTS.md").read_text()
    assert "## Machine" in report
    assert "## Bars" in report
    assert run["machine"]["aiohttp"] in report


def test_instruction_counting_child_makes_its_gets() -> None:
    # The child that valgrind runs (quick passes skip valgrind), run here without it.
    async def create_plan(server: EmulatorServer) -> str:
        async with RoutePlanningClient(
            server.api_key, base_url=server.base_url, rate_limits=RateLimits.unlimited()
        ) as client:
            plan = await client.plans.create(title="instructions", starts=datetime.date(2030, 1, 7))
            return plan.id

    with EmulatorServer(limits=RateLimits.unlimited(), tls=False) as server:
        plan_id = asyncio.run(create_plan(server))
        server.reset()
        for side in ("raw", "client"):
            child = [
                "benchmarks._harness._instructions",
                side,
                "20",
                server.base_url,
                server.api_key,
                plan_id,
            ]
            done = subprocess.run(
                [sys.executable, "-m", *child],
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            assert done.returncode == 0, done.stderr[-2000:]
        reads = [r for r in server.log().records if r.category == Category.READ]
        assert len(reads) == 40
        assert {r.path for r in reads} == {f"/{plan_id}"}


def test_instruction_totals_are_read_from_valgrind_output() -> None:
    output = "==123== \n==123== I   refs:      2,360,173,123\n"
    assert instructions_counted(output) == 2_360_173_123


def test_valgrind_output_without_a_total_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="no instruction count"):
        instructions_counted("==123== error: could not start\n")


def test_recovery_is_measured_in_whole_periods_whatever_the_alignment() -> None:
    # A client at the limit sends its 10 requests in bursts a little more than a period apart;
    # every window is full (>= 95% of the slots held) however the windows cut the bursts.
    period, amount = 1.0, 10
    bursts = [0.37 + k * 1.01 for k in range(40)]
    at_limit = [t + i * 0.001 for t in bursts for i in range(amount)]
    back, windows = recovery_periods(at_limit, amount, period, 0.8, at_limit[-1])
    assert back == 0
    assert min(windows) >= 0.95
    # Half the rate for the first 5 periods, then the limit: back after 5 (window 5 and on are full).
    slow = [k + 0.5 + i * 0.2 for k in range(5) for i in range(amount // 2)]
    ramp = slow + [5 + k * 1.001 + i * 0.001 for k in range(20) for i in range(amount)]
    back, windows = recovery_periods(ramp, amount, period, 0.0, ramp[-1])
    assert back == 5
    assert all(w < 0.95 for w in windows[:4])
    # A client that never gets back: None.
    assert recovery_periods(slow, amount, period, 0.0, slow[-1])[0] is None
    assert slot_occupancy([0.0], 1, 1.0, 0.5, 1.5) == pytest.approx(0.5)


@pytest.mark.slow
def test_limit_mismatch_runs_at_a_tiny_size() -> None:
    # Every scenario once, with the baselines beside one matrix run; the figures, not the bars.
    tiny = attrs.evolve(
        sizes_for(quick=True),
        reads=40,
        stops=1_000,
        cases=(("reads", CONTRACT, 0.5), ("imports", CONTRACT, 0.5)),
        baseline_cases=frozenset({("reads", CONTRACT, 0.5)}),
        latency_reads=20,
        penalty_reads=40,
        drop_reads=60,
        baselines=True,
    )
    bench = limit_mismatch.run(sizes=tiny)

    assert bench["figures"]
    assert bench["checks"]
    assert {chk["status"] for chk in bench["checks"]} <= {"PASS", "MISSED"}
    raw = bench["raw"]
    for case in raw["matrix"]:
        lib = case["library"]
        n = tiny.reads if case["workload"] == "reads" else tiny.stops
        assert lib["finished"], case
        assert lib["done"] + lib["failed"] == n
        # The emulator enforces the real limit: nobody finishes much before the ideal time.
        assert lib["ratio"] > 0.8, case
        assert 0 <= lib["share_429"] < 1
        assert lib["traffic"]["admitted_weight"] >= lib["done"]
        if case["workload"] == "reads":
            assert set(case["baselines"]) == set(BASELINES)
        for out in case["baselines"].values():
            assert out["done"] + out["failed"] == n
    for case in raw["latency"]:
        for run in (case["library"], case["strict"]):
            assert run["finished"]
            assert 0 < run["utilization"] <= 1.05
    penalty = raw["penalty"]["library"]
    assert penalty["finished"]
    assert penalty["settled"] is None or 0 <= penalty["settled"] <= 1.05
    drop = raw["drop"]["library"]
    assert drop["finished"]
    assert drop["windows_measured"] >= 1
    assert drop["recovery_periods"] is None or 0 <= drop["recovery_periods"] < drop["windows_measured"]
    # Every table renders into RESULTS.md.
    run_record = {"command": "test", "quick": True, "total_seconds": 1, "machine": {}, "benchmarks": {}}
    run_record["benchmarks"]["limit_mismatch"] = bench | {"wall_seconds": 1.0}
    report = render(run_record)
    assert "Periods back to >= 95%" in report
    assert "(c) aiolimiter + retry on 429" in report
