"""``route-planning demo`` and the entry points, run for real."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from route_planning_async._cli._app import cli


def _demo(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["demo", *args], prog_name="route-planning", catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_demo_json_runs_the_whole_workflow(tmp_path: Path) -> None:
    map_file = tmp_path / "routes.html"
    code, stdout, stderr = _demo(
        "--stops", "120", "--drivers", "3", "--speedup", "60", "--seed", "5", "--map", str(map_file), "--json"
    )
    assert code == 0, stderr
    data = json.loads(stdout)
    assert data["stops"] == 120
    assert data["imported"] == 120
    assert data["plan"].startswith("plans/")
    routes = data["routes"]
    assert [route["driver_name"] for route in routes] == ["Alex Morgan", "Sam Okoye", "Jo Fischer"]
    routed = sum(route["stops"] for route in routes)
    assert routed + len(data["skipped"]) == 120
    assert data["optimized"] == routed
    assert all(route["distance_m"] > 0 and route["driving_s"] > 0 for route in routes)
    assert all(route["first_eta"] <= route["last_eta"] for route in routes)
    assert set(data["skipped_by_reason"]) <= {"impossible_time_window"}
    stats = data["stats"]
    assert stats["batch_import"]["weight"] == 120
    assert stats["batch_import"]["requests"] == 2
    assert stats["optimize"]["requests"] == 1
    assert all(category["429s"] == 0 for category in stats.values())
    assert set(data["seconds"]) == {"import", "optimize", "distribute", "list"}
    # The map: one line per route, a dot per routed stop, a ring per skipped one.
    page = map_file.read_text(encoding="utf-8")
    assert page.count("<polyline") == 3
    assert page.count('r="2.2"') == routed
    assert page.count('r="3"') == len(data["skipped"])
    # The same seed gives the same stops, hence the same routes.
    again = json.loads(
        _demo("--stops", "120", "--drivers", "3", "--speedup", "60", "--seed", "5", "--json")[1]
    )
    assert [(r["stops"], r["distance_m"]) for r in again["routes"]] == [
        (r["stops"], r["distance_m"]) for r in routes
    ]


def test_demo_prints_routes_skipped_stops_and_stats() -> None:
    code, stdout, stderr = _demo("--stops", "300", "--drivers", "2", "--speedup", "120", "--seed", "1")
    assert code == 0, stderr
    assert "Routes" in stdout
    assert "Alex Morgan" in stdout
    assert "Sam Okoye" in stdout
    assert "Skipped stops" in stdout
    assert "impossible_time_window" in stdout
    assert "Requests per rate-limit category" in stdout
    stats_rows = {
        line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
        for line in stdout.splitlines()
        if re.match(r"│ (read|write|batch_import|optimize) ", line)
    }
    assert set(stats_rows) == {"read", "write", "batch_import", "optimize"}
    assert stats_rows["batch_import"][2] == "300"
    assert all(row[3] == "0" for row in stats_rows.values())
    assert "Importing stops" in stderr
    assert re.search(r"demo finished in \d+\.\d s", stderr)


def test_python_dash_m_and_help_document_the_exit_codes(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "100"}
    help_run = subprocess.run(
        [sys.executable, "-m", "route_planning_async", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert help_run.returncode == 0, help_run.stderr
    assert "Usage: route-planning" in help_run.stdout
    for fragment in ("demo", "plans", "stops", "optimize", "distribute", "operations", "Exit codes"):
        assert fragment in help_run.stdout
    demo_run = subprocess.run(
        [sys.executable, "-m", "route_planning_async", "demo", "--stops", "30", "--speedup", "120", "--json"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert demo_run.returncode == 0, demo_run.stderr
    assert json.loads(demo_run.stdout)["imported"] == 30


def test_a_missing_extra_is_one_clear_line() -> None:
    code = (
        "import sys; sys.modules['click'] = None\n"
        "from route_planning_async._cli import main\n"
        "main(['--help'])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr == (
        "route-planning: error: click is not installed; run: pip install 'route_planning_async[cli]'\n"
    )


def test_the_library_does_not_import_click_or_rich() -> None:
    code = (
        "import sys, route_planning_async, route_planning_async.emulator\n"
        "from route_planning_async import RoutePlanningClient\n"
        "print(sorted(name for name in ('click', 'rich') if name in sys.modules))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert run.stdout.strip() == "[]"


def test_stops_sample_writes_a_file_that_imports_cleanly(tmp_path: Path) -> None:
    target = tmp_path / "sample.csv"
    runner = CliRunner()
    written = runner.invoke(cli, ["stops", "sample", "--count", "25", "--seed", "3", "-o", str(target)])
    assert written.exit_code == 0, written.stderr
    checked = runner.invoke(cli, ["stops", "import", "p1", str(target), "--dry-run", "--json"])
    assert checked.exit_code == 0, checked.stderr
    assert json.loads(checked.stdout) == {
        "rows": 25,
        "valid": 25,
        "invalid": [],
        "columns": json.loads(checked.stdout)["columns"],
    }
    assert json.loads(checked.stdout)["columns"]["external_id"] == "external_id"


def test_a_map_that_cannot_be_written_is_refused_before_the_demo_runs(tmp_path: Path) -> None:
    code, stdout, stderr = _demo(
        "--stops", "20", "--speedup", "120", "--map", str(tmp_path / "missing" / "m.html")
    )
    assert code == 2
    assert "Routes" not in stdout
    assert stderr.strip().splitlines()[-1] == (
        f"Error: Invalid value for '--map': '{tmp_path / 'missing' / 'm.html'}': "
        f"the directory '{tmp_path / 'missing'}' does not exist"
    )
    assert "Traceback" not in stderr
