"""Rows to import from a CSV or JSON file, and what became of them: the commands that
import team records (drivers, depots, members) share this room.

A file is CSV (read as the stop import reads it: the delimiter found from the
header, cells unescaped) unless its name ends with ``.json`` or its content
starts with ``[``: then it is a JSON array of flat objects, whose keys are the
columns (a number or ``true``/``false`` is read as its text, a list joined with
``;``, null as an empty cell). A JSON row's ``line`` is its position in the
array, from 1.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from route_planning_async import ImportReport, Outcome, ValidationError
from route_planning_async._cli._errors import CommandError, ExitCode, InputError
from route_planning_async._cli._files._csv import CsvError, _records
from route_planning_async._cli._files._failures import Failures
from route_planning_async._cli._files._stdio import describe, read_input
from route_planning_async._cli._options import not_stdout
from route_planning_async._cli._output._render import Output, failures_table
from route_planning_async._cli._run import Settings, dump_json, open_client
from route_planning_async._import import DUPLICATE_KEYS_ADVICE
from route_planning_async._json import JSONInputError, read_json

if TYPE_CHECKING:
    from route_planning_async._cli._versions import AnyClient

__all__ = [
    "MappedRows",
    "ParsedRow",
    "RowFile",
    "import_file",
    "import_outcomes",
    "in_lines",
    "normalized",
    "parse_rows",
    "read_mapped_rows",
    "read_rows",
    "report_import",
]

T = TypeVar("T")


def normalized(header: str) -> str:
    """A header as columns are matched: lower case, without spaces, ``-`` or ``_``."""
    return "".join(ch for ch in header.lower() if ch not in " _-")


@attrs.frozen
class ParsedRow(Generic[T]):
    """One data row of an input file, with what it was read as."""

    line: int
    """Where it starts in the file (1-based; a CSV's header is line 1; a JSON item's position)."""
    values: Mapping[str, str]
    """The cells, by header."""
    item: T | None
    """What the row was read as, or None when it is invalid."""
    error: str | None = None
    """Why the row is invalid."""


@attrs.frozen
class RowFile:
    """A read input file: its header and each data row's cells with its line."""

    header: tuple[str, ...]
    """The columns, as written (a JSON file's keys, in the order first seen)."""
    rows: tuple[tuple[int, dict[str, str]], ...]
    """``(line, cells by header)`` of every data row that is not empty."""
    json: bool = False
    """Whether it was a JSON array (its columns are keys), not a CSV file."""


@attrs.frozen
class MappedRows(Generic[T]):
    """A read input file whose columns were matched to the fields of its rows."""

    header: tuple[str, ...]
    """The columns, as written (a JSON file's keys, in the order first seen)."""
    rows: tuple[ParsedRow[T], ...]
    """Every data row, valid or not."""
    ignored: tuple[str, ...] = ()
    """The columns that feed no field (named in a note, not dropped without a word)."""


def _json_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(_json_cell(item) for item in value)
    if isinstance(value, dict):
        raise CsvError("a JSON row's values must be text, numbers, booleans or lists, not objects")
    return str(value)


def _json_rows(text: str) -> RowFile:
    try:
        data = read_json(text)
    except JSONInputError as exc:
        raise CsvError(f"not JSON: {exc.detail}" if exc.syntax else f"the JSON {exc}") from None
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise CsvError("a JSON file must hold an array of objects, one a row")
    header: list[str] = []
    rows: list[tuple[int, dict[str, str]]] = []
    for position, item in enumerate(data, start=1):
        header.extend(str(key) for key in item if str(key) not in header)
        rows.append((position, {str(key): _json_cell(value) for key, value in item.items()}))
    return RowFile(tuple(header), tuple(rows), json=True)


def _csv_rows(text: str) -> RowFile:
    records = [(line, record) for line, record in _records(text) if any(cell.strip() for cell in record)]
    if not records:
        raise CsvError("the file is empty: a header row is needed")
    header = tuple(cell.strip() for cell in records[0][1])
    rows = tuple(
        (line, dict(zip(header, record + [""] * (len(header) - len(record)), strict=False)))
        for line, record in records[1:]
    )
    return RowFile(header, rows)


def read_rows(source: Path | str) -> RowFile:
    """Read a whole CSV or JSON file of rows: a path (``-`` for stdin), or the text itself as ``str``.

    Raises:
        CsvError: The file cannot be read, or is neither a CSV file with a header nor a JSON array.
    """
    if isinstance(source, Path):
        try:
            text = read_input(source).decode("utf-8-sig")
        except (UnicodeDecodeError, OSError) as exc:
            raise CsvError(f"{describe(source, reading=True)}: {exc}") from None
        is_json = source.suffix.lower() == ".json"
    else:
        text, is_json = source, False
    if is_json or text.lstrip().startswith("["):
        return _json_rows(text)
    return _csv_rows(text)


def read_mapped_rows(
    source: Path | str,
    aliases: Mapping[str, str],
    build: Callable[[Mapping[str, str], Mapping[str, str]], T],
    *,
    required: Sequence[tuple[frozenset[str], str, str]],
) -> MappedRows[T]:
    """A file's header and its rows, each read by ``build(cells, columns)``.

    ``aliases`` maps a :func:`normalized` header to the field it feeds; ``columns`` is the
    file's header -> field. Each entry of ``required`` is ``(fields, names, why)``: the file
    must feed one of ``fields``, and says so naming them (``"an 'email' or a 'phone'"``) and
    why (``"it identifies each driver"``).

    Raises:
        CsvError: The file cannot be read, or a required column is missing.
    """
    table = read_rows(source)
    columns = {name: aliases[normalized(name)] for name in table.header if normalized(name) in aliases}
    for fields, names, why in required:
        if not fields & set(columns.values()):
            if table.json:
                raise CsvError(f"no object has {names} key: {why}")
            raise CsvError(f"the header needs {names} column: {why}")
    ignored = tuple(name for name in table.header if name and name not in columns)
    rows = parse_rows(table, lambda values: build(values, columns))
    return MappedRows(table.header, tuple(rows), ignored)


def parse_rows(table: RowFile, parse: Callable[[Mapping[str, str]], T]) -> list[ParsedRow[T]]:
    """Each row read by ``parse``; a row it refuses (``ValueError``, ``ValidationError``) keeps why."""
    parsed: list[ParsedRow[T]] = []
    for line, values in table.rows:
        try:
            parsed.append(ParsedRow(line, values, parse(values)))
        except ValidationError as exc:
            parsed.append(ParsedRow(line, values, None, f"{exc.field}: {exc.rule}"))
        except ValueError as exc:
            parsed.append(ParsedRow(line, values, None, str(exc)))
    return parsed


def import_outcomes(report: ImportReport[Any], count: int) -> list[tuple[Outcome, str | None]]:
    """The outcome of each position of an import, with the new id (created) or why not (else;
    None for a row skipped as already there)."""
    errors: dict[int, str] = {rejected.position: rejected.message for rejected in report.rejected}
    for batch in report.failed_batches:
        for position in batch.positions:
            errors[position] = f"{batch.outcome.value}: {batch.error}"
    result: list[tuple[Outcome, str | None]] = []
    for position in range(count):
        outcome = report.outcome(position)
        if outcome is Outcome.CREATED:
            result.append((outcome, report.id_of(position)))
        elif outcome is Outcome.SKIPPED:
            result.append((outcome, None))
        else:
            result.append((outcome, errors.get(position, "not imported")))
    return result


def report_import(
    output: Output,
    *,
    kind: str,
    rows: Sequence[ParsedRow[Any]],
    header: Sequence[str],
    report: ImportReport[Any] | None,
    failures_path: Path | None,
) -> int:
    """Print what an import of ``rows`` did (``kind``: ``drivers``, ``depots``...) and write the
    rows that failed to ``failures_path``; the exit code (3 when some rows were not imported).

    ``report`` is the import of the valid rows, in order (None when none was valid).
    """
    failures = Failures(header, [(row, row.error or "") for row in rows if row.item is None])
    valid = [row for row in rows if row.item is not None]
    imported: list[tuple[int, str]] = []
    skipped: list[int] = []
    if report is not None:
        for row, (outcome, text) in zip(valid, import_outcomes(report, len(valid)), strict=True):
            if outcome is Outcome.CREATED and text is not None:
                imported.append((row.line, text))
            elif outcome is Outcome.SKIPPED:
                skipped.append(row.line)
            else:
                failures.add(row, text or "not imported")
    written, unwritten = failures.write_or_say(failures_path)
    if output.json:
        dump_json(
            {
                "rows": len(rows),
                "imported": len(imported),
                "skipped": len(skipped),
                "failed": len(failures),
                kind: [{"line": line, "id": new_id} for line, new_id in imported],
                **failures.as_json(failures_path, written),
            }
        )
    else:
        if failures:
            output.err.print(failures_table(failures.by_line(), title="Rows not imported"))
        extra = f" ({len(skipped)} already there, skipped)" if skipped else ""
        output.note(f"imported {len(imported)} of {len(rows)} {kind}{extra}")
        if written:
            output.note(f"{written} failed row(s) written to {failures_path}")
    if unwritten is not None:
        raise CommandError(unwritten)
    return ExitCode.PARTIAL if failures else ExitCode.OK


def in_lines(message: str, kind: str, rows: Sequence[ParsedRow[Any]]) -> str:
    """A library message naming rows by position (``drivers[1].email``) named by the file's lines
    (``line 3, email``), the rows being ``rows`` in the order they were sent."""

    def line(match: re.Match[str]) -> str:
        position = int(match.group(1))
        if position >= len(rows):
            return match.group(0)
        return f"line {rows[position].line}" + (", " if match.group(2) else "")

    named = re.sub(rf"\b{re.escape(kind)}\[(\d+)\](\.)?", line, message)
    return named.replace(
        DUPLICATE_KEYS_ADVICE, "nothing was sent: give each row its own, or remove the repeat"
    )


async def import_file(
    settings: Settings,
    *,
    kind: str,
    read: Callable[[], MappedRows[T]],
    failures_path: Path | None,
    send: Callable[[AnyClient, list[T]], Awaitable[ImportReport[Any]]],
) -> int:
    """An import command: read the file (``read()``), note the columns it ignores, send the
    valid rows with ``send(client, items)`` (an ``import_many``), then :func:`report_import`;
    the exit code. A ``--failures -`` that stdout cannot carry is refused before anything is read."""
    output = Output(json=settings.json)
    not_stdout(settings, failures_path, "--failures")
    table = read()
    header, rows = table.header, table.rows
    if table.ignored:
        output.note(f"ignored columns: {', '.join(table.ignored)}")
    valid = [row for row in rows if row.item is not None]
    report = None
    if valid:
        async with open_client(settings) as client:
            try:
                report = await send(client, [row.item for row in valid if row.item is not None])
            except ValidationError as exc:
                # A Sequence's rows are all checked before anything is sent (a repeated key, a
                # rule the reader does not know): named by line, with this tool's advice.
                raise InputError(in_lines(str(exc), kind, valid)) from None
    return report_import(
        output, kind=kind, rows=rows, header=header, report=report, failures_path=failures_path
    )
