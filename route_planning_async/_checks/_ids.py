"""Resource ids: parsed and checked before they reach a URL or a body.

The contract's General conventions: path parameters ``planId``, ``stopId`` and
``unassignedStopId`` (and driver and depot ids) are 1 to 50 letters, digits,
hyphens and underscores. Checking them here means nothing like ``../``, ``?``
or ``#`` can ever reach a URL.

Two shapes come out of here: bare ids for URL paths (:func:`plan_id`,
:func:`depot_id`, ... accept ``"plans/<id>"`` or ``"<id>"``; :func:`stop_ref`
splits ``"plans/<planId>/stops/<stopId>"``), and full references for request
bodies (:func:`driver_ref`, :func:`depot_ref` give ``"drivers/<id>"``,
``"depots/<id>"``). A bad id raises :class:`~route_planning_async.ValidationError`
naming the argument.
"""

from __future__ import annotations

import re
from typing import NewType

from route_planning_async._errors import ValidationError

__all__ = [
    "DepotId",
    "DriverId",
    "MemberId",
    "OperationId",
    "PlanId",
    "RouteId",
    "StopId",
    "UnassignedStopId",
    "bare_id",
    "custom_stop_property_id",
    "depot_id",
    "depot_ref",
    "driver_id",
    "driver_ref",
    "member_id",
    "operation_id",
    "plan_id",
    "route_id",
    "stop_ref",
    "unassigned_stop_id",
]

# The serialized ids the models carry: plain strings at run time, told apart by
# the type checker, so that ``client.get(plan.id)`` is typed as a Plan.
PlanId = NewType("PlanId", str)
"""A plan's serialized id, ``plans/<id>``."""
StopId = NewType("StopId", str)
"""A stop's serialized id, ``plans/<planId>/stops/<stopId>``."""
UnassignedStopId = NewType("UnassignedStopId", str)
"""An unassigned stop's serialized id, ``unassignedStops/<id>``."""
OperationId = NewType("OperationId", str)
"""An operation's serialized id, ``operations/<id>``."""
DepotId = NewType("DepotId", str)
"""A depot's serialized id, ``depots/<id>``."""
RouteId = NewType("RouteId", str)
"""A route's serialized id, ``routes/<id>``."""
DriverId = NewType("DriverId", str)
"""A driver's serialized id, ``drivers/<id>``."""
MemberId = NewType("MemberId", str)
"""A team member's serialized id, ``members/<id>`` (v1)."""

_ID = re.compile(r"[A-Za-z0-9_-]{1,50}")
_RULE = "must be 1 to 50 letters, digits, '-' or '_'"


def bare_id(value: object, field: str) -> str:
    """``value`` itself, when it is a valid bare id."""
    if not isinstance(value, str) or _ID.fullmatch(value) is None:
        raise ValidationError(field, f"{_RULE}, got {value!r}")
    return value


def _collection_id(value: object, prefix: str, field: str) -> str:
    """The bare id from ``"<prefix><id>"`` or ``"<id>"`` (``prefix`` ends with ``/``)."""
    if isinstance(value, str):
        bare = value[len(prefix) :] if value.startswith(prefix) else value
        if _ID.fullmatch(bare) is not None:
            return bare
    raise ValidationError(field, f"{_RULE}, got {value!r}")


def plan_id(value: object, field: str = "plan_id") -> str:
    """The bare plan id from ``"plans/<id>"`` or ``"<id>"``."""
    return _collection_id(value, "plans/", field)


def operation_id(value: object, field: str = "operation_id") -> str:
    """The bare operation id from ``"operations/<id>"`` or ``"<id>"``."""
    return _collection_id(value, "operations/", field)


def unassigned_stop_id(value: object, field: str = "unassigned_stop_id") -> str:
    """The bare id from ``"unassignedStops/<id>"`` or ``"<id>"``."""
    return _collection_id(value, "unassignedStops/", field)


def depot_id(value: object, field: str = "depot_id") -> str:
    """The bare depot id from ``"depots/<id>"`` or ``"<id>"``."""
    return _collection_id(value, "depots/", field)


def stop_ref(value: object, field: str = "stop_id") -> tuple[str, str]:
    """``(plan_id, stop_id)`` from the serialized ``"plans/<planId>/stops/<stopId>"``."""
    parts = value.split("/") if isinstance(value, str) else []
    if len(parts) != 4 or parts[0] != "plans" or parts[2] != "stops":
        raise ValidationError(
            field, f"must be a serialized stop id 'plans/<planId>/stops/<stopId>', got {value!r}"
        )
    return bare_id(parts[1], field), bare_id(parts[3], field)


def _reference(value: object, collection: str, field: str) -> str:
    """A full ``"<collection>/<id>"`` reference; a bare id gets the prefix added."""
    return f"{collection}/{_collection_id(value, collection + '/', field)}"


def driver_ref(value: object, field: str = "driver") -> str:
    """``"drivers/<id>"`` from ``"drivers/<id>"`` or ``"<id>"``."""
    return _reference(value, "drivers", field)


def depot_ref(value: object, field: str = "depot") -> str:
    """``"depots/<id>"`` from ``"depots/<id>"`` or ``"<id>"``."""
    return _reference(value, "depots", field)


def driver_id(value: object, field: str = "driver_id") -> str:
    """The bare driver id from ``"drivers/<id>"`` or ``"<id>"``."""
    return _collection_id(value, "drivers/", field)


def member_id(value: object, field: str = "member_id") -> str:
    """The bare member id from ``"members/<id>"`` or ``"<id>"`` (v1)."""
    return _collection_id(value, "members/", field)


def route_id(value: object, field: str = "route_id") -> str:
    """The bare route id from ``"routes/<id>"`` or ``"<id>"``."""
    return _collection_id(value, "routes/", field)


def custom_stop_property_id(value: object, field: str = "custom_stop_property_id") -> str:
    """A custom stop property id (a UUID), checked before it reaches a URL.

    The public API documentation only bounds it to 50 characters; the same
    safe set as every other id is required here, so nothing like ``../`` or
    ``?`` can reach the path. A ``customStopProperties/`` prefix is dropped.
    """
    prefix = "customStopProperties/"
    bare = value[len(prefix) :] if isinstance(value, str) and value.startswith(prefix) else value
    if not isinstance(bare, str) or _ID.fullmatch(bare) is None:
        raise ValidationError(field, f"{_RULE}, got {value!r}")
    return bare
