"""The bodies of a v1 plan create and update: the fields every version shares
(``route_planning_async/_inputs/_plans.py``) and v1's route overrides, a driver's
route overrides plus the optimization settings."""

from __future__ import annotations

from typing import ClassVar, Final

import attrs

from route_planning_async._checks._validators import UNSET, UnsetType, instance_of, one_of
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs import PlanChanges, PlanFields, RouteOverridesInput

__all__ = [
    "OPTIMIZATION_OBJECTIVES",
    "OPTIMIZATION_SUB_OBJECTIVES",
    "OptimizationSettingsInput",
    "PlanInput",
    "PlanRouteOverridesInput",
    "PlanUpdate",
]

OPTIMIZATION_OBJECTIVES: Final = frozenset({"distribute_services"})
"""The values of ``optimizationSettings.objective``."""
OPTIMIZATION_SUB_OBJECTIVES: Final = frozenset({"equalize_workload", "equalize_time", "maximize_efficiency"})
"""The values of ``optimizationSettings.subObjective``."""


@fields_documented
@attrs.frozen(kw_only=True)
class OptimizationSettingsInput:
    """How the routes of a plan are optimized.

    Keyword Args:
        objective (str | None): The primary objective: ``distribute_services``.
        sub_objective (str | None): The secondary objective: ``equalize_workload``, ``equalize_time`` or
            ``maximize_efficiency``.
    """

    _PATH: ClassVar[str] = "route_overrides.optimization_settings."

    objective: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(OPTIMIZATION_OBJECTIVES),
        metadata=described("The primary objective: ``distribute_services``."),
    )
    sub_objective: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(OPTIMIZATION_SUB_OBJECTIVES),
        metadata=described(
            "The secondary objective: ``equalize_workload``, ``equalize_time`` or ``maximize_efficiency``."
        ),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class PlanRouteOverridesInput(RouteOverridesInput):
    """Settings that override the route defaults for every route of a plan.

    Keyword Args:
        start_address (AddressInput | None): Where every route of the driver starts.
        end_address (AddressInput | None): Where every route of the driver ends.
        start_time (datetime.time | None): When the driver's work day starts (hour and minute only).
        end_time (datetime.time | None): When the driver's work day ends (hour and minute only).
        max_stops (int | None): Most stops allocated to the driver, at least 0.
        driving_speed (str | None): ``slower``, ``average`` (the service's default) or ``faster`` than
            the team's average.
        delivery_speed (str | None): ``slower``, ``average`` (the service's default) or ``faster`` than
            the team's average.
        vehicle_type (str | None): ``bike``, ``scooter``, ``car``, ``small_truck``, ``truck`` or
            ``electric_cargo_bike``.
        optimization_settings (OptimizationSettingsInput | None): How the plan's routes are optimized.
    """

    optimization_settings: OptimizationSettingsInput | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(OptimizationSettingsInput),
        metadata=described("How the plan's routes are optimized."),
    )


_ROUTE_OVERRIDES: Final = attrs.field(
    default=UNSET,
    validator=instance_of(PlanRouteOverridesInput),
    metadata=described("Settings that override the route defaults for the plan's routes."),
)


@fields_documented
@attrs.frozen(kw_only=True)
class PlanInput(PlanFields):
    """The body of a plan create (``POST /plans``). Its drivers should share the plan's depot: the
    create is not checked (the v1 document gives it no 412), a later update is (412).

    Keyword Args:
        title (str): 1 to 255 characters.
        starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
        drivers (list[str]): ``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50.
        depot (str | None): ``depots/<id>``; None or not given means the team's main depot.
        route_overrides (PlanRouteOverridesInput | None): Settings that override the route defaults for
            the plan's routes.
    """

    route_overrides: PlanRouteOverridesInput | UnsetType | None = _ROUTE_OVERRIDES


@fields_documented
@attrs.frozen(kw_only=True)
class PlanUpdate(PlanChanges):
    """The body of a plan PATCH: only the fields given are changed. Same rules as
    :class:`PlanInput` (a driver that does not share the plan's depot: 412).

    Keyword Args:
        title (str): 1 to 255 characters.
        starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
        drivers (list[str]): ``drivers/<id>`` (bare ids accepted); replaces the plan's whole list.
        depot (str | None): ``depots/<id>``; None means the team's main depot.
        route_overrides (PlanRouteOverridesInput | None): Settings that override the route defaults for
            the plan's routes.
    """

    route_overrides: PlanRouteOverridesInput | UnsetType | None = _ROUTE_OVERRIDES
