"""The benchmark suite still runs: a ``--quick`` pass on toy sizes writes both result files.

The figures of a quick pass mean nothing (toy sizes, big speed-ups); this only
makes CI notice when a change breaks the harness or a benchmark.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
