"""``route-planning drivers``: list the team's drivers, import drivers from CSV files.

They use calls the contract does not have and the official schema does
(``client.drivers``). There is no ``drivers pause|resume``: the official schema
has no call that changes a driver's ``active`` flag (a driver PATCH takes name,
displayName, depots and routeOverrides only).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from route_planning_async import (
    AddressInput,
    Driver,
    DriverInput,
    RouteOverridesInput,
)
from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._options import (
    INPUT_CSV,
    failures_option,
    limit_option,
    service,
    service_group,
)
from route_planning_async._cli._output._render import Output
from route_planning_async._cli._rows import MappedRows, ParsedRow, import_file, read_mapped_rows
from route_planning_async._cli._run import Settings, first, open_client, print_result

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


DriverRow = ParsedRow[DriverInput]
"""One data row of a driver file: its line, cells, and the driver (None when invalid)."""


DriverCsv = MappedRows[DriverInput]
"""A read driver file."""


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
    """Read a whole file of drivers (CSV or JSON, ``_rows``), each row checked.

    ``source`` is a path (``-`` for stdin), or the text itself as ``str``.
    """
    required = [(frozenset({"email", "phone"}), "an 'email' or a 'phone'", "it identifies each driver")]
    return read_mapped_rows(source, _COLUMNS, _driver, required=required)


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
      start_address and end_address (one address line). CSV '-' reads stdin;
    a .json file (an array of objects with these keys) is read too.
    """

    return await import_file(
        settings,
        kind="drivers",
        read=lambda: read_driver_csv(csv_file),
        failures_path=failures_path,
        send=lambda client, items: client.drivers.import_many(items),
    )
