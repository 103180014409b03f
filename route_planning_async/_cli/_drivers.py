"""The driver, route and operation-cancel commands: ``drivers list|import``, ``routes get``,
``operations cancel``.

They use the calls the contract does not have and the official schema does
(``client.drivers``, ``client.routes``, ``client.operations.cancel``). There is
no ``drivers pause|resume``: the official schema has no call that changes a
driver's ``active`` flag (a driver PATCH takes name, displayName, depots and
routeOverrides only).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from rich.table import Table

from route_planning_async import (
    AddressInput,
    ConflictError,
    Driver,
    DriverInput,
    ImportReport,
    Operation,
    Outcome,
    RouteOverridesInput,
    ValidationError,
)
from route_planning_async._cli._csv import CsvError, write_failures
from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._render import Output, failures_table
from route_planning_async._cli._run import Settings, dump_json, jsonable, open_client

__all__ = [
    "DriverCsv",
    "DriverRow",
    "drivers_import",
    "drivers_list",
    "operations_cancel",
    "read_driver_csv",
    "routes_get",
]

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
    """Read a whole file of drivers (a path, or the text itself as ``str``), each row checked."""
    if isinstance(source, Path):
        try:
            text = source.read_text(encoding="utf-8-sig")
        except (UnicodeDecodeError, OSError) as exc:
            raise CsvError(f"{source}: {exc}") from None
    else:
        text = source
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        records = [(reader.line_num, record) for record in reader]
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


async def drivers_list(settings: Settings, *, active: bool | None, limit: int | None) -> int:
    """``drivers list``."""
    output = Output(json=settings.json)
    found: list[Driver] = []
    async with open_client(settings) as client:
        listing = client.drivers.list(filter=None if active is None else {"active": active})
        async for driver in listing:
            found.append(driver)
            if limit is not None and len(found) >= limit:
                break
    if output.json:
        dump_json(found)
    else:
        output.out.print(drivers_table(found))
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


async def drivers_import(settings: Settings, *, csv_path: Path, failures_path: Path | None) -> int:
    """``drivers import``: check the file, import the valid rows exactly once, report the failures."""
    output = Output(json=settings.json)
    table = read_driver_csv(csv_path)
    failures: list[tuple[DriverRow, str]] = [
        (row, row.error or "") for row in table.rows if row.driver is None
    ]
    valid = [row for row in table.rows if row.driver is not None]
    imported: list[tuple[int, str]] = []
    if valid:
        async with open_client(settings) as client:
            report = await client.drivers.import_many([row.driver for row in valid if row.driver is not None])
        for row, (driver_id, error) in zip(valid, _outcomes(report, len(valid)), strict=True):
            if driver_id is not None:
                imported.append((row.line, driver_id))
            else:
                failures.append((row, error or "not imported"))
    failures.sort(key=lambda failure: failure[0].line)
    written = 0
    if failures_path is not None and failures:
        written = write_failures(
            failures_path, table.header, ((row.values, error) for row, error in failures)
        )
    if output.json:
        dump_json(
            {
                "rows": len(table.rows),
                "imported": len(imported),
                "failed": len(failures),
                "drivers": [{"line": line, "id": driver_id} for line, driver_id in imported],
                "failures": [{"line": row.line, "error": error} for row, error in failures],
                "failures_file": str(failures_path) if written else None,
            }
        )
    else:
        if failures:
            output.out.print(
                failures_table([(row.line, error) for row, error in failures], title="Rows not imported")
            )
        output.note(f"imported {len(imported)} of {len(table.rows)} drivers")
        if written:
            output.note(f"{written} failed row(s) written to {failures_path}")
    return ExitCode.PARTIAL if failures else ExitCode.OK


async def routes_get(settings: Settings, *, route_ids: Sequence[str]) -> int:
    """``routes get``."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        routes = [await client.routes.get(route_id) for route_id in route_ids]
    if output.json:
        dump_json(routes)
        return ExitCode.OK
    table = Table(title="Routes")
    for name in ("Route", "Title", "Driver", "Stops", "Plan", "Distributed"):
        table.add_column(name)
    for route in routes:
        distributed = route.state is not None and route.state.distributed
        table.add_row(
            route.id,
            route.title,
            route.driver or "—",
            str(route.stop_count),
            route.plan or "—",
            "yes" if distributed else "no",
        )
    output.out.print(table)
    return ExitCode.OK


async def operations_cancel(settings: Settings, *, operation_ids: Sequence[str]) -> int:
    """``operations cancel``: cancel each operation; one that is already done is reported, not an error."""
    output = Output(json=settings.json)
    results: list[dict[str, Any]] = []
    async with open_client(settings) as client:
        for operation_id in operation_ids:
            try:
                canceled: Operation = await client.operations.cancel(operation_id)
            except ConflictError as exc:
                if exc.code != "operation_already_done":
                    raise
                results.append({"id": operation_id, "canceled": False, "reason": exc.code})
                if not output.json:
                    output.out.print(f"{operation_id}: already done, not canceled", highlight=False)
                continue
            results.append({"id": canceled.id, "canceled": True, "operation": jsonable(canceled)})
            if not output.json:
                output.out.print(f"{canceled.id}: canceled", highlight=False)
    if output.json:
        dump_json(results)
    return ExitCode.OK
