"""The request rules that belong to no single field: batch sizes, the depot of an
unassigned stop import, and the body of ``:reoptimize``; the same in every version
(a version's own batches, like v1's depots and members, use :func:`check_items`)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, Final, Protocol

from route_planning_async._checks._validators import UnsetType, a_or_an, fail
from route_planning_async._inputs._drivers import DriverInput
from route_planning_async._inputs._limits import MAX_DRIVER_IMPORT_BATCH, MAX_IMPORT_BATCH

__all__ = [
    "ReoptimizationType",
    "check_batch",
    "check_driver_batch",
    "check_items",
    "check_no_depot",
    "reoptimization_body",
]


class ReoptimizationType(enum.StrEnum):
    """``optimizationType`` values of ``:reoptimize`` (public API documentation).

    Attributes:
        REORDER_CHANGED_STOPS: Place only the stops changed by live calls (the service's default).
        REORDER_ALL_STOPS: Re-order every stop of each route.
        REDISTRIBUTE_STOPS_BETWEEN_DRIVERS: Move stops between drivers as well.
    """

    REORDER_CHANGED_STOPS = "reorder_changed_stops"
    """Place only the stops changed by live calls (the service's default)."""
    REORDER_ALL_STOPS = "reorder_all_stops"
    """Re-order every stop of each route."""
    REDISTRIBUTE_STOPS_BETWEEN_DRIVERS = "redistribute_stops_between_drivers"
    """Move stops between drivers as well."""


_REOPTIMIZATION_TYPES: Final = frozenset(ReoptimizationType)


def check_items(items: object, cls: type, field: str, most: int, noun: str) -> list[Any]:
    """``items`` as a list of 1 to ``most`` instances of ``cls`` (``noun`` names them in errors)."""
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
        fail(field, f"must be a sequence of {cls.__name__}, got {type(items).__name__}")
    listed = list(items)
    if not 1 <= len(listed) <= most:
        fail(field, f"must have 1 to {most} {noun}, got {len(listed)}")
    for index, item in enumerate(listed):
        if not isinstance(item, cls):
            fail(f"{field}[{index}]", f"must be {a_or_an(cls.__name__)}, got {type(item).__name__}")
    return listed


def check_batch(stops: object, cls: type, field: str = "stops") -> list[Any]:
    """The items of a batch import as a list, after the contract's batch rules:
    1 to 100 entries (Limits: batch import size), each an instance of ``cls``."""
    return check_items(stops, cls, field, MAX_IMPORT_BATCH, "stops")


def check_driver_batch(drivers: object, field: str = "drivers") -> list[DriverInput]:
    """The drivers of a batch import as a list: 1 to 50, each a :class:`DriverInput`
    (public API documentation, POST /drivers:import)."""
    return check_items(drivers, DriverInput, field, MAX_DRIVER_IMPORT_BATCH, "drivers")


class _WithDepot(Protocol):
    @property
    def depot(self) -> str | UnsetType | None: ...


def check_no_depot(item: _WithDepot, field: str) -> None:
    """Refuse an unassigned stop of a batch or bulk import that names its own depot.

    The depot of an unassigned stop import is given once for the whole request
    (public API documentation, POST /unassignedStops:import); ``field`` is the
    stop's path (``stops[3]``).
    """
    if not isinstance(item.depot, UnsetType):
        fail(
            f"{field}.depot", "must not be set on stops of a batch import; pass depot= to the import instead"
        )


def reoptimization_body(optimization_type: str | None) -> dict[str, str]:
    """The body of ``:reoptimize``: ``{}`` for the service's default
    (``reorder_changed_stops``), else ``{"optimizationType": value}`` for a
    :class:`ReoptimizationType` value."""
    if optimization_type is None:
        return {}
    if optimization_type not in _REOPTIMIZATION_TYPES:
        names = ", ".join(sorted(_REOPTIMIZATION_TYPES))
        fail("optimization_type", f"must be one of {names}, got {optimization_type!r}")
    return {"optimizationType": str(optimization_type)}
