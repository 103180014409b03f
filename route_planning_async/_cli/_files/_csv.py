"""Stops as CSV: which column feeds which field, rows parsed with their line numbers,
and the failure report that can be fed straight back in.

The column names of a spreadsheet vary, so every field has a list of header
aliases; headers are compared without case, spaces, hyphens or underscores
(``External ID`` = ``external_id`` = ``externalId``). ``--map-column
field=header`` overrides any of them. Cells are written and read with the
formula escape of :mod:`._cells`. Nothing here needs click or rich.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from route_planning_async import (
    AddressInput,
    OrderInfoInput,
    PaymentOnDeliveryInput,
    RecipientInput,
    Stop,
    StopInput,
    TimingInput,
    ValidationError,
    WeightInput,
)
from route_planning_async._cli._files._cells import unescape_cell, write_csv
from route_planning_async._cli._files._stdio import describe, open_output, read_input

if TYPE_CHECKING:
    from route_planning_async._cli._versions import StopInputs
    from route_planning_async.v1 import Stop as V1Stop

__all__ = [
    "ERROR_COLUMN",
    "EXPORT_COLUMNS",
    "FIELDS",
    "ColumnMap",
    "CsvError",
    "CsvRow",
    "StopCsv",
    "build_stop",
    "failure_header",
    "parse_column_overrides",
    "read_stop_csv",
    "resolve_columns",
    "stop_as_row",
    "write_failures",
    "write_stops",
]

ERROR_COLUMN = "error"
"""The column the failure report adds; reading a file ignores it, so a report can be re-imported."""

FIELDS: Mapping[str, tuple[str, ...]] = {
    # Address: latitude and longitude override the other fields when both are
    # set (contract, Stops in a plan: stop body ``address``).
    "address_name": ("address_name", "location_name", "place_name"),
    "address_line_one": ("address_line_one", "address", "line1", "address1", "street", "street_address"),
    "address_line_two": ("address_line_two", "line2", "address2", "apartment", "unit", "suite"),
    "city": ("city", "town", "locality"),
    "state": ("state", "province", "region"),
    "zip": ("zip", "zipcode", "zip_code", "postcode", "postal_code"),
    "country": ("country", "country_code"),
    "latitude": ("latitude", "lat"),
    "longitude": ("longitude", "lng", "lon", "long"),
    # Recipient.
    "recipient_name": ("recipient_name", "recipient", "name", "customer_name", "customer"),
    "recipient_email": ("recipient_email", "email"),
    "recipient_phone": ("recipient_phone", "phone", "phone_number", "mobile"),
    "external_id": ("external_id", "recipient_external_id", "customer_id"),
    # Timing: a time window as HH:MM, a duration in seconds (or 5m, 1h).
    "earliest": ("earliest", "earliest_time", "earliest_attempt_time", "time_window_start", "window_start"),
    "latest": ("latest", "latest_time", "latest_attempt_time", "time_window_end", "window_end"),
    "duration": ("duration", "estimated_attempt_duration", "service_time", "duration_seconds"),
    # The rest of the stop body.
    "notes": ("notes", "note", "instructions", "delivery_notes"),
    "package_count": ("package_count", "packages", "parcels"),
    "barcodes": ("barcodes", "barcode"),
    "products": ("products", "product"),
    "seller_order_id": ("seller_order_id", "order_id", "order_number"),
    "seller_name": ("seller_name", "seller"),
    "activity": ("activity",),
    "optimization_order": ("optimization_order",),
    "allowed_drivers": ("allowed_drivers",),
    # Official schema fields: the load's weight in the team's capacity unit, the
    # payment to collect in minor units (cents), the client-portal client id.
    "weight": ("weight", "weight_amount"),
    "weight_unit": ("weight_unit",),
    "payment_amount": ("payment_amount", "cod_amount"),
    "payment_currency": ("payment_currency", "currency"),
    "client_id": ("client_id", "circuit_client_id", "service_client_id"),
}
"""Every field a column can feed, with the headers that feed it by default, best first."""

_ADDRESS_FIELDS = (
    "address_name",
    "address_line_one",
    "address_line_two",
    "city",
    "state",
    "zip",
    "country",
    "latitude",
    "longitude",
)
_LIST_FIELDS = frozenset({"barcodes", "products", "allowed_drivers"})
_LIST_SEPARATOR = re.compile(r"[;,]")
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hours?)?", re.I)
_DURATION_UNITS = {"s": 1, "m": 60, "h": 3600}

_TIMING_NAMES = {
    "earliest": "earliest_attempt_time",
    "latest": "latest_attempt_time",
    "duration": "estimated_attempt_duration",
}
_RECIPIENT_NAMES = {
    "recipient_name": "name",
    "recipient_email": "email",
    "recipient_phone": "phone",
    "external_id": "external_id",
}

# The input models report a dotted field path; this names the field (and thus
# the column) a path comes from, so a message can point at the column.
_PATH_FIELDS: Mapping[str, str] = {
    "address.address_name": "address_name",
    "address.address_line_one": "address_line_one",
    "address.address_line_two": "address_line_two",
    "address.city": "city",
    "address.state": "state",
    "address.zip": "zip",
    "address.country": "country",
    "address.latitude": "latitude",
    "address.longitude": "longitude",
    "recipient.name": "recipient_name",
    "recipient.email": "recipient_email",
    "recipient.phone": "recipient_phone",
    "recipient.external_id": "external_id",
    "timing.earliest_attempt_time": "earliest",
    "timing.latest_attempt_time": "latest",
    "timing.estimated_attempt_duration": "duration",
    "order_info.products": "products",
    "order_info.seller_order_id": "seller_order_id",
    "order_info.seller_name": "seller_name",
    "notes": "notes",
    "package_count": "package_count",
    "barcodes": "barcodes",
    "activity": "activity",
    "optimization_order": "optimization_order",
    "allowed_drivers": "allowed_drivers",
    "weight.amount": "weight",
    "weight.unit": "weight_unit",
    "payment_on_delivery.amount": "payment_amount",
    "payment_on_delivery.currency": "payment_currency",
    "client_id": "client_id",
}


class CsvError(Exception):
    """The file cannot be used at all: no header, no address column, a bad mapping."""


def _normalized(header: str) -> str:
    return re.sub(r"[^0-9a-z]", "", header.lower())


@attrs.frozen
class ColumnMap:
    """Which header feeds which field."""

    columns: Mapping[str, str]
    """Field name -> the header of the column that feeds it."""
    ignored: tuple[str, ...]
    """Headers that feed no field (the ``error`` column of a failure report is not listed)."""

    def header_for(self, field: str) -> str | None:
        """The header that feeds ``field``, if any."""
        return self.columns.get(field)


def parse_column_overrides(options: Iterable[str]) -> dict[str, str]:
    """``field=header`` options as a mapping; a field may be named in any alias spelling."""
    by_alias = {_normalized(field): field for field in FIELDS}
    for field, aliases in FIELDS.items():
        for alias in aliases:
            by_alias.setdefault(_normalized(alias), field)
    overrides: dict[str, str] = {}
    for option in options:
        name, sep, header = option.partition("=")
        if not sep or not name.strip() or not header.strip():
            raise CsvError(f"--map-column wants field=header, got {option!r}")
        known = by_alias.get(_normalized(name))
        if known is None:
            raise CsvError(f"--map-column: unknown field {name.strip()!r}; fields are: {', '.join(FIELDS)}")
        if overrides.get(known, header.strip()) != header.strip():
            twice = f"to {overrides[known]!r} and to {header.strip()!r}"
            raise CsvError(f"--map-column maps {known} twice: {twice}; a field takes one column")
        overrides[known] = header.strip()
    return overrides


def resolve_columns(header: Sequence[str], overrides: Mapping[str, str] | None = None) -> ColumnMap:
    """Match the header row against the field aliases; overrides win.

    Raises :class:`CsvError` when an override names a missing column or when no
    column can give the stop an address (the contract requires one on import).
    """
    by_normal: dict[str, str] = {}
    for name in header:
        by_normal.setdefault(_normalized(name), name)
    columns: dict[str, str] = {}
    for field, wanted in (overrides or {}).items():
        if wanted in header:
            columns[field] = wanted
        elif _normalized(wanted) in by_normal:
            columns[field] = by_normal[_normalized(wanted)]
        else:
            raise CsvError(
                f"--map-column {field}={wanted}: the file has no column {wanted!r} "
                f"(columns: {', '.join(header)})"
            )
    taken = set(columns.values())
    for field, aliases in FIELDS.items():
        if field in columns:
            continue
        for alias in aliases:
            found = by_normal.get(_normalized(alias))
            if found is not None and found not in taken:
                columns[field] = found
                taken.add(found)
                break
    if not any(field in columns for field in _ADDRESS_FIELDS):
        raise CsvError(
            "no address column: name one address, street, city, zip, country or lat/lng, "
            "or map one with --map-column address_line_one=<header>"
        )
    if ("latitude" in columns) != ("longitude" in columns):
        missing = "longitude" if "latitude" in columns else "latitude"
        raise CsvError(f"a {missing} column is needed too: coordinates are sent as a pair")
    ignored = tuple(
        name for name in header if name not in taken and _normalized(name) != _normalized(ERROR_COLUMN)
    )
    return ColumnMap(columns=columns, ignored=ignored)


@attrs.frozen
class CsvRow:
    """One data row of the file, parsed."""

    line: int
    """Line number of the row's first line in the file (the header is line 1)."""
    values: Mapping[str, str]
    """The row's cells by header, as read (the failure report writes them back)."""
    stop: Any
    """The stop to import (a ``StopInput`` of the version read for), when the row is valid; else None."""
    error: str | None
    """Why the row is invalid, naming the column; None when it is valid."""


@attrs.frozen
class StopCsv:
    """A whole file of stops."""

    header: tuple[str, ...]
    """The header row as read (a previous report's ``error`` column included)."""
    columns: ColumnMap
    """Which column feeds which field."""
    rows: tuple[CsvRow, ...]
    """Every non-blank data row, in file order."""

    @property
    def valid(self) -> list[CsvRow]:
        """The rows that can be sent."""
        return [row for row in self.rows if row.stop is not None]

    @property
    def invalid(self) -> list[CsvRow]:
        """The rows that cannot, with their reasons."""
        return [row for row in self.rows if row.stop is None]


class _CellError(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _parse_time(field: str, text: str) -> time:
    match = _TIME.fullmatch(text)
    if match is None:
        raise _CellError(field, f"expected a time as HH:MM, got {text!r}")
    hour, minute, second = int(match[1]), int(match[2]), int(match[3] or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise _CellError(field, f"not a time of day: {text!r}")
    return time(hour, minute, second)


def _parse_duration(field: str, text: str) -> int:
    match = _DURATION.fullmatch(text)
    seconds = float(match[1]) * _DURATION_UNITS[(match[2] or "s")[0].lower()] if match else None
    if seconds is None or abs(seconds - round(seconds)) > 1e-6:  # whole seconds: refused, not rounded
        raise _CellError(field, f"expected whole seconds (or 5m, 1h), got {text!r}")
    return round(seconds)


def _parse_int(field: str, text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise _CellError(field, f"expected a whole number, got {text!r}") from None
    if not value.is_integer():
        raise _CellError(field, f"expected a whole number, got {text!r}")
    return int(value)


def _parse_float(field: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _CellError(field, f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise _CellError(field, f"expected a finite number, got {text!r}")
    return value


def _parse_cell(field: str, text: str) -> Any:
    if field in ("earliest", "latest"):
        return _parse_time(field, text)
    if field == "duration":
        return _parse_duration(field, text)
    if field in ("package_count", "payment_amount"):
        return _parse_int(field, text)
    if field == "payment_currency":
        return text.upper()
    if field in ("latitude", "longitude", "weight"):
        return _parse_float(field, text)
    if field in _LIST_FIELDS:
        return [item.strip() for item in _LIST_SEPARATOR.split(text) if item.strip()]
    return text


def build_stop(fields: Mapping[str, Any], inputs: StopInputs | None = None) -> Any:
    """The stop body for a row's parsed fields (field name -> value); absent fields stay unset.

    ``inputs`` are the classes of the version it is for (None: v0.2b's).

    Raises :class:`~route_planning_async.ValidationError` when the contract rejects a value.
    """

    def pick(*names: str) -> dict[str, Any]:
        return {name: fields[name] for name in names if fields.get(name) is not None}

    address = AddressInput(**pick(*_ADDRESS_FIELDS))
    stop: dict[str, Any] = {"address": address}
    timing = pick("earliest", "latest", "duration")
    if timing:
        stop["timing"] = TimingInput(**{_TIMING_NAMES[name]: value for name, value in timing.items()})
    recipient = pick("recipient_name", "recipient_email", "recipient_phone", "external_id")
    if recipient:
        stop["recipient"] = RecipientInput(
            **{_RECIPIENT_NAMES[name]: value for name, value in recipient.items()}
        )
    order = pick("products", "seller_order_id", "seller_name")
    if order:
        stop["order_info"] = (OrderInfoInput if inputs is None else inputs.order_info)(**order)
    weight = pick("weight", "weight_unit")
    if weight:
        if "weight" not in weight:
            raise ValidationError("weight.amount", "a weight unit needs a weight")
        if "weight_unit" not in weight:
            raise ValidationError("weight.unit", "a weight needs its unit (kilogram, pound or metric-ton)")
        stop["weight"] = WeightInput(amount=weight["weight"], unit=weight["weight_unit"])
    payment = pick("payment_amount", "payment_currency")
    if payment:
        stop["payment_on_delivery"] = PaymentOnDeliveryInput(
            **{name.removeprefix("payment_"): value for name, value in payment.items()}
        )
    stop.update(
        pick(
            "notes",
            "package_count",
            "barcodes",
            "activity",
            "optimization_order",
            "allowed_drivers",
            "client_id",
        )
    )
    return (StopInput if inputs is None else inputs.stop)(**stop)


def _row_error(exc: ValidationError, columns: ColumnMap) -> str:
    path = re.sub(r"\[[^\]]*\]", "", exc.field)
    field = _PATH_FIELDS.get(path)
    header = columns.header_for(field) if field is not None else None
    if header is None:
        return str(exc)
    if path != exc.field:
        return f"column {header!r} ({exc.field}): {exc.rule}"
    return f"column {header!r}: {exc.rule}"


def _parse_row(line: int, values: Mapping[str, str], columns: ColumnMap, inputs: StopInputs | None) -> CsvRow:
    fields: dict[str, Any] = {}
    try:
        for field, header in columns.columns.items():
            text = values.get(header, "").strip()
            if text:
                fields[field] = _parse_cell(field, text)
    except _CellError as exc:
        header = columns.columns[exc.field]
        return CsvRow(line, values, None, f"column {header!r}: {exc}")
    if not any(field in fields for field in _ADDRESS_FIELDS):
        return CsvRow(line, values, None, "no address: every address column is empty")
    try:
        stop = build_stop(fields, inputs)
    except ValidationError as exc:
        return CsvRow(line, values, None, _row_error(exc, columns))
    return CsvRow(line, values, stop, None)


def _delimiter(first_line: str) -> str:
    # The header line decides: the candidate that splits it most (Excel in many
    # locales writes ';', other tools tab).
    counts = {candidate: first_line.count(candidate) for candidate in (",", ";", "\t")}
    best = max(counts, key=lambda candidate: counts[candidate])
    return best if counts[best] else ","


def _records(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each record with the line number it starts on (quoted cells may span lines); strict: a
    quote left open is an error naming its line, not a cell that swallows the rows after it."""
    first_line = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first_line), strict=True)
    start = 1
    try:
        for record in reader:
            yield start, [unescape_cell(cell) for cell in record]
            start = reader.line_num + 1
    except csv.Error as exc:
        never_closed = str(exc) == "unexpected end of data"
        why = "a quoted cell is never closed (the file ends inside it)" if never_closed else exc
        raise CsvError(f"line {start}: {why}") from None


def read_stop_csv(
    source: Path | str, overrides: Mapping[str, str] | None = None, inputs: StopInputs | None = None
) -> StopCsv:
    """Read and validate a whole file of stops (a path, ``-`` for stdin, or the text itself as ``str``),
    as stops of the version whose ``inputs`` are given (None: v0.2b's)."""
    if isinstance(source, Path):
        name = describe(source, reading=True)
        try:
            text = read_input(source).decode("utf-8-sig")  # untranslated: a "\r" in a cell stays
        except UnicodeDecodeError as exc:
            raise CsvError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except OSError as exc:
            raise CsvError(f"{name}: {exc.strerror}") from None
    else:
        text = source
    records = _records(text)
    header: list[str] | None = None
    for _line, record in records:
        if any(cell.strip() for cell in record):
            header = [cell.strip() for cell in record]
            break
    if header is None:
        raise CsvError("the file is empty: a header row is needed")
    duplicates = sorted({name for name in header if name and header.count(name) > 1})
    if duplicates:
        raise CsvError(f"the header names a column twice: {', '.join(duplicates)}")
    columns = resolve_columns(header, overrides)
    rows: list[CsvRow] = []
    for line, record in records:
        if not any(cell.strip() for cell in record):
            continue
        if len(record) > len(header):
            kept = dict(zip(header, record[: len(header)], strict=True))
            rows.append(
                CsvRow(line, kept, None, f"{len(record)} cells but the header has {len(header)} columns")
            )
            continue
        values = dict(zip(header, record + [""] * (len(header) - len(record)), strict=True))
        rows.append(_parse_row(line, values, columns, inputs))
    return StopCsv(header=tuple(header), columns=columns, rows=tuple(rows))


def failure_header(header: Sequence[str]) -> list[str]:
    """The input's columns, then ``error`` (a previous report's ``error`` column is reused)."""
    kept = [name for name in header if _normalized(name) != _normalized(ERROR_COLUMN)]
    return [*kept, ERROR_COLUMN]


def write_failures(
    path: Path, header: Sequence[str], failures: Iterable[tuple[Mapping[str, str], str]]
) -> int:
    """Write the failed rows with the input's columns plus ``error``; return how many were written.

    The file reads back with :func:`read_stop_csv` as it is, so the rows can be
    fixed and imported again.
    """
    columns = failure_header(header)
    rows = ({**values, ERROR_COLUMN: error} for values, error in failures)
    with open_output(path) as stream:
        return write_csv(stream, columns, rows)


EXPORT_COLUMNS: tuple[str, ...] = (
    "external_id",
    "recipient_name",
    "recipient_email",
    "recipient_phone",
    "address_line_one",
    "address_line_two",
    "latitude",
    "longitude",
    "earliest",
    "latest",
    "duration",
    "notes",
    "package_count",
    "barcodes",
    "products",
    "seller_order_id",
    "seller_name",
    "activity",
    "optimization_order",
    "weight",
    "weight_unit",
    "payment_amount",
    "payment_currency",
    "client_id",
)
"""The columns ``stops export`` writes: field names of :data:`FIELDS`, so the file reads back as it is.

The service answers a stop's address as its two lines and the geocoded point
(city, state, zip and country are folded into its formatted address), so those
are what is written; the coordinates place the stop where it was.
"""


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, time):
        return value.strftime("%H:%M:%S" if value.second else "%H:%M")
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ";".join(str(item) for item in value)
    return str(value)


def stop_as_row(stop: Stop | V1Stop) -> dict[str, str]:
    """A stop as the cells of :data:`EXPORT_COLUMNS` (lists joined with ``;``)."""
    values: dict[str, Any] = {
        "external_id": stop.recipient.external_id,
        "recipient_name": stop.recipient.name,
        "recipient_email": stop.recipient.email,
        "recipient_phone": stop.recipient.phone,
        "address_line_one": stop.address.address_line_one,
        "address_line_two": stop.address.address_line_two,
        "latitude": stop.address.latitude,
        "longitude": stop.address.longitude,
        "earliest": stop.timing.earliest_attempt_time,
        "latest": stop.timing.latest_attempt_time,
        "duration": stop.timing.estimated_attempt_duration,
        "notes": stop.notes,
        "package_count": stop.package_count,
        "barcodes": stop.barcodes,
        "products": stop.order_info.products,
        "seller_order_id": stop.order_info.seller_order_id,
        "seller_name": stop.order_info.seller_name,
        "activity": stop.activity,
        "optimization_order": stop.optimization_order,
        "weight": stop.weight.amount if stop.weight is not None else None,
        "weight_unit": stop.weight.unit if stop.weight is not None else None,
        "payment_amount": stop.payment_on_delivery.amount if stop.payment_on_delivery else None,
        "payment_currency": stop.payment_on_delivery.currency if stop.payment_on_delivery else None,
        "client_id": stop.client_id,
    }
    return {name: _cell_text(values[name]) for name in EXPORT_COLUMNS}


def write_stops(path: Path, stops: Iterable[Stop | V1Stop]) -> int:
    """Write stops as CSV with :data:`EXPORT_COLUMNS`; return how many were written."""
    with open_output(path) as stream:
        return write_csv(stream, EXPORT_COLUMNS, (stop_as_row(stop) for stop in stops))
