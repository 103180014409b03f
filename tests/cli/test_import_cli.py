"""``stops import`` for long and hostile runs: resume, Ctrl-C, progress, duplicates, grouped failures."""

from __future__ import annotations

import asyncio
import csv
import json
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import pytest

from route_planning_async._cli import _progress
from route_planning_async._cli._output._render import line_ranges
from route_planning_async._rate_limits._limits import Category
from route_planning_async.emulator import Fault

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator


def _sample(run: Cli, path: Path, count: int) -> Path:
    result = run("stops", "sample", "--count", str(count), "--output", path, connect=False)
    assert result.exit_code == 0, result.stderr
    return path


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_help_shows_the_new_options(run: Cli) -> None:
    result = run("stops", "import", "--help", connect=False)
    assert result.exit_code == 0
    for option in (
        "--skip-existing",
        "--allow-duplicate-external-ids",
        "--no-dedupe",
        "--deadline",
        "--progress",
    ):
        assert option in result.stdout


def test_progress_lines_on_stderr_when_it_is_not_a_terminal(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "s.csv", 250)
    result = run("stops", "import", plan, source)
    assert result.exit_code == 0, result.stderr
    assert "import: 250/250 rows done (250 created, 0 skipped, 0 failed, 0 unknown)" in result.stderr
    assert "import requests in" in result.stderr
    assert "429s" in result.stderr


def test_one_progress_line_for_the_last_counts(run: Cli, tmp_path: Path) -> None:
    # One batch: its progress call, then the final one with the same counts, print one line.
    result = run("stops", "import", run.create_plan(), _sample(run, tmp_path / "s.csv", 5))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("import: 5/5 rows done (5 created, 0 skipped, 0 failed, 0 unknown)") == 1


def test_json_progress_streams_ndjson_events_and_a_summary(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "s.csv", 250)
    result = run("stops", "import", plan, source, "--json", "--progress", "json")
    assert result.exit_code == 0, result.stderr
    events = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    assert [e["event"] for e in events] == ["progress"] * 3 + ["done"]
    assert events[-1]["created"] == 250
    assert {"429s", "retries", "elapsed_s", "done", "total"} <= set(events[0])
    report = json.loads(result.stdout)
    assert report["imported"] == 250
    assert {"429s", "retries", "waited_s", "learned_limits"} <= set(report["summary"])


def test_duplicate_external_ids_are_refused_naming_both_lines(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "s.csv", 120)
    rows = _rows(source)
    rows[99]["external_id"] = rows[4]["external_id"]
    with source.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    before = served_emulator.requests("stops.import_batch")
    result = run("stops", "import", plan, source)
    assert result.exit_code == 2
    assert "line 101" in result.stderr
    assert "also on line 6" in result.stderr
    assert served_emulator.requests("stops.import_batch") == before
    dry = run.json("stops", "import", plan, source, "--dry-run", expect=2)
    assert [bad["line"] for bad in dry["invalid"]] == [101]
    accepted = run.json("stops", "import", plan, source, "--allow-duplicate-external-ids")
    assert accepted["imported"] == 120


def test_a_refused_batch_is_one_row_of_the_failure_table(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "s.csv", 250)
    rows = _rows(source)
    rows[150]["notes"] = "REFUSE-THIS-BATCH"  # CSV line 152: in the second batch, lines 102-201
    with source.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    # The batch is picked by its content, not by its arrival: batches go out
    # concurrently, and on a loaded machine the third may arrive second.
    refusal = Fault("error", route="stops.import_batch", status=422, marker="REFUSE-THIS-BATCH", times=1)
    served_emulator.emulator.faults.add(refusal)
    result = run("stops", "import", plan, source)
    assert result.exit_code == 3
    assert result.stdout == ""  # the table is for humans: stderr
    table = [line for line in result.stderr.splitlines() if "102-201" in line]
    assert len(table) == 1
    assert "│  100 │" in table[0]


def test_a_refused_stop_costs_only_itself_and_names_its_line(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "s.csv", 150)
    rows = _rows(source)
    rows[120]["notes"] = "REFUSE-ME"
    with source.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    served_emulator.emulator.faults.add(Fault("reject_stop", route="stops.import_batch", marker="REFUSE-ME"))
    report = run.json("stops", "import", plan, source, expect=3)
    assert report["imported"] == 149
    [failure] = report["failures"]
    assert failure["line"] == 122
    assert "[20].notes" in failure["error"]
    assert len(served_emulator.plan_stops(plan)) == 149


def test_ctrl_c_stops_writes_the_rest_and_exits_130_then_skip_existing_resumes(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "s.csv", 1500)
    pressed: list[Any] = []

    def press_ctrl_c(progress: Any) -> None:
        if not pressed:
            pressed.append(progress)
            signal.raise_signal(signal.SIGINT)

    # The client at the emulator's pace (a contract minute lasts half a second), as a user
    # testing against a sped-up emulator configures it: the resume then waits half a
    # second for a window, not a real minute.
    limits = tmp_path / "limits.json"
    rules = served_emulator.emulator.config.server_limits.for_category(Category.BATCH_IMPORT)
    limits.write_text(json.dumps({"batch_import": [attrs.asdict(rule) for rule in rules]}))
    monkeypatch.setattr(_progress, "on_progress_event", press_ctrl_c)
    result = run("stops", "import", plan, source, "--limits", limits)
    assert result.exit_code == 130, result.stderr
    assert "stopping: no new batches" in result.stderr
    remaining = tmp_path / "s.remaining.csv"
    assert remaining.exists()
    left = _rows(remaining)
    stored = len(served_emulator.plan_stops(plan))
    assert 0 < stored < 1500
    assert len(left) == 1500 - stored
    assert all(row["error"].startswith("not sent") for row in left)
    assert f"imported {stored} of 1500" in result.stderr

    monkeypatch.setattr(_progress, "on_progress_event", lambda progress: None)
    again = run.json("stops", "import", plan, source, "--skip-existing", "--limits", limits)
    assert again["skipped"] == stored
    assert again["imported"] == again["summary"]["created"] == 1500 - stored
    keys = [stop["recipient"]["externalId"] for stop in served_emulator.plan_stops(plan)]
    assert len(keys) == len(set(keys)) == 1500


def test_ctrl_c_keeps_its_default_where_the_loop_cannot_take_a_signal_handler() -> None:
    class NoSignals(asyncio.SelectorEventLoop):
        def add_signal_handler(self, sig: int, callback: Callable[..., object], *args: object) -> None:
            raise NotImplementedError  # what a loop without signal support (Windows) does

    loop = NoSignals()
    try:
        assert _progress._install_sigint(loop, lambda: None) is False
    finally:
        loop.close()

    installed: list[bool] = []

    def off_the_main_thread() -> None:
        other = asyncio.new_event_loop()
        try:
            installed.append(_progress._install_sigint(other, lambda: None))
        finally:
            other.close()

    thread = threading.Thread(target=off_the_main_thread)
    thread.start()
    thread.join()
    assert installed == [False]

    main = asyncio.new_event_loop()
    try:
        assert _progress._install_sigint(main, lambda: None) is True
        assert main.remove_signal_handler(signal.SIGINT) is True
    finally:
        main.close()


def test_line_ranges() -> None:
    assert line_ranges([5, 2, 3, 4, 9, None]) == "2-5, 9"
    assert line_ranges([None]) == "—"
    assert line_ranges(range(0, 40, 2), limit=2) == "0, 2, … (18 more)"


def test_live_imports_into_an_optimized_plan_and_applies_the_session(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    first = _sample(run, tmp_path / "first.csv", 30)
    assert run("stops", "import", plan, first).exit_code == 0
    optimized = run("optimize", plan, "--wait")
    assert optimized.exit_code == 0, optimized.stderr
    more = tmp_path / "more.csv"
    rows = _rows(_sample(run, tmp_path / "sample.csv", 50))[30:]
    with more.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    refused = run("stops", "import", plan, more)
    assert refused.exit_code == 1
    assert "--live" in refused.stderr

    live = run("stops", "import", plan, more, "--live")
    assert live.exit_code == 0, live.stderr
    deliveries = [stop for stop in run.served.plan_stops(plan) if stop.get("type", "stop") == "stop"]
    assert len(deliveries) == 50
    assert run.served.requests("stops.live_import_batch") == 1
    assert run.served.requests("plans.reoptimize") == 1
