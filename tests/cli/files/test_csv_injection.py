"""Every CSV file the CLI writes opens in a spreadsheet without running a cell as a formula,
and reads back as the values it was given."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from route_planning_async._cli._commands._drivers import read_driver_csv
from route_planning_async._cli._files._csv import read_stop_csv, write_failures

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

LINK = '=HYPERLINK("http://x","y")'
SUM = "@SUM(A1)"
STOPS = (
    "address,lat,lng,external_id,name,phone,notes\n"
    f'1 Upper Street,51.536,-0.09,EXT-1,Ana,+44 20 7946 0000,"{LINK.replace(chr(34), chr(34) * 2)}"\n'
    f"2 Upper Street,51.537,-0.104,EXT-2,-Ben-,,{SUM}\n"
    "3 Essex Road,-51.5,-0.1,EXT-3,Cleo,,'=already quoted\n"
)
"""Stops whose cells a spreadsheet would run, beside negative coordinates."""

TRICKY = [
    LINK,
    SUM,
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "\t=1+1",
    "\r=1+1",
    "'=a quote the user typed",
    "''@two of them",
    "'s-Hertogenbosch",
    "plain text",
    "",
]
"""Text cells, each to be kept exactly through a write and a read."""


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def _runs_as_formula(cell: str) -> bool:
    """What a spreadsheet takes for a formula (OWASP's list of leading characters)."""
    return cell[:1] in ("=", "+", "-", "@", "\t", "\r")


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_stops_export_escapes_formulas_and_reads_back_as_the_same_stops(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    source = tmp_path / "stops.csv"
    source.write_text(STOPS, encoding="utf-8")
    plan = run.create_plan(drivers=["driver-ana"])
    assert run.json("stops", "import", plan, source)["failed"] == 0
    notes = [stop.get("notes") for stop in served_emulator.plan_stops(plan)]
    # A quote before a formula character is the escape mark, wherever the file came from.
    assert notes == [LINK, SUM, "=already quoted"]

    exported = tmp_path / "export.csv"
    assert run.json("stops", "export", plan, exported)["stops"] == 3
    rows = _rows(exported)
    assert [row["notes"] for row in rows] == [f"'{LINK}", f"'{SUM}", "'=already quoted"]
    assert [row["recipient_name"] for row in rows] == ["Ana", "'-Ben-", "Cleo"]
    assert rows[0]["recipient_phone"] == "'+44 20 7946 0000"
    # Numbers stay numbers: the coordinates are written as they are.
    assert [(row["latitude"], row["longitude"]) for row in rows] == [
        ("51.536", "-0.09"),
        ("51.537", "-0.104"),
        ("-51.5", "-0.1"),
    ]
    for row in rows:
        for cell in row.values():
            assert not _runs_as_formula(cell) or _is_number(cell), cell

    # The export imported into a new plan gives back the same values.
    copy = run.create_plan(drivers=["driver-ana"])
    assert run.json("stops", "import", copy, exported)["failed"] == 0
    assert [stop.get("notes") for stop in served_emulator.plan_stops(copy)] == notes
    names = [stop["recipient"]["name"] for stop in served_emulator.plan_stops(copy)]
    assert names == ["Ana", "-Ben-", "Cleo"]
    again = tmp_path / "again.csv"
    run.json("stops", "export", copy, again)
    assert _rows(again) == rows


def test_the_stop_failure_report_escapes_formulas_and_reads_back(tmp_path: Path) -> None:
    header = ["address", "lat", "lng", "notes", "=header"]
    failures = [
        ({"address": "1 Main St", "lat": "-91", "lng": "-0.09", "notes": note}, "bad") for note in TRICKY
    ]
    report = tmp_path / "failed.csv"
    assert write_failures(report, header, failures) == len(TRICKY)
    with report.open(encoding="utf-8", newline="") as stream:
        written = list(csv.reader(stream))
    assert written[0] == ["address", "lat", "lng", "notes", "'=header", "error"]
    for record in written:
        for cell in record:
            assert not _runs_as_formula(cell) or _is_number(cell), cell
    assert [record[1:3] for record in written[1:]] == [["-91", "-0.09"]] * len(TRICKY)
    assert [record[3] for record in written[1:3]] == [f"'{LINK}", f"'{SUM}"]
    table = read_stop_csv(report)
    assert table.header == ("address", "lat", "lng", "notes", "=header", "error")
    assert [row.values["notes"] for row in table.rows] == TRICKY


def test_the_driver_failure_report_escapes_formulas_and_reads_back(run: Cli, tmp_path: Path) -> None:
    source = tmp_path / "drivers.csv"
    source.write_text(
        f'name,email,phone\n"{LINK.replace(chr(34), chr(34) * 2)}",not-an-email,\n{SUM},also-bad,+44 20 x\n',
        encoding="utf-8",
    )
    failures = tmp_path / "failed.csv"
    report = run.json("drivers", "import", source, "--failures", failures, expect=3)
    assert report["failed"] == 2
    rows = _rows(failures)
    assert [row["name"] for row in rows] == [f"'{LINK}", f"'{SUM}"]
    assert rows[1]["phone"] == "'+44 20 x"
    again = read_driver_csv(failures)
    assert [row.values["name"] for row in again.rows] == [LINK, SUM]
    assert [row.values["phone"] for row in again.rows] == ["", "+44 20 x"]


def test_stops_sample_writes_through_the_same_escape(
    run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from route_planning_async._cli._commands import _stops

    def fields(count: int, *, seed: int) -> list[dict[str, object]]:
        return [{"address_line_one": "1 Main St", "latitude": 51.5, "longitude": -0.09, "notes": LINK}]

    monkeypatch.setattr(_stops, "generate_stop_fields", fields)
    target = tmp_path / "sample.csv"
    assert run("stops", "sample", "-o", target, connect=False).exit_code == 0
    assert _rows(target) == [
        {"address_line_one": "1 Main St", "latitude": "51.5", "longitude": "-0.09", "notes": f"'{LINK}"}
    ]
    assert read_stop_csv(target).rows[0].values["notes"] == LINK
