"""``route-planning plans``: list, show, create and delete plans."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from route_planning_async._cli._errors import ExitCode, InputError
from route_planning_async._cli._options import PLAN, limit_option, parse_date, service, service_group
from route_planning_async._cli._output._render import Output, plan_table, plans_table
from route_planning_async._cli._run import Settings, first, jsonable, open_client, print_result

__all__ = ["plans"]


@service_group
def plans() -> None:
    """List, show, create and delete plans."""


@plans.command("list")
@click.option("--title", help="Only plans with this title.")
@click.option(
    "--from", "starts_from", metavar="DATE", help="Only plans starting on or after DATE (YYYY-MM-DD)."
)
@limit_option("plans")
@service
async def plans_list(
    settings: Settings, *, title: str | None, starts_from: str | None, limit: int | None
) -> int:
    """List the team's plans."""
    filters: dict[str, Any] = {}
    if title is not None:
        filters["title"] = title
    if starts_from is not None:
        filters["startsGte"] = parse_date(starts_from, "--from")
    async with open_client(settings) as client:
        found = await first(client.plans.list(filter=filters or None), limit)
    listed = [jsonable(plan) for plan in found]
    print_result(Output(json=settings.json), listed, plans_table(listed))
    return ExitCode.OK


@plans.command("create")
@click.option("--title", required=True, help="1 to 255 characters.")
@click.option("--starts", required=True, metavar="DATE", help="The plan's day (YYYY-MM-DD).")
@click.option(
    "--driver", "drivers", multiple=True, metavar="DRIVER", help="drivers/<id> or <id>; repeatable."
)
@click.option("--depot", metavar="DEPOT", help="depots/<id> or <id> (default: the team's main depot).")
@service
async def plans_create(
    settings: Settings, *, title: str, starts: str, drivers: Sequence[str], depot: str | None
) -> int:
    """Create a plan."""
    day = parse_date(starts, "--starts")
    async with open_client(settings) as client:
        plan = await client.plans.create(title=title, starts=day, drivers=list(drivers), depot=depot)
    note = f"created {plan.id} {plan.title!r} for {plan.starts} with {len(plan.drivers)} driver(s)"
    print_result(Output(json=settings.json), plan, plan.id, note=note)
    return ExitCode.OK


@plans.command("get")
@PLAN
@service
async def plans_get(settings: Settings, *, plan: str) -> int:
    """Show PLAN (plans/<id> or <id>): title, day, depot, drivers, optimization, routes."""
    async with open_client(settings) as client:
        found = await client.plans.get(plan)
    print_result(Output(json=settings.json), found, plan_table(jsonable(found)))
    return ExitCode.OK


def _interactive() -> bool:
    """Whether a question can be asked (standard input and error are terminals)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


@plans.command("delete")
@PLAN
@click.option(
    "--yes", "-y", is_flag=True, help="Do not ask for confirmation (needed when not on a terminal)."
)
@service
async def plans_delete(settings: Settings, *, plan: str, yes: bool) -> int:
    """Delete PLAN and its stops, after asking (prints the deleted plan's id on stdout).

    Without a terminal to ask on, --yes is required (exit code 2 otherwise).
    """
    if not yes:
        if not _interactive():
            raise InputError(f"not deleting {plan}: pass --yes to delete without a terminal to confirm on")
        if not click.confirm(f"Delete {plan} and all its stops?", default=False, err=True):
            raise click.Abort()
    async with open_client(settings) as client:
        # A read first, so that the note names the plan that is gone.
        found = await client.plans.get(plan)
        await client.plans.delete(found.id)
    note = f"deleted {found.id} {found.title!r}"
    print_result(Output(json=settings.json), {"deleted": found.id}, found.id, note=note)
    return ExitCode.OK
