"""What an import tells after Ctrl-C or a refusal, its JSON counts, and ``-`` for stdin and stdout."""

from __future__ import annotations

import csv
import io
import json
import re
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from route_planning_async._cli import _progress
from route_planning_async.emulator import Fault

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

ROWS = 1500
VOLATILE = {"elapsed_s", "waited_s", "429s", "retries"}
"""NDJSON fields that depend on timing, left out of the exact comparisons."""


def _sample(run: Cli, path: Path, count: int) -> Path:
    result = run("stops", "sample", "--count", str(count), "--output", path, connect=False)
    assert result.exit_code == 0, result.stderr
    return path


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def assert_agrees(report: dict[str, Any], invalid: int = 0) -> None:
    """The JSON report's counts and its ``summary`` say the same about every row."""
    summary = report["summary"]
    assert report["rows"] == report["imported"] + report["skipped"] + report["failed"] + report["not_sent"]
    assert (report["imported"], report["skipped"]) == (summary["created"], summary["skipped"])
    assert report["not_sent"] == summary["not_sent"]
    assert report["failed"] == invalid + summary["rejected"] + summary["not_created"] + summary["unknown"]
    assert 0 <= summary["waited_s"] <= summary["elapsed_s"]


@pytest.fixture
def ctrl_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C is pressed once, when the first batch has finished."""
    pressed: list[Any] = []

    def press(progress: Any) -> None:
        if not pressed:
            pressed.append(progress)
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(_progress, "on_progress_event", press)


@pytest.mark.usefixtures("ctrl_c")
def test_after_ctrl_c_rows_never_sent_are_not_sent_not_failed(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", ROWS)
    result = run("stops", "import", plan, source, "--progress", "json")
    assert result.exit_code == 130, result.stderr
    stored = len(served_emulator.plan_stops(plan))
    left = ROWS - stored
    assert 0 < stored < ROWS

    # stdout stays for machines: without --json nothing is printed there.
    assert result.stdout == ""
    # stderr is JSON, every line of it: the progress events, Ctrl-C's, the summary, the advice.
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    stopping = {
        "event": "stopping",
        "message": "stopping: no new batches; waiting for those in flight (Ctrl-C again to abandon them)",
    }
    assert lines[0]["event"] == "progress"  # Ctrl-C is pressed once the first batch is done
    assert [line for line in lines if line["event"] == "stopping"] == [stopping]
    kinds = [line["event"] for line in lines if line["event"] != "progress"]
    assert kinds == ["stopping", "done", "summary", "note"]
    events = [line for line in lines if line["event"] in ("progress", "done")]
    assert all(event["failed"] == 0 for event in events)
    done = {key: value for key, value in events[-1].items() if key not in VOLATILE}
    assert done == {
        "event": "done",
        "done": ROWS,
        "total": ROWS,
        "created": stored,
        "skipped": 0,
        "failed": 0,
        "not_sent": left,
        "unknown": 0,
    }
    remaining = tmp_path / "stops.remaining.csv"
    summary, advice = lines[-2:]
    assert (summary["plan"], summary["rows"], summary["interrupted"]) == (plan, ROWS, True)
    assert (summary["imported"], summary["failed"], summary["not_sent"]) == (stored, 0, left)
    assert summary["summary"]["created"] == stored
    assert summary["failures_file"] == str(remaining)
    assert advice["message"] == (
        f"{left} row(s) not sent, written to {remaining}; "
        "import that file (or the original with --skip-existing) to finish"
    )
    assert len(_rows(remaining.read_text(encoding="utf-8"))) == left


@pytest.mark.usefixtures("ctrl_c")
def test_after_ctrl_c_the_json_report_counts_not_sent_apart(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", ROWS)
    report = run.json("stops", "import", plan, source, expect=130)
    stored = len(served_emulator.plan_stops(plan))
    left = ROWS - stored
    counts = {
        key: report[key] for key in ("rows", "imported", "skipped", "failed", "not_sent", "interrupted")
    }
    assert counts == {
        "rows": ROWS,
        "imported": stored,
        "skipped": 0,
        "failed": 0,
        "not_sent": left,
        "interrupted": True,
    }
    summary = report["summary"]
    assert (summary["created"], summary["not_sent"], summary["not_created"]) == (stored, left, 0)
    assert_agrees(report)
    assert report["failures_file"] == str(tmp_path / "stops.remaining.csv")
    assert len(report["failures"]) == left


def test_refused_rows_are_failed_and_the_advice_is_to_fix_them(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", 150)
    rows = _rows(source.read_text(encoding="utf-8"))
    rows[120]["notes"] = "REFUSE-ME"
    with source.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    served_emulator.emulator.faults.add(Fault("reject_stop", route="stops.import_batch", marker="REFUSE-ME"))
    failed = tmp_path / "failed.csv"
    result = run("stops", "import", plan, source, "--failures", failed, "--progress", "none")
    assert result.exit_code == 3
    assert result.stdout == ""
    notes = result.stderr.splitlines()
    assert notes[-1] == f"1 failed row(s) written to {failed}; fix them and import that file"
    assert "not sent" not in result.stderr


def test_the_json_counts_agree_with_the_summary_on_a_resumed_import(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", 300)
    run.json("stops", "import", plan, source)
    again = run.json("stops", "import", plan, source, "--skip-existing")
    summary = again["summary"]
    assert (again["imported"], again["skipped"], again["failed"], again["not_sent"]) == (0, 300, 0, 0)
    assert (summary["created"], summary["skipped"]) == (again["imported"], again["skipped"])
    assert again["rows"] == again["imported"] + again["skipped"] + again["failed"] + again["not_sent"]
    assert_agrees(again)
    assert len(again["stops"]) == 300  # every row's stop, created now or found there


def test_the_wait_for_capacity_is_wall_time_within_the_import(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", 30)
    result = run("stops", "import", plan, source, "--progress", "none")
    assert result.exit_code == 0, result.stderr
    line = next(line for line in result.stderr.splitlines() if "import requests in" in line)
    found = re.match(r"\d+ import requests in ([\d.]+) s \(([\d.]+) s of it waiting for capacity\); ", line)
    assert found, line
    assert float(found.group(2)) <= float(found.group(1))
    assert "summed" not in result.stderr


def test_refused_and_invalid_rows_agree_between_the_counts_and_the_summary(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    text = "external_id,address,lat,lng,notes\n" + "".join(
        f"r-{i},{i} Main St,52.1,4.3,{'REFUSE-ME' if i == 3 else ''}\n" for i in range(8)
    )
    text += "bad-1,9 Main St,999,4.3,\n"
    served_emulator.emulator.faults.add(Fault("reject_stop", route="stops.import_batch", marker="REFUSE-ME"))
    result = run("stops", "import", plan, "-", "--json", input=text)
    assert result.exit_code == 3, result.stderr
    report = json.loads(result.stdout)
    assert (report["rows"], report["imported"], report["failed"]) == (9, 7, 2)
    assert report["summary"]["rejected"] == 1
    assert_agrees(report, invalid=1)


def test_a_sample_piped_through_dashes_imports(run: Cli, served_emulator: ServedEmulator) -> None:
    sample = run("stops", "sample", "--count", "30", "-o", "-", connect=False)
    assert sample.exit_code == 0, sample.stderr
    assert sample.stdout.startswith("address_line_one,")
    plan = run.create_plan()
    report = run("stops", "import", plan, "-", "--json", input=sample.stdout)
    assert report.exit_code == 0, report.stderr
    assert json.loads(report.stdout)["imported"] == 30
    assert len(served_emulator.plan_stops(plan)) == 30

    exported = run("stops", "export", plan, "-")
    assert exported.exit_code == 0, exported.stderr
    assert len(_rows(exported.stdout)) == 30
    assert exported.stderr.strip() == f"30 stop(s) of {plan} written to stdout"


def test_dash_for_the_failures_file_writes_them_to_stdout(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    text = "external_id,address,lat,lng\nok-1,1 Main St,52.1,4.3\nbad-1,2 Main St,999,4.3\n"
    result = run("stops", "import", plan, "-", "--failures", "-", "--progress", "none", input=text)
    assert result.exit_code == 3
    [failure] = _rows(result.stdout)
    assert (failure["external_id"], failure["error"] != "") == ("bad-1", True)


@pytest.mark.usefixtures("ctrl_c")
def test_an_interrupted_import_from_stdin_writes_the_rest_beside(
    run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = run.create_plan()
    text = _sample(run, tmp_path / "stops.csv", ROWS).read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("stops", "import", plan, "-", "--progress", "none", input=text)
    assert result.exit_code == 130, result.stderr
    assert "written to stdin.remaining.csv; import that file" in result.stderr
    assert (tmp_path / "stdin.remaining.csv").exists()


@pytest.fixture
def backend_fails_after_two_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate-limit backend stops answering once two batches were admitted (Redis went away)."""
    from route_planning_async._import._batches import BatchSender
    from route_planning_async.redis import RedisBackendError

    admitted: list[object] = []
    original = BatchSender.import_batch

    async def import_batch(self: Any, run: Any, pending: list[int]) -> None:
        if len(admitted) >= 2:
            raise RedisBackendError("Redis at redis://127.0.0.1:6391/0 did not answer within 2 s")
        admitted.append(run)
        await original(self, run, pending)

    monkeypatch.setattr(BatchSender, "import_batch", import_batch)


@pytest.mark.usefixtures("backend_fails_after_two_batches")
@pytest.mark.parametrize("mode", ["text", "json"])
def test_an_error_that_ends_the_import_still_tells_every_row_and_keeps_the_rest(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path, mode: str
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", ROWS)
    args = ("stops", "import", plan, source, "--progress", "none")
    result = run(*args, *(("--json",) if mode == "json" else ()))
    assert result.exit_code == 1, result.stderr
    stored = len(served_emulator.plan_stops(plan))
    assert stored == 200  # two batches of 100
    remaining = tmp_path / "stops.remaining.csv"
    # Every row not created is in the file, to be imported again: nothing is lost.
    assert len(_rows(remaining.read_text(encoding="utf-8"))) == ROWS - stored
    assert "did not answer within 2 s" in result.stderr
    if mode == "json":
        report = json.loads(result.stdout)
        assert (report["imported"], report["rows"]) == (stored, ROWS)
        assert report["imported"] + report["failed"] + report["not_sent"] == ROWS
        assert report["summary"]["stopped"].startswith("an error: Redis at")
        assert report["failures_file"] == str(remaining)
    else:
        assert f"imported {stored} of {ROWS} stops into {plan}" in result.stderr


def test_drivers_import_reads_stdin(run: Cli) -> None:
    report = run("drivers", "import", "-", "--json", input="name,email\nZoe,zoe@example.com\n")
    assert report.exit_code == 0, report.stderr
    assert json.loads(report.stdout)["imported"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("stops", "export", "plans/p", "-", "--json"), "CSV -: stdout carries the --json output"),
        (("stops", "import", "plans/p", "-", "--failures", "-", "--json"), "--failures -: stdout carries"),
        (("drivers", "import", "-", "--failures", "-", "--json"), "--failures -: stdout carries"),
        (("demo", "--map", "-"), "'-' (stdout) cannot be used here"),
    ],
)
def test_dash_is_refused_where_stdout_is_the_commands_own(
    run: Cli, args: tuple[str, ...], message: str
) -> None:
    result = run(*args, input="")
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


@pytest.mark.usefixtures("ctrl_c")
def test_after_ctrl_c_the_summary_says_plainly_why_it_stopped(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _sample(run, tmp_path / "stops.csv", ROWS)
    result = run("stops", "import", plan, source, "--progress", "lines")
    assert result.exit_code == 130, result.stderr
    left = ROWS - len(served_emulator.plan_stops(plan))
    assert "this batch" not in result.stderr
    assert (
        f"stopped early: interrupted (Ctrl-C or SIGTERM): no batch was sent after it; {left} row(s) not sent"
        in " ".join(result.stderr.split())
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("stops", "import", "--progress", "json", "--no-such-option"), "No such option '--no-such-option'"),
        (("stops", "import", "--progress=json"), "Missing argument 'PLAN'."),
        (("--no-such-root-option", "stops", "import", "--progress", "json"), "No such option"),
    ],
)
def test_with_json_progress_clicks_own_usage_errors_are_json_too(
    run: Cli, args: tuple[str, ...], message: str
) -> None:
    result = run(*args, connect=False)
    assert result.exit_code == 2
    [event] = [json.loads(line) for line in result.stderr.splitlines()]
    assert (event["event"], event["exit_code"]) == ("error", 2)
    assert message in event["message"]
    assert event["usage"].startswith("Usage: route-planning")
