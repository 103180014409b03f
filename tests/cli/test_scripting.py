"""The CLI in scripts: bare ids on stdout, whole ids in piped tables, plans get/delete, stops list/export."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from route_planning_async import Operation, OptimizationFailedError
from route_planning_async._cli._commands import _plans, _routes

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

STOPS = (
    "address,city,postcode,lat,lng,name,email,phone,external_id,earliest,latest,duration,packages,"
    "barcodes,products,order_id,notes,activity\n"
    "1 Upper Street,London,N1 0PN,51.536,-0.103,Ana Silva,ana@example.com,+442071234567,EXT-1,"
    '09:00,12:00,120,2,A1;A2,Shoes,ORD-1,"Ring twice, then wait",delivery\n'
    "2 Upper Street,London,N1 0PN,51.537,-0.104,Ben Cohen,,,EXT-2,,,90,1,B1,,,,pickup\n"
    '3 Essex Road,London,N1 2SN,51.540,-0.100,Cleo Kim,,,EXT-3,14:30,17:45,,,,,,"two\nlines",\n'
)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _imported_plan(run: Cli, tmp_path: Path, text: str = STOPS) -> str:
    plan = run.create_plan(drivers=["driver-ana"])
    report = run.json("stops", "import", plan, _write(tmp_path / "stops.csv", text))
    assert report["failed"] == 0, report["failures"]
    return plan


def test_optimize_prints_the_bare_operation_id_that_operations_wait_takes(run: Cli, tmp_path: Path) -> None:
    plan = _imported_plan(run, tmp_path)

    started = run("optimize", plan)
    assert started.exit_code == 0, started.stderr
    # OP=$(route-planning optimize P): stdout is the id and its newline, nothing else.
    assert re.fullmatch(r"operations/\w+\n", started.stdout)
    operation = started.stdout.strip()
    assert f"started {operation} for {plan}" in started.stderr

    waited = run("operations", "wait", operation)
    assert waited.exit_code == 0, waited.stderr
    assert f"{operation}: optimized 3 stops" in waited.stdout


def test_optimize_json_prints_json_only(run: Cli, tmp_path: Path) -> None:
    for extra in ((), ("--wait",)):
        plan = _imported_plan(run, tmp_path)
        operation = run.json("optimize", plan, *extra)
        assert operation["id"].startswith("operations/")
        assert operation["metadata"]["target_plan_id"] == plan
        if extra:
            assert operation["done"] is True


def test_piped_tables_keep_whole_ids(run: Cli, tmp_path: Path) -> None:
    plan = _imported_plan(run, tmp_path)
    for _ in range(2):
        run.create_plan(drivers=["driver-ana", "driver-ben", "driver-cleo", "driver-dan"])
    stop_ids = [stop["id"] for stop in run.json("stops", "list", plan)]
    assert len(stop_ids) == 3
    assert all(len(stop_id) > 40 for stop_id in stop_ids)
    operation = run("optimize", plan, "--wait").stdout.strip()
    route_ids = run.json("plans", "get", plan)["routes"]
    driver_ids = [driver["id"] for driver in run.json("drivers", "list")]

    # CliRunner's stdout is not a terminal, as in `route-planning plans list | grep`.
    tables = {
        "plans list": (run("plans", "list"), [plan]),
        "plans get": (run("plans", "get", plan), [plan, *route_ids, "drivers/driver-ana"]),
        "stops list": (run("stops", "list", plan), stop_ids),
        "drivers list": (run("drivers", "list"), driver_ids),
        "routes get": (run("routes", "get", *route_ids), route_ids),
        "operations wait": (run("operations", "wait", operation), [operation]),
    }
    for name, (result, ids) in tables.items():
        assert result.exit_code == 0, (name, result.stderr)
        assert "…" not in result.stdout, (name, result.stdout)
        for expected in ids:
            assert expected in result.stdout, (name, expected, result.stdout)


def test_plans_get_shows_the_plan(run: Cli) -> None:
    plan = run.create_plan()
    shown = run("plans", "get", plan)
    assert shown.exit_code == 0, shown.stderr
    assert plan in shown.stdout
    assert "Test plan" in shown.stdout
    assert "drivers/driver-ben" in shown.stdout
    data = run.json("plans", "get", plan.removeprefix("plans/"))
    assert data["id"] == plan
    assert data["starts"] == "2026-03-02"

    missing = run("plans", "get", "plans/nope")
    assert missing.exit_code == 1
    assert missing.stderr.startswith("Error: ")


def test_plans_delete_asks_or_needs_yes(
    run: Cli, served_emulator: ServedEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = run.create_plan()
    deletes = served_emulator.requests("plans.delete")

    # No terminal to ask on and no --yes: a usage error, nothing sent.
    refused = run("plans", "delete", plan)
    assert refused.exit_code == 2
    assert "pass --yes" in refused.stderr
    assert served_emulator.requests("plans.delete") == deletes

    # On a terminal, answering no keeps the plan.
    monkeypatch.setattr(_plans, "_interactive", lambda: True)
    kept = run("plans", "delete", plan, input="n\n")
    assert kept.exit_code == 1
    assert "Delete" in kept.stderr
    assert run.json("plans", "get", plan)["id"] == plan

    answered = run("plans", "delete", plan, input="y\n")
    assert answered.exit_code == 0, answered.stderr
    assert answered.stdout == f"{plan}\n"
    assert served_emulator.requests("plans.delete") == deletes + 1

    other = run.create_plan()
    monkeypatch.setattr(_plans, "_interactive", lambda: False)
    assert run.json("plans", "delete", other, "--yes") == {"deleted": other}
    assert run.json("plans", "list") == []


def test_stops_list_table_and_json(run: Cli, tmp_path: Path) -> None:
    plan = _imported_plan(run, tmp_path)
    listed = run.json("stops", "list", plan)
    assert [stop["recipient"]["external_id"] for stop in listed] == ["EXT-1", "EXT-2", "EXT-3"]
    assert run.json("stops", "list", plan, "--limit", "2") == listed[:2]

    table = run("stops", "list", plan)
    assert table.exit_code == 0, table.stderr
    for stop in listed:
        assert stop["id"] in table.stdout
    assert "Ana Silva" in table.stdout
    assert "09:00-12:00" in table.stdout
    assert "3 stop(s)" in table.stderr


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_export_reads_back_as_the_same_stops(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    plan = _imported_plan(run, tmp_path)
    first = tmp_path / "first.csv"
    assert run.json("stops", "export", plan, first) == {"plan": plan, "stops": 3, "file": str(first)}

    rows = _rows(first)
    assert [row["external_id"] for row in rows] == ["EXT-1", "EXT-2", "EXT-3"]
    assert rows[0]["barcodes"] == "A1;A2"
    assert rows[0]["notes"] == "Ring twice, then wait"
    assert rows[2]["notes"] == "two\nlines"
    assert rows[2]["earliest"] == "14:30"

    # Import the export into a new plan: no column is left unread, every row goes in.
    copy = run.create_plan(drivers=["driver-ana"])
    imported = run("stops", "import", copy, first)
    assert imported.exit_code == 0, imported.stderr
    assert "ignored columns" not in imported.stderr
    second = tmp_path / "second.csv"
    assert run.json("stops", "export", copy, second)["stops"] == 3
    assert _rows(second) == rows

    # The same stops as the service keeps them, but for their ids (the id, plan and
    # web app link), and the
    # formatted address: the service returns no city, zip or country apart, so the
    # copy's formatted address is its lines (its point is the same).
    def bodies(plan_id: str) -> list[dict[str, Any]]:
        stops = served_emulator.plan_stops(plan_id)
        kept = [
            {key: value for key, value in stop.items() if key not in ("id", "plan", "webAppLink")}
            for stop in stops
        ]
        for stop in kept:
            stop["address"] = {key: value for key, value in stop["address"].items() if key != "address"}
        return kept

    assert bodies(copy) == bodies(plan)
    originals = [stop["address"]["address"] for stop in served_emulator.plan_stops(plan)]
    copies = [stop["address"]["address"] for stop in served_emulator.plan_stops(copy)]
    assert originals[0] == "1 Upper Street, London, N1 0PN"
    assert copies[0] == "1 Upper Street"


def test_export_of_an_optimized_plan_leaves_out_route_starts_and_ends(run: Cli, tmp_path: Path) -> None:
    plan = _imported_plan(run, tmp_path)
    assert run("optimize", plan, "--wait").exit_code == 0
    assert len(run.json("stops", "list", plan)) > 3  # the route's start and end are listed too
    exported = tmp_path / "optimized.csv"
    assert run.json("stops", "export", plan, exported)["stops"] == 3
    assert [row["external_id"] for row in _rows(exported)] == ["EXT-1", "EXT-2", "EXT-3"]


def test_optimize_wait_prints_the_id_even_when_the_wait_fails(
    run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = _imported_plan(run, tmp_path)

    async def failing_wait(
        client: object, output: object, operation: Operation, max_wait: object
    ) -> Operation:
        raise OptimizationFailedError(operation, "no_drivers_available", "Plan has no drivers.")

    monkeypatch.setattr(_routes, "wait_with_status", failing_wait)
    result = run("optimize", plan, "--wait")
    assert result.exit_code == 1
    # The id was printed when the optimization started: a script can still look at it.
    assert re.fullmatch(r"operations/\w+\n", result.stdout)
    assert "no_drivers_available" in result.stderr
