"""The store: the emulator's collections, its id generator, lookups and guards.

:class:`Store` holds the records (``_records.py``) by bare id and answers the
questions every handler asks first: does it exist (404, or 403 for a plan older
than the team may read), does the plan have stop collections (410), is an
optimization running (409), may the plan be written (409). It changes nothing;
``_service/_edits.py`` and the rooms of the plan lifecycle build on it. :func:`import_each`
is how every batch import stores what it can and keeps what it refused.
"""

from __future__ import annotations

import random
import string
import zoneinfo
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import attrs

from route_planning_async.emulator._rules import _problems as problems
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._setup._team import DepotConfig, DriverConfig
from route_planning_async.emulator._store._collections import OrderedStore
from route_planning_async.emulator._store._records import (
    CompactStops,
    OperationRecord,
    PlanRecord,
    RouteRecord,
    StopRecord,
    UnassignedStopRecord,
)

__all__ = ["Imported", "Store", "import_each"]

_ALPHABET = string.ascii_letters + string.digits

T = TypeVar("T")
R = TypeVar("R")


@attrs.frozen
class Imported(Generic[R]):
    """What a batch import made of its items."""

    stored: list[R]
    """The records stored, in item order."""
    refused: list[tuple[int, Problem]]
    """The place of each item refused in the batch, with why."""


def import_each(
    items: Sequence[T], build: Callable[[int, T], R], store: Callable[[R], object] | None = None
) -> Imported[R]:
    """Build a record of each item (``build(place, item)``) and ``store`` it; an item whose
    build raises a :class:`Problem` is refused, and the others go on."""
    stored: list[R] = []
    refused: list[tuple[int, Problem]] = []
    for index, item in enumerate(items):
        try:
            record = build(index, item)
        except Problem as problem:
            refused.append((index, problem))
            continue
        if store is not None:
            store(record)
        stored.append(record)
    return Imported(stored, refused)


class Store:
    """Plans, unassigned stops, routes and operations by bare id, with lookups and guards.

    All methods run on the event loop thread; none of them awaits, so each call is atomic.
    """

    def __init__(self, config: EmulatorConfig) -> None:
        self.config = config
        self.team = config.team
        self.plans: OrderedStore[PlanRecord] = OrderedStore()
        """Plans by bare id."""
        self.unassigned_stops: OrderedStore[UnassignedStopRecord] = OrderedStore()
        """Unassigned stops by bare id."""
        self.routes: dict[str, RouteRecord] = {}
        """Routes by bare id."""
        self.operations: dict[str, OperationRecord] = {}
        """Operations by bare id."""
        self._operation_order: list[str] = []
        """Bare operation ids in the order they started (operations are never removed)."""
        self.stop_events: list[Callable[[str, StopRecord], None]] = []
        """Told of what happens to stops, as ``(event type, stop)`` (the webhook sender listens)."""
        self._rng = random.Random(config.seed)
        self._drivers = {driver.id: driver for driver in self.team.drivers}
        self._depots = {depot.id: depot for depot in self.team.depots}
        """The team's depots by bare id, in creation order (v1 adds, changes and removes them)."""
        self.main_depot_id = self.team.main_depot.id
        """Bare id of the main depot: where a plan that names no depot goes (v1 ``:setMain``)."""
        self._identifiers = {driver.id: driver.identifier for driver in self.team.drivers}
        self._tz = zoneinfo.ZoneInfo(self.team.timezone)

    def emit(self, kind: str, record: StopRecord) -> None:
        """Tell the ``stop_events`` listeners that ``kind`` happened to ``record``."""
        for listener in self.stop_events:
            listener(kind, record)

    # ------------------------------------------------------------ ids and team

    def new_id(self, length: int = 20) -> str:
        """A fresh opaque id from the seeded generator."""
        return "".join(self._rng.choices(_ALPHABET, k=length))

    def any_driver(self, driver_id: str) -> DriverConfig | None:
        """The driver with this bare id, also one removed from the team (the plans being
        optimized and the routes computed for it keep naming it)."""
        return self._drivers.get(driver_id)

    def driver_ids_of(self, identifiers: list[str]) -> list[str]:
        """The bare ids of the drivers a stop body's ``allowedDriversIdentifiers`` lists."""
        by_identifier = {identifier: driver_id for driver_id, identifier in self._identifiers.items()}
        found = []
        for identifier in identifiers:
            driver_id = by_identifier.get(identifier)
            if driver_id is None and identifier.startswith("drivers/"):
                driver_id = identifier.removeprefix("drivers/")
            if driver_id is not None:
                found.append(driver_id)
        return found

    def depot(self, depot_id: str, param: str = "") -> DepotConfig:
        """The team's depot with this bare id, or 404 (naming ``param``, where the id was sent)."""
        depot = self._depots.get(depot_id)
        if depot is None:
            raise Problem.not_found("Depot not found", "depot_not_found", param)
        return depot

    def depots(self) -> list[DepotConfig]:
        """The team's depots, in creation order."""
        return list(self._depots.values())

    def _require_driver(self, driver_id: str, param: str) -> DriverConfig:
        driver = self._drivers.get(driver_id)
        if driver is None:
            raise Problem.not_found("Driver not found", "driver_not_found", param)
        return driver

    def _require_depot(self, depot_id: str | None, param: str) -> str:
        if depot_id is None:
            return self.main_depot_id
        return self.depot(depot_id, param).id

    # ----------------------------------------------------------------- lookups

    def plan(self, plan_id: str) -> PlanRecord:
        """The plan, or 404 (403 when it is older than the team's data access allows)."""
        plan = self.plans.get(plan_id)
        if plan is None:
            raise Problem.not_found("Plan not found", "plan_not_found")
        limit = self.config.inaccessible_before
        if limit is not None and plan.starts < limit:
            code, message = problems.PLAN_INACCESSIBLE
            raise Problem(403, message, code, url=problems.PAYWALL_URL)
        return plan

    def stop(self, plan: PlanRecord, stop_id: str) -> StopRecord:
        """An applied stop of the plan, or 404."""
        record = (
            plan.stops.get(stop_id, plan.id)
            if isinstance(plan.stops, CompactStops)
            else plan.stops.get(stop_id)
        )
        if record is None:
            raise Problem.not_found("Stop not found", "stop_not_found")
        return record

    def stops_of(self, plan_id: str) -> list[StopRecord]:
        """The applied stops of a plan, in creation order (kept stops only)."""
        return list(self.plan(plan_id).stops.values())

    def stop_count(self, plan_id: str) -> int:
        """Applied stops of a plan (also in compact mode)."""
        return len(self.plan(plan_id).stops)

    def unassigned_stop(self, stop_id: str) -> UnassignedStopRecord:
        """The unassigned stop, or 404."""
        record = self.unassigned_stops.get(stop_id)
        if record is None:
            raise Problem.not_found("Unassigned stop not found", "unassigned_stop_not_found")
        return record

    def operation(self, operation_id: str) -> OperationRecord:
        """The operation, or 404."""
        operation = self.operations.get(operation_id)
        if operation is None:
            raise Problem.not_found("The operation was not found.", "operation_not_found")
        return operation

    # ------------------------------------------------------------------ guards

    def has_stop_collections(self, plan: PlanRecord) -> bool:
        """Plans starting before 2023-04-01 have none (contract, Stops in a plan)."""
        return plan.starts >= self.config.stop_collections_since

    def require_stop_collections(self, plan: PlanRecord) -> None:
        """410 for a plan without stop collections."""
        if not self.has_stop_collections(plan):
            raise Problem(
                410,
                f"Plans created before {self.config.stop_collections_since.isoformat()} have no stop "
                "collections; stop operations are unavailable for them",
                "stops_unavailable",
            )

    def require_not_running(self, plan: PlanRecord) -> None:
        """409 ``plan_optimization_in_progress`` while an optimization runs."""
        if plan.running_operation is not None:
            raise Problem.conflict(*problems.PLAN_OPTIMIZATION_IN_PROGRESS)

    def require_writable(self, plan: PlanRecord) -> None:
        """409 ``plan_not_writable`` for a plain write to a plan that is not writable (contract,
        Stops rule 1), an optimizing one included: the official schemas list no other 409 for
        plan PATCH and the stop create, import, PATCH and DELETE."""
        if plan.running_operation is not None or not plan.writable:
            raise Problem.conflict(*problems.PLAN_NOT_WRITABLE)
