"""``drivers list|import``, ``routes get`` and ``operations cancel`` against an emulator."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from route_planning_async._cli._commands._drivers import read_driver_csv

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

DRIVERS = """\
name,email,phone,depots,start_time,max_stops,vehicle
Zoe,zoe@example.com,,north,7:30,12,bike
Bad,not-an-email,,,,,
Dup,ana@example.com,,,,,
Phone only,,+4412345,,,,
Late,late@example.com,,,25:00,,
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_drivers_list_and_filters(run: Cli) -> None:
    everyone = run.json("drivers", "list")
    assert [d["id"] for d in everyone] == [
        "drivers/driver-ana",
        "drivers/driver-ben",
        "drivers/driver-cleo",
        "drivers/driver-dan",
        "drivers/driver-paused",
    ]
    assert [d["id"] for d in run.json("drivers", "list", "--paused")] == ["drivers/driver-paused"]
    assert len(run.json("drivers", "list", "--active")) == 4
    assert len(run.json("drivers", "list", "--limit", "2")) == 2
    table = run("drivers", "list")
    assert table.exit_code == 0, table.stderr
    assert "Pat" in table.stdout
    assert "paused" in table.stdout


def test_drivers_import_reports_failures_and_is_idempotent(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    source = _write(tmp_path / "drivers.csv", DRIVERS)
    failures = tmp_path / "failed.csv"
    report = run.json("drivers", "import", source, "--failures", failures, expect=3)
    assert (report["rows"], report["imported"], report["failed"]) == (5, 2, 3)
    assert [d["line"] for d in report["drivers"]] == [2, 5]
    errors = {f["line"]: f["error"] for f in report["failures"]}
    assert errors == {
        3: "email: must be an e-mail address, got 'not-an-email'",
        4: "A driver with this email is already in the team",
        6: "column 'start_time': not a time of day (HH:MM): '25:00'",
    }
    zoe = run.json("drivers", "list")[-2]
    assert (zoe["name"], zoe["depots"]) == ("Zoe", ["depots/north"])
    assert zoe["route_overrides"]["start_time"] == "07:30:00"
    assert zoe["route_overrides"]["vehicle_type"] == "bike"
    with failures.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [row["name"] for row in rows] == ["Bad", "Dup", "Late"]
    assert [row["error"] for row in rows] == [errors[3], errors[4], errors[6]]
    imports = served_emulator.requests("drivers.import_batch")
    assert imports == 1

    # The same file again: the service refuses the e-mails and phones it already has.
    again = run.json("drivers", "import", source, expect=3)
    assert again["imported"] == 0
    assert len(run.json("drivers", "list")) == 7


def test_drivers_import_needs_an_identifying_column(run: Cli, tmp_path: Path) -> None:
    result = run("drivers", "import", _write(tmp_path / "d.csv", "name\nZoe\n"))
    assert result.exit_code == 2
    assert "'email' or a 'phone' column" in result.stderr


def test_a_repeated_email_names_both_lines_and_sends_nothing(run: Cli, tmp_path: Path) -> None:
    # The library names rows by position and advises its own option; the tool has neither.
    source = _write(
        tmp_path / "d.csv", "name,email\nAna,dup@example.com\nBob,x@example.com\nCy,dup@example.com\n"
    )
    result = run("drivers", "import", source)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "Error: line 4, email: repeats 'dup@example.com', the key of line 2: two rows would be one "
        "item to reconciliation and skip_existing (nothing was sent: give each row its own, or remove "
        "the repeat)"
    )
    assert not any(d["email"] in ("dup@example.com", "x@example.com") for d in run.json("drivers", "list"))


def test_read_driver_csv_builds_the_inputs() -> None:
    table = read_driver_csv("Full Name;E-Mail\nAna;ana@example.com\n".replace(";", ","))
    [row] = table.rows
    assert row.item is not None
    assert (row.item.name, row.item.email) == ("Ana", "ana@example.com")


# An optimization lasts 5 contract seconds: at 5x speed, a second of real time,
# ample for the cancel command that follows on a loaded machine (at the default
# 120x it ended in 40 ms, sometimes before the cancel arrived).
@pytest.mark.emulator_speedup(5)
def test_routes_get_and_operations_cancel(run: Cli, tmp_path: Path) -> None:
    plan = run.create_plan()
    stops = ["address,lat,lng"] + [f"{n} Essex Road,{51.54 + n / 1000:.3f},-0.09" for n in range(40)]
    run.json("stops", "import", plan, _write(tmp_path / "s.csv", "\n".join(stops) + "\n"))
    started = run.json("optimize", plan)
    canceled = run.json("operations", "cancel", started["id"])
    assert canceled == [{"id": started["id"], "canceled": True, "operation": canceled[0]["operation"]}]
    assert canceled[0]["operation"]["metadata"]["canceled"] is True
    again = run("operations", "cancel", started["id"])
    assert again.exit_code == 0, again.stderr
    assert "already done, not canceled" in again.stdout

    finished = run.json("optimize", plan, "--wait")
    assert finished["done"] is True
    [listed] = run.json("plans", "list", "--title", "Test plan")
    routes = run.json("routes", "get", *listed["routes"])
    assert [r["id"] for r in routes] == listed["routes"]
    assert sum(r["stop_count"] for r in routes) == 40
    shown = run("routes", "get", listed["routes"][0])
    assert shown.exit_code == 0, shown.stderr
    assert "Routes" in shown.stdout
    missing = run("routes", "get", "routes/nothing")
    assert missing.exit_code == 1
    assert "Route not found" in missing.stderr


def test_help_lists_the_new_commands(run: Cli) -> None:
    top = run("--help", connect=False)
    assert "drivers" in top.stdout
    assert "routes" in top.stdout
    assert "cancel" in run("operations", "--help", connect=False).stdout
    assert "import" in run("drivers", "--help", connect=False).stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[" * 5000 + "]" * 5000,
            "Error: the JSON nests too deep (more than 256 levels of arrays or objects)",
        ),
        (
            '[{"name": "Ana", "max_stops": ' + "9" * 401 + "}]",
            "Error: the JSON holds a number of more than 64 digits",
        ),
    ],
)
def test_a_json_file_too_deep_or_with_a_huge_number_is_a_usage_line(
    tmp_path: Path, text: str, message: str
) -> None:
    from click.testing import CliRunner

    from route_planning_async._cli._app import cli

    path = _write(tmp_path / "drivers.json", text)
    result = CliRunner().invoke(
        cli, ["drivers", "import", str(path)], env={"ROUTE_PLANNING_API_KEY": "k"}, catch_exceptions=False
    )
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == message
