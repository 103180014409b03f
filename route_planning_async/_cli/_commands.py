"""What each command does, as coroutines over the public client API.

Every command returns its exit code; failures it does not handle itself are
raised and turned into one line on stderr by :func:`~._run.run_command`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from route_planning_async import (
    Operation,
    OptimizationFailure,
    OptimizationSuccess,
    StopType,
    ValidationError,
)
from route_planning_async._cli._csv import (
    CsvRow,
    parse_column_overrides,
    read_stop_csv,
    write_failures,
    write_stops,
)
from route_planning_async._cli._errors import CommandError, ExitCode, InputError
from route_planning_async._cli._progress import (
    import_rows,
    import_summary,
    read_counter,
    wait_with_status,
)
from route_planning_async._cli._render import (
    Output,
    WaitStatus,
    failures_table,
    plan_table,
    plans_table,
    stops_table,
)
from route_planning_async._cli._run import Settings, dump_json, jsonable, open_client

__all__ = [
    "demo",
    "distribute",
    "operations_wait",
    "optimize",
    "plans_create",
    "plans_delete",
    "plans_get",
    "plans_list",
    "stops_export",
    "stops_import",
    "stops_list",
]


async def plans_list(
    settings: Settings, *, title: str | None, starts_from: date | None, limit: int | None
) -> int:
    """``plans list``."""
    output = Output(json=settings.json)
    filters: dict[str, Any] = {}
    if title is not None:
        filters["title"] = title
    if starts_from is not None:
        filters["startsGte"] = starts_from
    found: list[dict[str, Any]] = []
    async with open_client(settings) as client:
        async for plan in client.plans.list(filter=filters or None):
            found.append(jsonable(plan))
            if limit is not None and len(found) >= limit:
                break
    if output.json:
        dump_json(found)
    else:
        output.out.print(plans_table(found))
    return ExitCode.OK


async def plans_create(
    settings: Settings, *, title: str, starts: date, drivers: Sequence[str], depot: str | None
) -> int:
    """``plans create``."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        plan = await client.plans.create(title=title, starts=starts, drivers=drivers, depot=depot)
    if output.json:
        dump_json(plan)
    else:
        output.out.print(plan.id, highlight=False)
        output.note(f"created {plan.id} {plan.title!r} for {plan.starts} with {len(plan.drivers)} driver(s)")
    return ExitCode.OK


async def plans_get(settings: Settings, *, plan: str) -> int:
    """``plans get``."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        found = await client.plans.get(plan)
    if output.json:
        dump_json(found)
    else:
        output.out.print(plan_table(jsonable(found)))
    return ExitCode.OK


async def plans_delete(settings: Settings, *, plan: str) -> int:
    """``plans delete`` (the confirmation is asked before this runs)."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        # A read first, so that the note names the plan that is gone.
        found = await client.plans.get(plan)
        await client.plans.delete(found.id)
    if output.json:
        dump_json({"deleted": found.id})
    else:
        output.out.print(found.id, highlight=False)
        output.note(f"deleted {found.id} {found.title!r}")
    return ExitCode.OK


async def stops_list(settings: Settings, *, plan: str, limit: int | None) -> int:
    """``stops list``."""
    output = Output(json=settings.json)
    found: list[dict[str, Any]] = []
    async with open_client(settings) as client:
        async for stop in client.stops.list(plan):
            found.append(jsonable(stop))
            if limit is not None and len(found) >= limit:
                break
    if output.json:
        dump_json(found)
    else:
        output.out.print(stops_table(found))
        output.note(f"{len(found)} stop(s)")
    return ExitCode.OK


async def stops_export(settings: Settings, *, plan: str, csv_path: Path) -> int:
    """``stops export``: the plan's stops as a CSV file ``stops import`` reads back."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        # An optimized plan's list also holds each route's start and end: not stops to import.
        stops = [stop async for stop in client.stops.list(plan) if stop.type == StopType.STOP]
    written = write_stops(csv_path, stops)
    if output.json:
        dump_json({"plan": plan, "stops": written, "file": str(csv_path)})
    else:
        output.note(f"{written} stop(s) of {plan} written to {csv_path}")
    return ExitCode.OK


def _duplicate_keys(rows: Sequence[CsvRow]) -> list[tuple[CsvRow, str]]:
    """Rows whose external id an earlier row already has, with the reason naming both lines."""
    first: dict[str, int] = {}
    repeated: list[tuple[CsvRow, str]] = []
    for row in rows:
        recipient = row.stop.recipient if row.stop is not None else None
        key = getattr(recipient, "external_id", None)
        if not isinstance(key, str) or not key:
            continue
        if key in first:
            repeated.append(
                (
                    row,
                    f"external_id {key!r} is also on line {first[key]}: one of them would be taken for "
                    "the other (fix it, or pass --allow-duplicate-external-ids)",
                )
            )
        else:
            first[key] = row.line
    return repeated


_NOT_SENT = "not sent: the import was stopped before this row (import this file again)"
_POSITION = re.compile(r"stops\[(\d+)\]")


def _with_lines(message: str, rows: Sequence[CsvRow]) -> str:
    """A library message with input positions (``stops[12]``) named as CSV lines."""

    def line(match: re.Match[str]) -> str:
        position = int(match.group(1))
        return f"line {rows[position].line}" if position < len(rows) else match.group(0)

    return _POSITION.sub(line, message)


async def stops_import(
    settings: Settings,
    *,
    plan: str,
    csv_path: Path,
    map_columns: Sequence[str],
    failures_path: Path | None,
    dry_run: bool,
    skip_existing: bool = False,
    allow_duplicate_external_ids: bool = False,
    dedupe: bool = True,
    deadline: float | None = None,
    progress: str = "auto",
    live: bool = False,
) -> int:
    """``stops import``: check the file, import the valid rows, report and write the failures.

    With ``live``, the plan is an optimized one: the rows go through its editing
    session (``stops.live_import_many``), which is then applied.
    """
    output = Output(json=settings.json)
    table = read_stop_csv(csv_path, parse_column_overrides(map_columns))
    if table.columns.ignored:
        output.note(f"ignored columns: {', '.join(table.columns.ignored)}")
    invalid = list(table.invalid)
    valid = list(table.valid)
    duplicates = [] if allow_duplicate_external_ids else _duplicate_keys(valid)
    if dry_run:
        repeated = [(row.line, error) for row, error in duplicates]
        bad = sorted([(row.line, row.error or "") for row in invalid] + repeated)
        if output.json:
            dump_json(
                {
                    "rows": len(table.rows),
                    "valid": len(valid) - len(duplicates),
                    "invalid": [{"line": line, "error": error} for line, error in bad],
                    "columns": dict(table.columns.columns),
                }
            )
        else:
            if bad:
                output.out.print(failures_table(bad, title="Invalid rows"))
            output.note(
                f"{len(valid) - len(duplicates)} of {len(table.rows)} rows are valid; "
                "nothing was sent (dry run)"
            )
        return ExitCode.USAGE if bad else ExitCode.OK
    if duplicates:
        shown = "; ".join(f"line {row.line}: {error}" for row, error in duplicates[:3])
        more = f" (and {len(duplicates) - 3} more)" if len(duplicates) > 3 else ""
        raise InputError(f"{len(duplicates)} row(s) repeat an external_id, nothing was sent: {shown}{more}")

    failures: list[tuple[CsvRow, str]] = [(row, row.error or "") for row in invalid]
    imported: list[tuple[int, str]] = []
    summary: dict[str, Any] = {}
    interrupted = False
    if valid:
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
            stops = [row.stop for row in valid if row.stop is not None]
            try:
                result = await import_rows(
                    client,
                    output,
                    target.id,
                    stops,
                    progress=progress,
                    skip_existing=skip_existing,
                    allow_duplicate_keys=allow_duplicate_external_ids,
                    dedupe=dedupe,
                    deadline=deadline,
                    live=live,
                )
            except ValidationError as exc:
                # The library names rows by position; the user knows them by line.
                raise InputError(_with_lines(str(exc), valid)) from None
            summary = import_summary(client, result.report)
        interrupted = result.interrupted
        for position, (row, (stop_id, error)) in enumerate(zip(valid, result.outcomes, strict=False)):
            if stop_id is not None:
                imported.append((row.line, stop_id))
            elif interrupted and position in result.never_sent:
                failures.append((row, _NOT_SENT))
            else:
                failures.append((row, _with_lines(error or "not imported", valid)))
        # Rows the import never reached (interrupted before they were read).
        failures.extend((row, _NOT_SENT) for row in valid[len(result.outcomes) :])
    failures.sort(key=lambda failure: failure[0].line)
    written = 0
    if interrupted and failures_path is None and failures:
        failures_path = csv_path.with_name(f"{csv_path.stem}.remaining.csv")
    if failures_path is not None and failures:
        written = write_failures(
            failures_path, table.header, ((row.values, error) for row, error in failures)
        )
    if output.json:
        dump_json(
            {
                "plan": plan,
                "rows": len(table.rows),
                "imported": len(imported),
                "skipped": summary.get("skipped", 0),
                "failed": len(failures),
                "interrupted": interrupted,
                "summary": summary,
                "stops": [{"line": line, "id": stop_id} for line, stop_id in imported],
                "failures": [{"line": row.line, "error": error} for row, error in failures],
                "failures_file": str(failures_path) if written else None,
            }
        )
    else:
        if failures:
            output.out.print(
                failures_table([(row.line, error) for row, error in failures], title="Rows not imported")
            )
        skipped = summary.get("skipped", 0)
        created = len(imported) - skipped
        extra = f" ({skipped} already there, skipped)" if skipped else ""
        output.note(f"imported {created + skipped} of {len(table.rows)} stops into {plan}{extra}")
        if summary:
            output.note(_summary_line(summary))
        if written:
            output.note(f"{written} failed row(s) written to {failures_path}; fix them and import that file")
        elif failures and failures_path is None:
            output.note("pass --failures FILE to get the failed rows back as CSV")
    if interrupted:
        return ExitCode.INTERRUPTED
    return ExitCode.PARTIAL if failures else ExitCode.OK


def _summary_line(summary: dict[str, Any]) -> str:
    parts = [
        f"{summary['import_requests']} import requests in {summary['elapsed_s']} s",
        f"{summary['429s']} 429s",
        f"{summary['retries']} retries",
        f"waited {summary['waited_s']} s for capacity",
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
        parts.append(f"stopped early: {summary['stopped']}")
    return "; ".join(parts)


def _describe_result(operation: Operation) -> str:
    result = operation.result
    if operation.metadata.canceled:
        return f"{operation.id}: canceled"
    if isinstance(result, OptimizationSuccess):
        skipped = len(result.skipped_stops)
        return f"{operation.id}: optimized {result.num_optimized_stops} stops, {skipped} skipped"
    if isinstance(result, OptimizationFailure):
        return f"{operation.id}: failed: {result.code}: {result.message}"
    return f"{operation.id}: {'done' if operation.done else 'running'}"


def _failed(operation: Operation) -> bool:
    return operation.metadata.canceled or isinstance(operation.result, OptimizationFailure)


async def optimize(settings: Settings, *, plan: str, wait: bool, max_wait: float | None) -> int:
    """``optimize``: start the optimization; with ``wait``, poll it until it is done."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        operation = await client.plans.optimize(plan)
        if not output.json:
            # The bare id alone on stdout, for OP=$(route-planning optimize P), and
            # at once: with --wait it is there even when the wait fails or times
            # out. The words go to stderr.
            output.note(f"started {operation.id} for {plan}")
            output.out.print(operation.id, highlight=False)
            output.out.file.flush()
        if wait:
            operation = await wait_with_status(client, output, operation, max_wait)
            output.note(_describe_result(operation))
    if output.json:
        dump_json(operation)
    return ExitCode.FAILURE if wait and _failed(operation) else ExitCode.OK


async def distribute(settings: Settings, *, plan: str) -> int:
    """``distribute``."""
    output = Output(json=settings.json)
    async with open_client(settings) as client:
        distributed = await client.plans.distribute(plan)
    if output.json:
        dump_json(distributed)
    else:
        output.out.print(
            f"{distributed.id}: distributed to {len(distributed.routes)} route(s)", highlight=False
        )
    return ExitCode.OK


async def operations_wait(settings: Settings, *, operation_ids: Sequence[str], max_wait: float | None) -> int:
    """``operations wait``: poll every operation from one loop; fail when one of them failed."""
    output = Output(json=settings.json)
    finished: list[Operation] = []
    async with open_client(settings) as client:
        label = f"Waiting for {len(operation_ids)} operation(s)"
        with WaitStatus(output, label, read_counter(client)) as status:
            async for operation in client.operations.wait_many(operation_ids, timeout=max_wait):
                finished.append(operation)
                status.state(f"{len(finished)} done")
                if not output.json:
                    output.out.print(_describe_result(operation), highlight=False)
    if output.json:
        dump_json(finished)
    return ExitCode.FAILURE if any(_failed(operation) for operation in finished) else ExitCode.OK


async def demo(
    settings: Settings,
    *,
    stop_count: int,
    driver_count: int,
    speedup: float,
    seed: int,
    map_path: Path | None,
) -> int:
    """``demo``: the whole workflow against an embedded emulator."""
    from route_planning_async._cli._demo import run_demo

    started = time.monotonic()
    output = Output(json=settings.json)
    summary = await run_demo(
        output,
        stop_count=stop_count,
        driver_count=driver_count,
        speedup=speedup,
        seed=seed,
        map_path=map_path,
    )
    elapsed = time.monotonic() - started
    if output.json:
        dump_json({**summary, "elapsed_s": round(elapsed, 2)})
    else:
        output.note(f"demo finished in {elapsed:.1f} s")
    return ExitCode.OK
