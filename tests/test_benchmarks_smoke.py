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

import pytest

from benchmarks._emu import EmulatorServer
from benchmarks._instructions import instructions_counted
from route_planning_async import Category, RateLimits, RoutePlanningClient

REPO = Path(__file__).resolve().parent.parent
EXPECTED = {
    "import_utilization",
    "mixed_utilization",
    "overhead",
    "decoding",
    "polling",
    "memory",
    "scaling",
    "redis",
}


def test_quick_pass_writes_results(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=90,
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
            child = ["benchmarks._instructions", side, "20", server.base_url, server.api_key, plan_id]
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
