"""What each command does, as coroutines over the public client API.

Every command returns its exit code; failures it does not handle itself are
raised and turned into one line on stderr by :func:`~._run.run_command`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from route_planning_async import Operation, OptimizationFailure, OptimizationSuccess
from route_planning_async._cli._csv import CsvRow, parse_column_overrides, read_stop_csv, write_failures
from route_planning_async._cli._errors import CommandError, ExitCode
from route_planning_async._cli._progress import import_with_progress, read_counter, wait_with_status
from route_planning_async._cli._render import Output, WaitStatus, failures_table, plans_table
from route_planning_async._cli._run import Settings, dump_json, jsonable, open_client

__all__ = [
    "demo",
    "distribute",
    "operations_wait",
    "optimize",
    "plans_create",
    "plans_list",
    "stops_import",
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


def _row_failures(rows: Sequence[CsvRow]) -> list[tuple[int | None, str]]:
    return [(row.line, row.error or "") for row in rows]


async def stops_import(
    settings: Settings,
    *,
    plan: str,
    csv_path: Path,
    map_columns: Sequence[str],
    failures_path: Path | None,
    dry_run: bool,
) -> int:
    """``stops import``: check the file, import the valid rows, report and write the failures."""
    output = Output(json=settings.json)
    table = read_stop_csv(csv_path, parse_column_overrides(map_columns))
    if table.columns.ignored:
        output.note(f"ignored columns: {', '.join(table.columns.ignored)}")
    invalid = table.invalid
    valid = table.valid
    if dry_run:
        if output.json:
            dump_json(
                {
                    "rows": len(table.rows),
                    "valid": len(valid),
                    "invalid": [{"line": row.line, "error": row.error} for row in invalid],
                    "columns": dict(table.columns.columns),
                }
            )
        else:
            if invalid:
                output.out.print(failures_table(_row_failures(invalid), title="Invalid rows"))
            output.note(f"{len(valid)} of {len(table.rows)} rows are valid; nothing was sent (dry run)")
        return ExitCode.USAGE if invalid else ExitCode.OK

    failures: list[tuple[CsvRow, str]] = [(row, row.error or "") for row in invalid]
    imported: list[tuple[int, str]] = []
    if valid:
        async with open_client(settings) as client:
            # One read first: a missing or optimized plan is one clear error, not
            # the same failure repeated for every row (stops rule 1: imports into a
            # plan that is not writable fail).
            target = await client.plans.get(plan)
            if not target.writable:
                raise CommandError(
                    f"{target.id} is not writable (it was optimized): stops can only be imported "
                    "into a writable plan"
                )
            stops = [row.stop for row in valid if row.stop is not None]
            outcomes = await import_with_progress(client, output, target.id, stops)
        for row, (stop_id, error) in zip(valid, outcomes, strict=True):
            if stop_id is not None:
                imported.append((row.line, stop_id))
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
                "plan": plan,
                "rows": len(table.rows),
                "imported": len(imported),
                "failed": len(failures),
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
        output.note(f"imported {len(imported)} of {len(table.rows)} stops into {plan}")
        if written:
            output.note(f"{written} failed row(s) written to {failures_path}; fix them and import that file")
        elif failures and failures_path is None:
            output.note("pass --failures FILE to get the failed rows back as CSV")
    return ExitCode.PARTIAL if failures else ExitCode.OK


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
        if wait:
            operation = await wait_with_status(client, output, operation, max_wait)
    if output.json:
        dump_json(operation)
    else:
        output.out.print(_describe_result(operation), highlight=False)
    return ExitCode.OK


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
