"""``route-planning drivers``: list the team's drivers, import drivers from CSV files.

They use calls the contract does not have and the official schema does
(``client.drivers``). There is no ``drivers pause|resume``: the official schema
has no call that changes a driver's ``active`` flag (a driver PATCH takes name,
displayName, depots and routeOverrides only).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import click
from rich.table import Table

from route_planning_async import (
    AddressInput,
    Driver,
    DriverInput,
    ImportReport,
    Outcome,
    RouteOverridesInput,
    ValidationError,
)
from route_planning_async._cli._cells import unescape_cell
from route_planning_async._cli._csv import CsvError
from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._failures import Failures
from route_planning_async._cli._options import (
    INPUT_CSV,
    failures_option,
    limit_option,
    not_stdout,
    service,
    service_group,
)
from route_planning_async._cli._render import Output, failures_table
from route_planning_async._cli._run import Settings, dump_json, first, open_client, print_result
from route_planning_async._cli._stdio import describe, read_input

__all__ = ["DriverCsv", "DriverRow", "drivers", "read_driver_csv"]

# Header (normalized: lower case, no spaces, '-' or '_') -> DriverInput or override field.
_COLUMNS: Mapping[str, str] = {
    "name": "name",
    "fullname": "name",
    "displayname": "display_name",
    "email": "email",
    "phone": "phone",
    "depots": "depots",
    "depot": "depots",
    "starttime": "start_time",
    "start": "start_time",
    "endtime": "end_time",
    "end": "end_time",
    "maxstops": "max_stops",
    "drivingspeed": "driving_speed",
    "deliveryspeed": "delivery_speed",
    "vehicle": "vehicle_type",
    "vehicletype": "vehicle_type",
    "startaddress": "start_address",
    "endaddress": "end_address",
}
_OVERRIDES = frozenset(
    {
        "start_time",
        "end_time",
        "max_stops",
        "driving_speed",
        "delivery_speed",
        "vehicle_type",
        "start_address",
        "end_address",
    }
)
_ERROR = "error"


def _normalized(header: str) -> str:
    return "".join(ch for ch in header.lower() if ch not in " _-")


@attrs.frozen
class DriverRow:
    """One data row of a driver CSV file."""

    line: int
    """Where it starts in the file (1-based; the header is line 1)."""
    values: Mapping[str, str]
    """The cells, by header."""
    driver: DriverInput | None
    """The driver, or None when the row is invalid."""
    error: str | None = None
    """Why the row is invalid."""


@attrs.frozen
class DriverCsv:
    """A read driver CSV file."""

    header: tuple[str, ...]
    """The header, as written."""
    rows: tuple[DriverRow, ...]
    """Every data row, valid or not."""


def _cell_value(field: str, text: str) -> Any:
    if field in ("start_time", "end_time"):
        match = re.fullmatch(r"(\d{1,2}):(\d{2})", text)
        if match is None or int(match[1]) > 23 or int(match[2]) > 59:
            raise ValueError(f"not a time of day (HH:MM): {text!r}")
        return datetime.time(int(match[1]), int(match[2]))
    if field == "max_stops":
        if not text.isdigit():
            raise ValueError(f"expected a whole number, got {text!r}")
        return int(text)
    if field == "depots":
        return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
    if field in ("start_address", "end_address"):
        return AddressInput(address_line_one=text)
    return text


def _driver(values: Mapping[str, str], columns: Mapping[str, str]) -> DriverInput:
    fields: dict[str, Any] = {}
    overrides: dict[str, Any] = {}
    for header, field in columns.items():
        text = values.get(header, "").strip()
        if not text:
            continue
        try:
            value = _cell_value(field, text)
        except ValueError as exc:
            raise ValueError(f"column {header!r}: {exc}") from None
        (overrides if field in _OVERRIDES else fields)[field] = value
    if overrides:
        fields["route_overrides"] = RouteOverridesInput(**overrides)
    return DriverInput(**fields)


def read_driver_csv(source: Path | str) -> DriverCsv:
    """Read a whole file of drivers, each row checked.

    ``source`` is a path (``-`` for stdin), or the text itself as ``str``.
    """
    if isinstance(source, Path):
        try:
            text = read_input(source).decode("utf-8-sig")  # untranslated: a "\r" in a cell stays
        except (UnicodeDecodeError, OSError) as exc:
            raise CsvError(f"{describe(source, reading=True)}: {exc}") from None
    else:
        text = source
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        records = [(reader.line_num, [unescape_cell(cell) for cell in record]) for record in reader]
    except csv.Error as exc:
        raise CsvError(f"line {reader.line_num}: {exc}") from None
    records = [(line, record) for line, record in records if any(cell.strip() for cell in record)]
    if not records:
        raise CsvError("the file is empty: a header row is needed")
    header = tuple(cell.strip() for cell in records[0][1])
    columns = {name: _COLUMNS[_normalized(name)] for name in header if _normalized(name) in _COLUMNS}
    if not {"email", "phone"} & set(columns.values()):
        raise CsvError("the header needs an 'email' or a 'phone' column: it identifies each driver")
    rows: list[DriverRow] = []
    for line, record in records[1:]:
        values = dict(zip(header, record + [""] * (len(header) - len(record)), strict=False))
        try:
            rows.append(DriverRow(line, values, _driver(values, columns)))
        except ValidationError as exc:
            rows.append(DriverRow(line, values, None, f"{exc.field}: {exc.rule}"))
        except ValueError as exc:
            rows.append(DriverRow(line, values, None, str(exc)))
    return DriverCsv(header, tuple(rows))


def drivers_table(drivers: Iterable[Driver]) -> Table:
    """Drivers as rows: id, name, e-mail, phone, active, depots."""
    table = Table(title="Drivers")
    for name in ("Driver", "Name", "E-mail", "Phone", "Active", "Depots"):
        table.add_column(name)
    for driver in drivers:
        table.add_row(
            driver.id,
            driver.name or "—",
            driver.email or "—",
            driver.phone or "—",
            "yes" if driver.active else "paused",
            ", ".join(driver.depots),
        )
    return table


@service_group
def drivers() -> None:
    """List the team's drivers and import drivers from CSV files.

    The service has no call that pauses or resumes a driver, so neither has this tool.
    """


@drivers.command("list")
@click.option("--active/--paused", "active", default=None, help="Only active, or only paused, drivers.")
@limit_option("drivers")
@service
async def drivers_list(settings: Settings, *, active: bool | None, limit: int | None) -> int:
    """List the team's drivers."""
    async with open_client(settings) as client:
        listing = client.drivers.list(filter=None if active is None else {"active": active})
        found = await first(listing, limit)
    print_result(Output(json=settings.json), found, drivers_table(found))
    return ExitCode.OK


def _outcomes(report: ImportReport[Any], count: int) -> list[tuple[str | None, str | None]]:
    """``(driver id, error)`` of each position of the import."""
    errors: dict[int, str] = {rejected.position: rejected.message for rejected in report.rejected_stops}
    for batch in report.failed_batches:
        for position in batch.positions:
            errors[position] = f"{batch.outcome.value}: {batch.error}"
    result: list[tuple[str | None, str | None]] = []
    for position in range(count):
        if report.outcome(position) is Outcome.CREATED:
            result.append((report.stop_id(position), None))
        else:
            result.append((None, errors.get(position, "not imported")))
    return result


@drivers.command("import")
@INPUT_CSV
@failures_option()
@service
async def drivers_import(settings: Settings, *, csv_file: Path, failures_path: Path | None) -> int:
    """Import the drivers of a CSV file, 50 per request (2 requests per minute), each once.

    \b
    Columns are found by their header (case, spaces, '-' and '_' do not matter):
      name, display_name, email, phone (email or phone is required: it
      identifies the driver, so importing the same file again adds nobody twice),
      depots (split on ';' or ','), start_time and end_time (HH:MM), max_stops,
      driving_speed and delivery_speed (slower, average, faster), vehicle_type,
      start_address and end_address (one address line). CSV '-' reads stdin.
    """
    output = Output(json=settings.json)
    not_stdout(settings, failures_path, "--failures")
    table = read_driver_csv(csv_file)
    failures = Failures(table.header, [(row, row.error or "") for row in table.rows if row.driver is None])
    valid = [row for row in table.rows if row.driver is not None]
    imported: list[tuple[int, str]] = []
    if valid:
        async with open_client(settings) as client:
            report = await client.drivers.import_many([row.driver for row in valid if row.driver is not None])
        for row, (driver_id, error) in zip(valid, _outcomes(report, len(valid)), strict=True):
            if driver_id is not None:
                imported.append((row.line, driver_id))
            else:
                failures.add(row, error or "not imported")
    written = failures.write(failures_path)
    if output.json:
        dump_json(
            {
                "rows": len(table.rows),
                "imported": len(imported),
                "failed": len(failures),
                "drivers": [{"line": line, "id": driver_id} for line, driver_id in imported],
                **failures.as_json(failures_path, written),
            }
        )
    else:
        if failures:
            output.err.print(failures_table(failures.by_line(), title="Rows not imported"))
        output.note(f"imported {len(imported)} of {len(table.rows)} drivers")
        if written:
            output.note(f"{written} failed row(s) written to {failures_path}")
    return ExitCode.PARTIAL if failures else ExitCode.OK
