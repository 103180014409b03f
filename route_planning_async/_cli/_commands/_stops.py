"""``route-planning stops``: list, import and export the stops of a plan (CSV), and write a sample file."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from route_planning_async import StopType, ValidationError
from route_planning_async._cli._errors import CommandError, ExitCode, InputError
from route_planning_async._cli._files._cells import write_csv
from route_planning_async._cli._files._csv import (
    CsvRow,
    StopCsv,
    parse_column_overrides,
    read_stop_csv,
    write_stops,
)
from route_planning_async._cli._files._failures import Failures
from route_planning_async._cli._files._sample_stops import fields_as_csv_row, generate_stop_fields
from route_planning_async._cli._files._stdio import STDIO, describe, is_stdio, open_output
from route_planning_async._cli._options import (
    INPUT_CSV,
    OUTPUT_FILE,
    PLAN,
    POSITIVE,
    failures_option,
    limit_option,
    not_stdout,
    seed_option,
    service,
    service_group,
)
from route_planning_async._cli._output._render import Output, failures_table, stops_table, warnings_as_events
from route_planning_async._cli._progress import import_rows, import_summary, progress_mode
from route_planning_async._cli._run import (
    Settings,
    caught_interrupt,
    dump_json,
    failure_of,
    first,
    jsonable,
    open_client,
    print_result,
)
from route_planning_async._cli._versions import stop_inputs

__all__ = ["stops"]


@service_group
def stops() -> None:
    """List, import and export the stops of a plan (CSV)."""


@stops.command("list")
@PLAN
@limit_option("stops")
@service
async def stops_list(settings: Settings, *, plan: str, limit: int | None) -> int:
    """List the stops of PLAN: id, external id, recipient, address, time window, route."""
    async with open_client(settings) as client:
        found = await first(client.stops.list(plan), limit)
    listed = [jsonable(stop) for stop in found]
    print_result(Output(json=settings.json), listed, stops_table(listed), note=f"{len(listed)} stop(s)")
    return ExitCode.OK


@stops.command("export")
@PLAN
@click.argument("csv_file", metavar="CSV", type=OUTPUT_FILE)
@service
async def stops_export(settings: Settings, *, plan: str, csv_file: Path) -> int:
    """Write the stops of PLAN to CSV, in columns 'stops import' reads back as they are.

    \b
    Columns: external_id, recipient_name, recipient_email, recipient_phone,
    address_line_one, address_line_two, latitude, longitude, earliest, latest
    (HH:MM), duration (seconds), notes, package_count, barcodes and products
    (joined with ';'), seller_order_id, seller_name, activity,
    optimization_order, weight, weight_unit, payment_amount, payment_currency,
    client_id. The service gives an address back as its two lines and its
    geocoded point (city, state, zip and country are not returned apart), so
    the coordinates place a re-imported stop where it was. Allowed drivers and
    route assignments are not exported. A text cell a spreadsheet would run as a
    formula (=, +, -, @) is written with a ' in front, which 'stops import' takes off.
    """
    not_stdout(settings, csv_file, "CSV")
    async with open_client(settings) as client:
        # An optimized plan's list also holds each route's start and end: not stops to import.
        found = [stop async for stop in client.stops.list(plan) if stop.type == StopType.STOP]
    written = write_stops(csv_file, found)
    data = {"plan": plan, "stops": written, "file": str(csv_file)}
    where = describe(csv_file, reading=False)
    print_result(Output(json=settings.json), data, note=f"{written} stop(s) of {plan} written to {where}")
    return ExitCode.OK


def _duplicate_keys(rows: Sequence[CsvRow]) -> list[tuple[CsvRow, str]]:
    """Rows whose external id an earlier row already has, with the reason naming both lines."""
    first_line: dict[str, int] = {}
    repeated: list[tuple[CsvRow, str]] = []
    for row in rows:
        recipient = row.stop.recipient if row.stop is not None else None
        key = getattr(recipient, "external_id", None)
        if not isinstance(key, str) or not key:
            continue
        if key in first_line:
            repeated.append(
                (
                    row,
                    f"external_id {key!r} is also on line {first_line[key]}: one of them would be taken "
                    "for the other (fix it, or pass --allow-duplicate-external-ids)",
                )
            )
        else:
            first_line[key] = row.line
    return repeated


_NOT_SENT = "not sent: the import was stopped before this row (import this file again)"
_STOPPED_BY_CTRL_C = "interrupted (Ctrl-C or SIGTERM): no batch was sent after it"
"""Why an import stopped, in its summary, when Ctrl-C (or SIGTERM) stopped it."""
_IN_FLIGHT = (
    "outcome unknown: a second Ctrl-C (or SIGTERM) abandoned the import before its answer; the stop "
    "may exist (import again with --skip-existing)"
)
_POSITION = re.compile(r"stops\[(\d+)\]")


def _with_lines(message: str, rows: Sequence[CsvRow]) -> str:
    """A library message with input positions (``stops[12]``) named as CSV lines."""

    def line(match: re.Match[str]) -> str:
        position = int(match.group(1))
        return f"line {rows[position].line}" if position < len(rows) else match.group(0)

    return _POSITION.sub(line, message)


def _dry_run(output: Output, table: StopCsv, duplicates: Sequence[tuple[CsvRow, str]]) -> int:
    """Report the rows that could not be sent, send nothing; exit code 2 when there are any."""
    repeated = [(row.line, error) for row, error in duplicates]
    bad = sorted([(row.line, row.error or "") for row in table.invalid] + repeated)
    valid = len(table.valid) - len(duplicates)
    if output.json:
        dump_json(
            {
                "rows": len(table.rows),
                "valid": valid,
                "invalid": [{"line": line, "error": error} for line, error in bad],
                "columns": dict(table.columns.columns),
            }
        )
    else:
        if bad:
            output.err.print(failures_table(bad, title="Invalid rows"))
        output.note(f"{valid} of {len(table.rows)} rows are valid; nothing was sent (dry run)")
    return ExitCode.USAGE if bad else ExitCode.OK


def _summary_line(summary: dict[str, Any]) -> str:
    parts = [
        f"{summary['import_requests']} import requests in {summary['elapsed_s']} s "
        f"({summary['waited_s']} s of it waiting for capacity)",
        f"{summary['429s']} 429s",
        f"{summary['retries']} retries",
    ]
    if summary["learned_limits"]:
        parts.append("learned limits: " + ", ".join(summary["learned_limits"]))
    if summary["duplicates_found"]:
        parts.append(
            f"{summary['duplicates_found']} late duplicate(s) found, {summary['duplicates_deleted']} deleted"
        )
    if summary["unknown"]:
        parts.append(f"{summary['unknown']} stop(s) of unknown outcome: look them up before importing again")
    if summary["stopped"]:
        unsent = f"; {summary['not_sent']} row(s) not sent" if summary["not_sent"] else ""
        parts.append(f"stopped early: {summary['stopped']}{unsent}")
    return "; ".join(parts)


@stops.command("import")
@PLAN
@INPUT_CSV
@click.option(
    "--map-column",
    "map_columns",
    multiple=True,
    metavar="FIELD=HEADER",
    help="Read FIELD from the column HEADER (e.g. external_id='Order ref'); repeatable.",
)
@failures_option("; it can be imported again")
@click.option("--dry-run", is_flag=True, help="Check every row and report the bad ones; send nothing.")
@click.option(
    "--skip-existing",
    is_flag=True,
    help="Read the plan's external ids first and send only the rows not there yet (resume an import).",
)
@click.option(
    "--allow-duplicate-external-ids",
    is_flag=True,
    help="Accept rows that repeat an external_id (they are then never matched by it); refused by default.",
)
@click.option(
    "--dedupe/--no-dedupe",
    default=True,
    show_default=True,
    help="Delete a second stop with the same external_id found after a late commit of the service.",
)
@click.option(
    "--deadline",
    type=POSITIVE,
    metavar="SECONDS",
    help="Stop sending after SECONDS; rows not sent are reported and written with --failures.",
)
@click.option(
    "--progress",
    type=click.Choice(["auto", "bar", "lines", "json", "none"]),
    default="auto",
    show_default=True,
    help="auto: a bar on a terminal, else a line on stderr every few seconds (none with --json); "
    "json: NDJSON progress events on stderr.",
)
@click.option(
    "--live",
    is_flag=True,
    help="PLAN is already optimized: import through its editing session (stops:liveImport), "
    "then re-optimize and redistribute it.",
)
@service
async def stops_import(
    settings: Settings,
    *,
    plan: str,
    csv_file: Path,
    map_columns: Sequence[str],
    failures_path: Path | None,
    dry_run: bool,
    allow_duplicate_external_ids: bool,
    live: bool,
    **import_options: Any,
) -> int:
    """Import the stops of a CSV file into PLAN, 100 per request, at the contract's pace.

    \b
    Columns are found by their header (case, spaces and '_' do not matter):
      address / address_line_one / line1 / street, address_line_two / line2,
      city, state, zip / postcode, country, lat / latitude, lng / lon / longitude,
      recipient_name / name, recipient_email / email, recipient_phone / phone,
      external_id, earliest and latest (HH:MM), duration (seconds, or 5m, 1h),
      notes, package_count, barcodes and products (split on ';' or ','),
      seller_order_id / order_id, activity, optimization_order, allowed_drivers.
    An 'error' column (from a failure report) is ignored. CSV '-' reads stdin.

    \b
    A row the service refuses costs only itself (the rest of its batch is sent
    again). Two rows with the same external_id are refused before anything is
    sent. Ctrl-C stops taking new batches and waits for those in flight (a
    second Ctrl-C abandons them), prints the summary, writes the rows not
    imported (to --failures, or CSV.remaining.csv) and exits 130; import that
    file, or the same file with --skip-existing, to resume.
    """
    output = Output(json=settings.json)
    # --progress json: stderr carries JSON objects alone, errors and Ctrl-C's summary included.
    output.events = progress_mode(output, import_options["progress"]) == "json"
    try:
        with warnings_as_events(output):
            return await _import_file(
                settings,
                output,
                plan=plan,
                csv_file=csv_file,
                map_columns=map_columns,
                failures_path=failures_path,
                dry_run=dry_run,
                allow_duplicate_external_ids=allow_duplicate_external_ids,
                live=live,
                **import_options,
            )
    except Exception as exc:
        failure = failure_of(exc)
        if not output.events or failure is None:
            raise
        output.event("error", failure.format_message(), exit_code=failure.exit_code)
        return failure.exit_code


async def _import_file(
    settings: Settings,
    output: Output,
    *,
    plan: str,
    csv_file: Path,
    map_columns: Sequence[str],
    failures_path: Path | None,
    dry_run: bool,
    allow_duplicate_external_ids: bool,
    live: bool,
    **import_options: Any,
) -> int:
    not_stdout(settings, failures_path, "--failures")
    table = read_stop_csv(csv_file, parse_column_overrides(map_columns), stop_inputs(settings.api_version))
    if table.columns.ignored:
        output.note(f"ignored columns: {', '.join(table.columns.ignored)}")
    valid = table.valid
    duplicates = [] if allow_duplicate_external_ids else _duplicate_keys(valid)
    if dry_run:
        return _dry_run(output, table, duplicates)
    if duplicates:
        shown = "; ".join(f"line {row.line}: {error}" for row, error in duplicates[:3])
        more = f" (and {len(duplicates) - 3} more)" if len(duplicates) > 3 else ""
        raise InputError(f"{len(duplicates)} row(s) repeat an external_id, nothing was sent: {shown}{more}")

    failures = Failures(table.header, [(row, row.error or "") for row in table.invalid])
    imported: list[tuple[int, str]] = []
    summary: dict[str, Any] = {}
    interrupted = False
    not_sent = 0
    result = None
    sending = False
    if valid:
        try:
            async with open_client(settings) as client:
                # One read first: a missing or optimized plan is one clear error, not
                # the same failure repeated for every row (stops rule 1: imports into a
                # plan that is not writable fail).
                target = await client.plans.get(plan)
                if not target.writable and not live:
                    raise CommandError(
                        f"{target.id} is not writable (it was optimized): import into it with --live "
                        "(its editing session, then re-optimized and redistributed)"
                    )
                sending = True
                try:
                    result = await import_rows(
                        client,
                        output,
                        target.id,
                        [row.stop for row in valid if row.stop is not None],
                        allow_duplicate_keys=allow_duplicate_external_ids,
                        live=live,
                        **import_options,  # --skip-existing, --dedupe, --deadline, --progress
                    )
                except ValidationError as exc:
                    # The library names rows by position; the user knows them by line.
                    raise InputError(_with_lines(str(exc), valid)) from None
                summary = import_summary(client, result.report)
                if result.interrupted and summary["stopped"]:
                    summary["stopped"] = _STOPPED_BY_CTRL_C
                elif result.error is not None:
                    summary["stopped"] = f"an error: {result.error}"
        except asyncio.CancelledError:
            # Ctrl-C before the import handled it (reading the file, the plan) or twice before
            # its first answer: say what became of every row all the same, and exit 130.
            if not caught_interrupt():
                raise
            interrupted = True
        interrupted = interrupted or (result is not None and result.interrupted)
        outcomes = result.outcomes if result is not None else []
        for position, (row, (stop_id, error)) in enumerate(zip(valid, outcomes, strict=False)):
            if stop_id is not None:
                imported.append((row.line, stop_id))
            elif result is not None and position in result.never_sent:
                failures.add(row, _NOT_SENT)
                not_sent += 1
            else:
                failures.add(row, _with_lines(error or "not imported", valid))
        # Rows the import never reached (interrupted before they were read).
        for row in valid[len(outcomes) :]:
            if sending and result is None:
                failures.add(row, _IN_FLIGHT)
            else:
                failures.add(row, _NOT_SENT)
                not_sent += 1
    stopped_by = result.error if result is not None else None
    if (interrupted or stopped_by is not None) and failures_path is None and failures:
        failures_path = _remaining_path(csv_file)
    written, unwritten = failures.write_or_say(failures_path)
    skipped = summary.get("skipped", 0)
    counts = {
        "imported": len(imported) - skipped,
        "skipped": skipped,
        "failed": len(failures) - not_sent,
        "not_sent": not_sent,
    }
    if output.json:
        dump_json(
            {
                "plan": plan,
                "rows": len(table.rows),
                **counts,
                "interrupted": interrupted,
                "summary": summary,
                "stops": [{"line": line, "id": stop_id} for line, stop_id in imported],
                **failures.as_json(failures_path, written),
            }
        )
    elif output.events:
        output.event(
            "summary",
            plan=plan,
            rows=len(table.rows),
            **counts,
            interrupted=interrupted,
            summary=summary,
            **failures.as_json(failures_path, written),
        )
        if written:
            output.note(_advice(counts["failed"], not_sent, failures_path))
    else:
        if failures:
            output.err.print(failures_table(failures.by_line(), title="Rows not imported"))
        extra = f" ({skipped} already there, skipped)" if skipped else ""
        output.note(f"imported {counts['imported']} of {len(table.rows)} stops into {plan}{extra}")
        if summary:
            output.note(_summary_line(summary))
        if written:
            output.note(_advice(counts["failed"], not_sent, failures_path))
        elif failures and failures_path is None:
            output.note("pass --failures FILE to get the failed rows back as CSV")
    if unwritten is not None:
        raise CommandError(unwritten)
    if stopped_by is not None:
        raise stopped_by  # every row's outcome is told above; the error decides the exit code
    if interrupted:
        return ExitCode.INTERRUPTED
    return ExitCode.PARTIAL if failures else ExitCode.OK


def _remaining_path(csv_file: Path) -> Path:
    """Where an interrupted import writes the rows not imported when no --failures is given."""
    if is_stdio(csv_file):
        return Path("stdin.remaining.csv")
    return csv_file.with_name(f"{csv_file.stem}.remaining.csv")


def _advice(failed: int, not_sent: int, path: Path | None) -> str:
    """What to do with the rows written to ``path``: what is in it decides."""
    if not not_sent:
        return f"{failed} failed row(s) written to {path}; fix them and import that file"
    if not failed:
        return (
            f"{not_sent} row(s) not sent, written to {path}; import that file "
            "(or the original with --skip-existing) to finish"
        )
    return (
        f"{failed} failed row(s) and {not_sent} row(s) not sent written to {path}; "
        "fix the failed ones, then import that file to finish"
    )


@stops.command("sample")
@click.option("--count", type=click.IntRange(1, 100_000), default=50, show_default=True)
@seed_option()
@click.option("--output", "-o", type=OUTPUT_FILE, help="Write here instead of stdout ('-': stdout too).")
def stops_sample(count: int, seed: int, output: Path | None) -> None:
    """Write a CSV file of realistic stops around the demo depot, to try 'stops import' with."""
    rows = [fields_as_csv_row(fields) for fields in generate_stop_fields(count, seed=seed)]
    header: list[str] = []
    for row in rows:
        header.extend(name for name in row if name not in header)
    try:
        with open_output(output if output is not None else Path(STDIO)) as stream:
            write_csv(stream, header, rows, lineterminator="\n")
    except OSError as exc:
        raise CommandError(f"{exc.filename or output}: {exc.strerror}") from None
