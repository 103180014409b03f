"""``route-planning depots``: list the team's depots (either version), import depots from a
CSV or JSON file (v1: ``client.depots.import_many``)."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import click
from rich.table import Table

from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._options import (
    EXISTING_FILE,
    failures_option,
    limit_option,
    service,
    service_group,
)
from route_planning_async._cli._output._render import Output
from route_planning_async._cli._rows import MappedRows, import_file, read_mapped_rows
from route_planning_async._cli._run import Settings, first, jsonable, open_client, print_result
from route_planning_async._cli._versions import as_v1, require_version

if TYPE_CHECKING:
    from route_planning_async.v1 import DepotInput

__all__ = ["depot_input", "depots", "read_depot_rows"]

# Header (normalized: lower case, no spaces, '-' or '_') -> field of the depot or of its start address.
_COLUMNS: Final[Mapping[str, str]] = {
    "name": "name",
    "depot": "name",
    "address": "address_line_one",
    "addresslineone": "address_line_one",
    "line1": "address_line_one",
    "street": "address_line_one",
    "addresslinetwo": "address_line_two",
    "line2": "address_line_two",
    "city": "city",
    "state": "state",
    "zip": "zip",
    "postcode": "zip",
    "country": "country",
    "latitude": "latitude",
    "lat": "latitude",
    "longitude": "longitude",
    "lng": "longitude",
    "lon": "longitude",
    "starttime": "start_time",
    "start": "start_time",
    "endtime": "end_time",
    "end": "end_time",
    "endaddress": "end_address",
    "defaulttimeatstop": "default_time_at_stop",
    "timeatstop": "default_time_at_stop",
    "maxstops": "max_stops",
    "vehicle": "vehicle_type",
    "vehicletype": "vehicle_type",
    "roadside": "road_side",
    "roundtrip": "round_trip",
}
_ADDRESS: Final = frozenset({"address_line_one", "address_line_two", "city", "state", "zip", "country"})
_BOOLEANS: Final = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _value(field: str, text: str) -> Any:
    if field in ("start_time", "end_time"):
        match = re.fullmatch(r"(\d{1,2}):(\d{2})", text)
        if match is None or int(match[1]) > 23 or int(match[2]) > 59:
            raise ValueError(f"not a time of day (HH:MM): {text!r}")
        return datetime.time(int(match[1]), int(match[2]))
    if field in ("latitude", "longitude", "default_time_at_stop"):
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"expected a number, got {text!r}") from None
    if field == "max_stops":
        if not text.isdigit():
            raise ValueError(f"expected a whole number, got {text!r}")
        return int(text)
    if field == "round_trip":
        if text.lower() not in _BOOLEANS:
            raise ValueError(f"expected true or false, got {text!r}")
        return _BOOLEANS[text.lower()]
    return text


def depot_input(values: Mapping[str, str], columns: Mapping[str, str]) -> DepotInput:
    """The v1 depot body of a row's cells, read through ``columns`` (header -> field).

    Raises:
        ValueError: A cell that is not what its column holds.
        ValidationError: A value the v1 schema refuses (a missing name, start address or start time).
    """
    from route_planning_async.v1 import AddressInput, DepotInput, DepotRouteOverridesInput

    fields: dict[str, Any] = {}
    for header, field in columns.items():
        text = values.get(header, "").strip()
        if text:
            try:
                fields[field] = _value(field, text)
            except ValueError as exc:
                raise ValueError(f"column {header!r}: {exc}") from None
    address = {name: fields.pop(name) for name in (*_ADDRESS, "latitude", "longitude") if name in fields}
    overrides: dict[str, Any] = {name: value for name, value in fields.items() if name != "name"}
    if address:
        overrides["start_address"] = AddressInput(**address)
    if "end_address" in overrides:
        overrides["end_address"] = AddressInput(address_line_one=overrides["end_address"])
    return DepotInput(name=fields.get("name", ""), route_overrides=DepotRouteOverridesInput(**overrides))


def read_depot_rows(source: Path | str) -> MappedRows[DepotInput]:
    """The header and each row of a depot file (CSV or JSON), read as a v1 ``DepotInput``.

    Raises:
        CsvError: The file cannot be read, or has no 'name' column.
    """
    required = [(frozenset({"name"}), "a 'name'", "it identifies each depot")]
    return read_mapped_rows(source, _COLUMNS, depot_input, required=required)


def _address(depot: Any) -> str:
    overrides = getattr(depot, "route_overrides", None)
    start = getattr(overrides, "start_address", None)
    if start is None:
        return "—"
    return str(start.address or start.address_line_one or "—")


def _start(depot: Any) -> str:
    overrides = getattr(depot, "route_overrides", None)
    start_time = getattr(overrides, "start_time", None)
    return start_time.strftime("%H:%M") if isinstance(start_time, datetime.time) else "—"


def depots_table(depots: Iterable[Any], *, routes: bool) -> Table:
    """Depots as rows: id, name, and with ``routes`` (v1) the start address and time of their routes."""
    table = Table(title="Depots")
    for name in ("Depot", "Name", *(("Start address", "Start") if routes else ())):
        table.add_column(name)
    for depot in depots:
        table.add_row(depot.id, depot.name or "—", *((_address(depot), _start(depot)) if routes else ()))
    return table


@service_group
def depots() -> None:
    """List the team's depots; import depots from a CSV or JSON file (v1)."""


@depots.command("list")
@limit_option("depots")
@service
async def depots_list(settings: Settings, *, limit: int | None) -> int:
    """List the team's depots (with v1, their routes' start address and time too)."""
    async with open_client(settings) as client:
        found = await first(client.depots.list(), limit)
    shown = depots_table(found, routes=settings.api_version != "v0.2b")
    print_result(Output(json=settings.json), [jsonable(depot) for depot in found], shown)
    return ExitCode.OK


@depots.command("import")
@click.argument("depot_file", metavar="FILE", type=EXISTING_FILE)
@failures_option()
@click.option(
    "--skip-existing",
    is_flag=True,
    help="Read the team's depot names first and send only the rows whose name is not there yet.",
)
@service
async def depots_import(
    settings: Settings, *, depot_file: Path, failures_path: Path | None, skip_existing: bool
) -> int:
    """Import the depots of a CSV or JSON file (v1), 100 per request, each once.

    \b
    Columns are found by their header (case, spaces, '-' and '_' do not matter):
      name (required: it identifies the depot; with --skip-existing, importing
      the same file again adds nothing twice), the start address: address / address_line_one,
      address_line_two, city, state, zip, country, latitude and longitude
      (required, with start_time), start_time and end_time (HH:MM), end_address
      (one address line), default_time_at_stop (seconds), max_stops,
      vehicle_type, road_side (any, left_only, right_only), round_trip
      (true/false). A .json file is an array of objects with these keys.
      FILE '-' reads stdin.
    """
    require_version(settings.api_version, "v1", "depots import")
    return await import_file(
        settings,
        kind="depots",
        read=lambda: read_depot_rows(depot_file),
        failures_path=failures_path,
        send=lambda client, items: as_v1(client, "depots import").depots.import_many(
            items, skip_existing=skip_existing
        ),
    )
