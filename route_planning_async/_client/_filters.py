"""The checked filters of the lists every version shares.

The public API documentation gives the same filters in v0.2b and v1: the
driver list filters on ``active`` only, the operation list on ``done`` and
``type``, the plan list on ``title``, ``startsGte`` and ``startsLte``, and a
plan's or a route's stops on ``externalId`` (each of these two an object that
takes no other key); the unassigned stop list's filter is left open. A version's
namespace hands its ``filter`` through these checks before the query is built,
so a filter the service would refuse fails first.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Final, cast

from route_planning_async._errors import ValidationError
from route_planning_async._pagination import FilterCheck, FilterValue

__all__ = ["DRIVER_NOT_UPDATABLE", "PLAN_FILTERS", "STOP_FILTERS", "driver_filter", "operation_filter"]

DRIVER_NOT_UPDATABLE: Final = {
    "email": "a driver's e-mail cannot be changed (it is set on create and import only)",
    "phone": "a driver's phone cannot be changed (it is set on create and import only)",
    "active": "the API has no call that pauses or resumes a driver",
}
"""Fields a driver update can never carry, and why (public API documentation,
PATCH /drivers/<id>: name, displayName, depots and routeOverrides only)."""

# The operation list's filters and their values (public API documentation,
# GET /operations: ``filter.done`` "true"/"false", ``filter.type`` "plan_optimization").
_OPERATION_FILTERS: Final = ("done", "type")
_OPERATION_TYPES: Final = frozenset({"plan_optimization"})


def _mapping(filter: object) -> Mapping[str, FilterValue]:
    if not isinstance(filter, Mapping):
        raise ValidationError("filter", f"must be a mapping of name to value, got {type(filter).__name__}")
    return cast(Mapping[str, FilterValue], filter)


def driver_filter(filter: Mapping[str, FilterValue] | None) -> dict[str, FilterValue] | None:
    """The driver list's filter, checked: ``active`` True or False, nothing else."""
    if filter is None:
        return None
    for name, value in _mapping(filter).items():
        if name != "active":
            raise ValidationError("filter", f"the driver list filters on active only, got {name!r}")
        if not isinstance(value, bool):
            raise ValidationError("filter[active]", f"must be True or False, got {value!r}")
    return dict(filter)


def operation_filter(filter: Mapping[str, FilterValue] | None) -> dict[str, FilterValue] | None:
    """The operation list's filter, checked: ``done`` a bool, ``type`` a known operation type."""
    if filter is None:
        return None
    checked: dict[str, FilterValue] = {}
    for name, value in _mapping(filter).items():
        if name == "done":
            if not isinstance(value, bool):
                raise ValidationError("filter[done]", f"must be True or False, got {value!r}")
        elif name == "type":
            if value not in _OPERATION_TYPES:
                names = ", ".join(sorted(_OPERATION_TYPES))
                raise ValidationError("filter[type]", f"must be one of {names}, got {value!r}")
        else:
            names = " and ".join(_OPERATION_FILTERS)
            raise ValidationError("filter", f"the operation list filters on {names} only, got {name!r}")
        checked[name] = value
    return checked


_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _text(field: str, value: object) -> None:
    """A text filter takes any value the query can write (its bounds are checked as it is)."""


def _date(field: str, value: object) -> None:
    """A date filter: a ``datetime.date`` or its ``YYYY-MM-DD`` text."""
    if isinstance(value, datetime.date):
        return  # a datetime is refused as the value is written
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            return
    raise ValidationError(field, f"must be a datetime.date or a YYYY-MM-DD date, got {value!r}")


PLAN_FILTERS: Final[Mapping[str, FilterCheck]] = {"title": _text, "startsGte": _date, "startsLte": _date}
"""The plan list's filters (public API documentation, GET /plans: ``filter`` takes no other key)."""
STOP_FILTERS: Final[Mapping[str, FilterCheck]] = {"externalId": _text}
"""The filter of a plan's and a route's stops (GET /plans/{planId}/stops and v1's
GET /routes/{routeId}/stops: ``filter`` takes no other key)."""
