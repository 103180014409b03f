"""The real commands against an emulator: import, dry run, JSON output, exit codes."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

GOOD_AND_BAD = """\
address,city,postcode,lat,lng,name,external_id,earliest,latest,duration,packages,barcodes,notes
1 Upper Street,London,N1 0PN,51.536,-0.103,Ana Silva,EXT-1,09:00,12:00,120,2,A1;A2,Ring twice
2 Upper Street,London,N1 0PN,51.537,-0.104,Ben Cohen,EXT-2,,,90,1,B1,
3 Essex Road,London,N1 2SN,95.0,-0.100,Cleo Kim,EXT-3,,,,,,
4 Essex Road,London,N1 2SN,,,Dan Lee,EXT-4,10:00,25:00,,,,
5 Mare Street UNGEOCODABLE,London,E8 1HR,,,Eve Khan,EXT-5,,,,,,
6 Mare Street,London,E8 1HR,51.545,-0.055,Fay Reyes,EXT-6,,,,three,,
7 Roman Road,London,E2 0HU,51.530,-0.045,Gus Novak,EXT-7,,,60,1,,Side door
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_import_with_good_and_bad_rows_then_feed_the_failures_back(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _write(tmp_path / "stops.csv", GOOD_AND_BAD)
    failures = tmp_path / "failed.csv"

    report = run.json("stops", "import", plan, source, "--failures", failures, expect=3)

    assert report["rows"] == 7
    assert report["imported"] == 3
    assert [stop["line"] for stop in report["stops"]] == [2, 3, 8]
    assert [failure["line"] for failure in report["failures"]] == [4, 5, 6, 7]
    errors = {failure["line"]: failure["error"] for failure in report["failures"]}
    assert errors[4].startswith("column 'lat': must be")
    assert errors[5] == "column 'latest': not a time of day: '25:00'"
    assert "geocod" in errors[6].lower()
    assert errors[7] == "column 'packages': expected a whole number, got 'three'"
    stored = served_emulator.plan_stops(plan)
    assert sorted(stop["recipient"]["externalId"] for stop in stored) == ["EXT-1", "EXT-2", "EXT-7"]
    first = next(stop for stop in stored if stop["recipient"]["externalId"] == "EXT-1")
    assert first["barcodes"] == ["A1", "A2"]
    assert first["timing"]["earliestAttemptTime"] == {"hour": 9, "minute": 0}
    assert first["notes"] == "Ring twice"

    # The report has the input's columns plus 'error', and the failed rows as they were.
    with failures.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert list(rows[0]) == [*GOOD_AND_BAD.splitlines()[0].split(","), "error"]
    assert [row["external_id"] for row in rows] == ["EXT-3", "EXT-4", "EXT-5", "EXT-6"]
    assert [row["error"] for row in rows] == [errors[4], errors[5], errors[6], errors[7]]

    # Fed back as it is, the same rows fail again, now numbered by the report's lines.
    again = run.json("stops", "import", plan, failures, expect=3)
    assert again["imported"] == 0
    assert [failure["line"] for failure in again["failures"]] == [2, 3, 4, 5]

    # Fixed in place (the error column stays), every row goes in and the exit code is 0.
    rows[0]["lat"] = "51.540"
    rows[1]["latest"] = "17:00"
    rows[2]["address"] = "5 Mare Street"
    rows[3]["packages"] = "3"
    with failures.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    fixed = run("stops", "import", plan, failures)
    assert fixed.exit_code == 0, fixed.stderr
    assert "imported 4 of 4 stops" in fixed.stderr
    assert len(served_emulator.plan_stops(plan)) == 7


def test_dry_run_reports_bad_rows_and_sends_nothing(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    source = _write(tmp_path / "stops.csv", GOOD_AND_BAD)
    before = len(served_emulator.emulator.log)

    result = run("stops", "import", "plans/anything", source, "--dry-run")

    assert result.exit_code == 2
    assert result.stdout == ""  # the table is for humans: stderr
    assert "Invalid rows" in result.stderr
    for line in ("4", "5", "7"):
        assert f"│ {line:>5} │" in result.stderr
    assert "4 of 7 rows are valid; nothing was sent (dry run)" in result.stderr
    assert len(served_emulator.emulator.log) == before

    data = run.json("stops", "import", "plans/anything", source, "--dry-run", expect=2)
    assert data["rows"] == 7
    assert data["valid"] == 4
    assert [row["line"] for row in data["invalid"]] == [4, 5, 7]
    assert data["columns"]["latitude"] == "lat"
    assert len(served_emulator.emulator.log) == before


def test_dry_run_needs_no_key_and_passes_a_clean_file(run: Cli, tmp_path: Path) -> None:
    lines = GOOD_AND_BAD.splitlines()
    source = _write(tmp_path / "clean.csv", "\n".join([lines[0], lines[1], lines[2], lines[7]]) + "\n")
    result = run("stops", "import", "p1", source, "--dry-run", key="", connect=False)
    assert result.exit_code == 0, result.stderr
    assert "3 of 3 rows are valid" in result.stderr


def test_map_column_overrides_the_header_match(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = run.create_plan()
    source = _write(
        tmp_path / "custom.csv",
        "Where,Ref,Window\n1 Upper Street London,R-1,10:00\n2 Upper Street London,R-2,\n",
    )
    report = run.json(
        "stops",
        "import",
        plan,
        source,
        "--map-column",
        "address=Where",
        "--map-column",
        "externalId=Ref",
        "--map-column",
        "earliest=Window",
    )
    assert report["imported"] == 2
    stored = {stop["recipient"]["externalId"]: stop for stop in served_emulator.plan_stops(plan)}
    assert stored["R-1"]["address"]["addressLineOne"] == "1 Upper Street London"
    assert stored["R-1"]["timing"]["earliestAttemptTime"] == {"hour": 10, "minute": 0}


def test_plans_optimize_distribute_and_wait_in_json(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    created = run.json("plans", "list", "--title", "Test plan", "--from", "2026-03-01")
    assert [item["id"] for item in created] == [plan]
    assert [driver["id"] for driver in created[0]["drivers"]] == ["drivers/driver-ana", "drivers/driver-ben"]
    assert run.json("plans", "list", "--from", "2026-03-03") == []

    stops = ["address,lat,lng,external_id"] + [
        f"{n} Upper Street,{51.50 + n / 1000:.3f},{-0.10 - n / 1000:.3f},X-{n}" for n in range(40)
    ]
    run.json("stops", "import", plan, _write(tmp_path / "s.csv", "\n".join(stops) + "\n"))

    # 40 stops is more than the emulator optimizes at once: the operation starts running.
    started = run.json("optimize", plan)
    assert started["id"].startswith("operations/")
    waited = run.json("operations", "wait", started["id"])
    assert [operation["id"] for operation in waited] == [started["id"]]
    assert waited[0]["done"] is True
    assert waited[0]["result"]["num_optimized_stops"] == 40

    distributed = run.json("distribute", plan)
    assert distributed["distributed"] is True
    assert len(distributed["routes"]) == 2

    # The optimized plan is not writable: one clear error, and nothing is sent.
    imports_before = run.served.requests("stops.import_batch")
    late = run("stops", "import", plan, tmp_path / "s.csv")
    assert late.exit_code == 1
    assert late.stderr.strip().splitlines() == [
        f"Error: {plan} is not writable (it was optimized): import into it with --live "
        "(its editing session, then re-optimized and redistributed)"
    ]
    assert run.served.requests("stops.import_batch") == imports_before


def test_optimize_wait_prints_the_result(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan(drivers=["driver-ana"])
    stops = ["address,lat,lng"] + [f"{n} Essex Road,{51.54 + n / 1000:.3f},-0.09" for n in range(30)]
    run.json("stops", "import", plan, _write(tmp_path / "s.csv", "\n".join(stops) + "\n"))
    result = run("optimize", plan, "--wait")
    assert result.exit_code == 0, result.stderr
    # The outcome is on stderr; stdout is the operation id alone, as without --wait.
    assert "optimized 30 stops, 0 skipped" in result.stderr
    assert re.fullmatch(r"operations/\w+\n", result.stdout)


def test_json_output_is_alone_on_stdout(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    source = _write(tmp_path / "stops.csv", GOOD_AND_BAD)
    result = run("stops", "import", plan, source, "--json")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert data["imported"] == 3
    # No progress bar, table or note in JSON mode, not even on stderr.
    assert result.stderr == ""


def test_exit_codes_and_one_line_errors(run: Cli, tmp_path: Path) -> None:
    def check(result_code: int, stderr: str, fragment: str) -> None:
        lines = stderr.strip().splitlines()
        assert len(lines) == 1, stderr
        assert "Traceback" not in stderr
        assert fragment in lines[0]
        assert result_code in (1, 2)

    missing_key = run("plans", "list", key="")
    assert missing_key.exit_code == 2
    check(missing_key.exit_code, missing_key.stderr, "no API key: set ROUTE_PLANNING_API_KEY")
    assert missing_key.stdout == ""

    wrong_key = run("plans", "list", key="not-the-key")
    assert wrong_key.exit_code == 1
    check(wrong_key.exit_code, wrong_key.stderr, "401")

    key_file = tmp_path / "key"
    key_file.write_text(run.served.emulator.api_key + "\n", encoding="utf-8")
    from_file = run("--api-key-file", key_file, "plans", "list", "--json", key="")
    assert from_file.exit_code == 0, from_file.stderr
    assert json.loads(from_file.stdout) == []

    not_found = run("distribute", "plans/nope")
    assert not_found.exit_code == 1
    check(not_found.exit_code, not_found.stderr, "404")

    one_stop = _write(tmp_path / "one.csv", "address\n1 Upper Street\n")
    no_plan = run("stops", "import", "plans/nope", one_stop, "--json")
    assert no_plan.exit_code == 1
    check(no_plan.exit_code, no_plan.stderr, "404: Plan not found")
    assert no_plan.stdout == ""

    bad_id = run("optimize", "plans/not/valid")
    assert bad_id.exit_code == 2
    check(bad_id.exit_code, bad_id.stderr, "plan_id: must be 1 to 50 letters")

    invalid = run("plans", "create", "--title", "x" * 256, "--starts", "2026-03-02")
    assert invalid.exit_code == 2
    check(invalid.exit_code, invalid.stderr, "title: must be 1 to 255 characters")

    no_address = _write(tmp_path / "bad.csv", "name,email\nAna,ana@example.com\n")
    bad_csv = run("stops", "import", "p1", no_address)
    assert bad_csv.exit_code == 2
    check(bad_csv.exit_code, bad_csv.stderr, "no address column")

    bad_mapping = run("stops", "import", "p1", no_address, "--map-column", "colour=name")
    assert bad_mapping.exit_code == 2
    check(bad_mapping.exit_code, bad_mapping.stderr, "unknown field 'colour'")

    bad_date = run("plans", "list", "--from", "tomorrow")
    assert bad_date.exit_code == 2
    assert "expected a date as YYYY-MM-DD" in bad_date.stderr


def test_emulator_flag_runs_against_a_fresh_emulator(run: Cli) -> None:
    result = run("--emulator", "plans", "create", "--title", "Try", "--starts", "2026-03-02", connect=False)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("plans/")
    # A fresh one each time: the plan above is not there any more.
    listed = run("plans", "list", "--emulator", "--json", key="", connect=False)
    assert listed.exit_code == 0, listed.stderr
    assert json.loads(listed.stdout) == []


def test_emulator_flag_beside_an_address_of_its_own_is_refused_not_dropped(run: Cli, tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("k", encoding="utf-8")
    result = run(
        "--emulator",
        "--base-url",
        "http://127.0.0.1:9/public/v0.2b",
        "plans",
        "list",
        "--api-key-file",
        key,
        connect=False,
    )
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: --emulator talks to a fresh emulator, with its own address, key and certificate: "
        "--base-url and --api-key-file would be ignored; give one or the other"
    )
