"""From a plan to its routes: ``optimize``, ``operations wait|cancel``, ``distribute``, ``routes get``.

``operations cancel`` and ``routes get`` use calls the contract does not have
and the official schema does (``client.operations.cancel``, ``client.routes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
from rich.table import Table

from route_planning_async import ConflictError, Operation, OptimizationFailure, OptimizationSuccess
from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._options import (
    OPERATIONS,
    PLAN,
    Command,
    service,
    service_group,
    timeout_option,
)
from route_planning_async._cli._output._render import Output, WaitStatus
from route_planning_async._cli._progress import read_counter, wait_with_status
from route_planning_async._cli._run import Settings, dump_json, jsonable, open_client, print_result

__all__ = ["distribute", "operations", "optimize", "routes"]


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


@click.command(cls=Command)
@PLAN
@click.option(
    "--wait",
    is_flag=True,
    help="Poll the optimization until it is done. Stdout is still the operation id alone (printed "
    "as soon as it starts, so also when the wait fails or times out); the outcome goes to stderr "
    "and the exit code says it: 0 optimized, 1 failed, canceled or timed out.",
)
@timeout_option("Give up waiting after SECONDS.")
@service
async def optimize(settings: Settings, *, plan: str, wait: bool, max_wait: float | None) -> int:
    """Start the optimization of PLAN (3 per minute); print its operation id alone on stdout.

    \b
    For scripts:
      OP=$(route-planning optimize plans/ABC)
      route-planning operations wait "$OP"
    The human description goes to stderr; --json prints the operation as JSON.
    """
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


@click.command(cls=Command)
@PLAN
@service
async def distribute(settings: Settings, *, plan: str) -> int:
    """Send the routes of the optimized PLAN to its drivers."""
    async with open_client(settings) as client:
        distributed = await client.plans.distribute(plan)
    shown = f"{distributed.id}: distributed to {len(distributed.routes)} route(s)"
    print_result(Output(json=settings.json), distributed, shown)
    return ExitCode.OK


@service_group
def operations() -> None:
    """Follow optimization operations."""


@operations.command("wait")
@OPERATIONS
@timeout_option("Give up after SECONDS.")
@service
async def operations_wait(settings: Settings, *, operation_ids: Sequence[str], max_wait: float | None) -> int:
    """Wait until every OPERATION is done; fail when one of them failed."""
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


@operations.command("cancel")
@OPERATIONS
@service
async def operations_cancel(settings: Settings, *, operation_ids: Sequence[str]) -> int:
    """Cancel each OPERATION that is not done yet (one already done is reported, not an error)."""
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


@service_group
def routes() -> None:
    """Read the routes of optimized plans."""


@routes.command("get")
@click.argument("route_ids", metavar="ROUTE...", nargs=-1, required=True)
@service
async def routes_get(settings: Settings, *, route_ids: Sequence[str]) -> int:
    """Show each ROUTE (routes/<id> or <id>: a plan's 'routes' lists them)."""
    async with open_client(settings) as client:
        found = [await client.routes.get(route_id) for route_id in route_ids]
    table = Table(title="Routes")
    for name in ("Route", "Title", "Driver", "Stops", "Plan", "Distributed"):
        table.add_column(name)
    for route in found:
        distributed = route.state is not None and route.state.distributed
        table.add_row(
            route.id,
            route.title,
            route.driver or "—",
            str(route.stop_count),
            route.plan or "—",
            "yes" if distributed else "no",
        )
    print_result(Output(json=settings.json), found, table)
    return ExitCode.OK
