"""The ``route-planning`` command: the root group, with every command group added to it."""

from __future__ import annotations

import click

from route_planning_async import __version__
from route_planning_async._cli._commands._demo import demo
from route_planning_async._cli._commands._depots import depots
from route_planning_async._cli._commands._drivers import drivers
from route_planning_async._cli._commands._emulator import emulator_command
from route_planning_async._cli._commands._members import members
from route_planning_async._cli._commands._plans import plans
from route_planning_async._cli._commands._routes import distribute, operations, optimize, routes
from route_planning_async._cli._commands._search import stops_search
from route_planning_async._cli._commands._stops import stops
from route_planning_async._cli._commands._webhooks import webhooks
from route_planning_async._cli._options import EPILOG, Group, shared_options

__all__ = ["cli"]


@click.group(
    cls=Group,
    epilog=EPILOG,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, prog_name="route-planning")
@shared_options
def cli() -> None:
    """Plan delivery routes with the Route Planning Service API (v0.2b, or v1 with --api-version v1)."""


for command in (
    demo,
    plans,
    stops,
    optimize,
    distribute,
    operations,
    webhooks,
    drivers,
    depots,
    members,
    routes,
    emulator_command,
):
    cli.add_command(command)
stops.add_command(stops_search)
