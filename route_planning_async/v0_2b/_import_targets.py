"""Where the bulk importer sends v0.2b's batches: the shared import targets
(``route_planning_async/_import_targets.py``) with v0.2b's inputs.

Each ``*_target`` function makes the target of one ``import_many`` call of a
v0.2b namespace; what a target does (keys, echoes, lookups) is the shared room's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from route_planning_async._import_targets import (
    DRIVER_ROWS,
    PLAN_STOP_ROWS,
    UNASSIGNED_STOP_ROWS,
    DriversTarget,
    LiveImport,
    LiveImportOptions,
    LivePlanStopsTarget,
    PlanStopsTarget,
    UnassignedStopsTarget,
    driver_key,
    stop_key,
)
from route_planning_async.v0_2b._inputs import StopInput, UnassignedStopInput, check_no_depot

if TYPE_CHECKING:
    from route_planning_async.v0_2b.resources.plans import Plans
    from route_planning_async.v0_2b.resources.stops import Stops
    from route_planning_async.v0_2b.resources.unassigned_stops import UnassignedStops

__all__ = [
    "DRIVER_ROWS",
    "PLAN_STOP_ROWS",
    "UNASSIGNED_STOP_ROWS",
    "DriversTarget",
    "LiveImport",
    "LiveImportOptions",
    "driver_key",
    "live_plan_stops_target",
    "plan_stops_target",
    "stop_key",
    "unassigned_stops_target",
]


def plan_stops_target(stops: Stops, plan_id: str) -> PlanStopsTarget:
    """The stops of one plan (``stops.import_many``); ``plan_id`` is already checked."""
    return PlanStopsTarget(stops, plan_id, StopInput)


def live_plan_stops_target(stops: Stops, plans: Plans, plan_id: str) -> LivePlanStopsTarget:
    """The stops of a live plan (``stops.live_import_many``); ``plan_id`` is already checked."""
    return LivePlanStopsTarget(stops, plans, plan_id, StopInput)


def unassigned_stops_target(unassigned_stops: UnassignedStops, depot: str | None) -> UnassignedStopsTarget:
    """The team's unassigned stops, with ``depot`` (``depots/<id>``) for every batch."""
    return UnassignedStopsTarget(unassigned_stops, depot, UnassignedStopInput, check_no_depot)
