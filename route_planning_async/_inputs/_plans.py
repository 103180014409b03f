"""The fields of a plan create and update that every version shares (contract, POST and
PATCH /plans): title, day, drivers and depot. v0.2b's bodies are these; v1 adds
its route overrides."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Final

import attrs

from route_planning_async._checks._validators import (
    UNSET,
    UnsetType,
    date_in_years,
    depot_reference,
    driver_list,
    text,
)
from route_planning_async._docs import described
from route_planning_async._inputs._limits import MAX_PLAN_DRIVERS, PLAN_YEAR_RANGE

__all__ = ["PlanChanges", "PlanFields"]

_PLAN_DATE: Final = date_in_years(*PLAN_YEAR_RANGE)
_TITLE: Final = described("1 to 255 characters.")
_STARTS: Final = described("The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.")


def _plan_drivers(value: Iterable[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    # The service ignores duplicates (contract, POST /plans), so they are
    # dropped before the "at most 50" rule is applied.
    return driver_list("drivers", value, max_items=MAX_PLAN_DRIVERS, dedupe=True)


@attrs.frozen(kw_only=True)
class PlanFields:
    """The fields of a plan create (contract, POST /plans)."""

    title: str = attrs.field(validator=text(1, 255, nullable=False), metadata=_TITLE)
    starts: datetime.date = attrs.field(validator=_PLAN_DATE, metadata=_STARTS)
    drivers: list[str] | UnsetType = attrs.field(
        default=UNSET,
        converter=_plan_drivers,
        metadata=described("``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50."),
    )
    depot: str | UnsetType | None = attrs.field(
        default=UNSET,
        converter=depot_reference,
        metadata=described("``depots/<id>``; None or not given means the team's main depot."),
    )


@attrs.frozen(kw_only=True)
class PlanChanges:
    """The fields of a plan PATCH: only the fields given are changed. Same rules as a create."""

    title: str | UnsetType = attrs.field(
        default=UNSET, validator=text(1, 255, nullable=False), metadata=_TITLE
    )
    starts: datetime.date | UnsetType = attrs.field(default=UNSET, validator=_PLAN_DATE, metadata=_STARTS)
    drivers: list[str] | UnsetType = attrs.field(
        default=UNSET,
        converter=_plan_drivers,
        metadata=described("``drivers/<id>`` (bare ids accepted); replaces the plan's whole list."),
    )
    depot: str | UnsetType | None = attrs.field(
        default=UNSET,
        converter=depot_reference,
        metadata=described("``depots/<id>``; None means the team's main depot."),
    )
