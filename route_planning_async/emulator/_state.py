"""The emulator's in-memory state and the contract's state transitions.

Handlers in ``_app.py`` parse and validate; everything that changes data happens
here, so tests can drive it directly through ``emu.state``. Bodies are kept in
their JSON form, so reads cost a copy.

Plan lifecycle (contract, States and transitions; the ``optimization`` values are
the public OpenAPI document's)::

    creating ──:optimize──> optimizing ──done──> optimized (writable=false)
       ^                        │failure              │ live calls
       └────────────────────────┘                     v
                                   optimized <── editing ──:reoptimize──> optimizing ──> preview
                                       ^                                                   │
                                       └──────────── :save or :redistribute ───────────────┘
"""

from __future__ import annotations

import copy
import datetime
import random
import string
import zoneinfo
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal

import attrs

from route_planning_async.emulator import _problems as problems
from route_planning_async.emulator._collections import OrderedStore
from route_planning_async.emulator._config import DriverConfig, EmulatorConfig
from route_planning_async.emulator._geo import geocode
from route_planning_async.emulator._optimizer import OptDriver, OptStop, Outcome, optimize
from route_planning_async.emulator._problems import Problem

__all__ = [
    "EmulatorState",
    "OperationRecord",
    "PendingChange",
    "PlanRecord",
    "RouteRecord",
    "StopRecord",
    "UnassignedStopRecord",
]

_ALPHABET = string.ascii_letters + string.digits
_WEB_APP = "https://route-planning.example/app"
_NOT_OPTIMIZED = {
    "reason": "not_optimized",
    "message": "The plan has not been optimized yet",
    "url": None,
}
_ETA_SPREAD = 900


@attrs.define
class StopRecord:
    """A stop of a plan: its JSON body (without ``route``) plus what the optimizer needs."""

    id: str
    """Bare stop id."""
    plan_id: str
    """Bare plan id."""
    body: dict[str, Any]
    """The stop's JSON representation, without ``route`` (rendered from the route record)."""
    latitude: float = 0.0
    """Where the geocoder placed it."""
    longitude: float = 0.0
    """Where the geocoder placed it."""
    allowed_driver_ids: tuple[str, ...] = ()
    """Bare driver ids from ``driver``/``allowedDrivers``."""
    route_id: str | None = None
    """Bare id of its route once optimized."""

    @property
    def external_id(self) -> str | None:
        """``recipient.externalId``."""
        recipient = self.body.get("recipient") or {}
        value = recipient.get("externalId")
        return value if isinstance(value, str) else None


@attrs.define
class UnassignedStopRecord:
    """An unassigned stop: its JSON body."""

    id: str
    """Bare id."""
    body: dict[str, Any]
    """The JSON representation."""
    latitude: float = 0.0
    """Where the geocoder placed it."""
    longitude: float = 0.0
    """Where the geocoder placed it."""

    @property
    def external_id(self) -> str | None:
        """``recipient.externalId``."""
        value = (self.body.get("recipient") or {}).get("externalId")
        return value if isinstance(value, str) else None


@attrs.define
class RouteRecord:
    """A route produced by an optimization."""

    id: str
    """Bare route id."""
    plan_id: str
    """Bare plan id."""
    driver_id: str
    """Bare driver id."""
    title: str
    """Route title: the driver's name."""
    stop_count: int
    """Stops in the route."""
    distributed_at: float | None = None
    """Epoch seconds of distribution, once distributed."""


@attrs.define
class PendingChange:
    """A live change waiting for ``:reoptimize`` and then ``:save`` or ``:redistribute``."""

    kind: Literal["create", "update", "delete"]
    """What the change does."""
    record: StopRecord | None
    """The stop as it will be (create, update); None for delete."""


class CompactStops:
    """The stops of a plan when ``keep_stops=False``: ids, count and externalIds only.

    Ids are ``s<number>``; a stop is served as a skeleton (empty address) and
    updates are answered but not kept.
    """

    def __init__(self) -> None:
        self._alive = bytearray()
        self._external: list[str | None] = []
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def _number(self, stop_id: str) -> int | None:
        if not stop_id.startswith("s") or not stop_id[1:].isdigit():
            return None
        number = int(stop_id[1:])
        return number if number < len(self._alive) and self._alive[number] else None

    def __contains__(self, stop_id: object) -> bool:
        return isinstance(stop_id, str) and self._number(stop_id) is not None

    def new_id(self) -> str:
        """Reserve the id of a stop about to be built (a pending live create keeps its slot)."""
        self._alive.append(0)
        self._external.append(None)
        return f"s{len(self._alive) - 1}"

    def add(self, stop_id: str, record: StopRecord) -> int:
        """Count a stop under its reserved id; only its externalId is kept."""
        number = int(stop_id[1:]) if stop_id[1:].isdigit() else -1
        if not 0 <= number < len(self._alive) or self._alive[number]:
            raise KeyError(stop_id)
        self._alive[number] = 1
        self._external[number] = record.external_id
        self._count += 1
        return number + 1

    def replace(self, stop_id: str, record: StopRecord) -> None:
        """Updates are not kept in compact mode."""

    def remove(self, stop_id: str) -> StopRecord | None:
        """Forget a stop."""
        record = self.get(stop_id)
        number = self._number(stop_id)
        if number is None:
            return None
        self._alive[number] = 0
        self._external[number] = None
        self._count -= 1
        return record

    def get(self, stop_id: str, plan_id: str = "") -> StopRecord | None:
        """A skeleton record, or None."""
        number = self._number(stop_id)
        if number is None:
            return None
        return self._skeleton(plan_id, number)

    def _skeleton(self, plan_id: str, number: int) -> StopRecord:
        fields: dict[str, Any] = {"address": {}}
        external = self._external[number]
        if external is not None:
            fields["recipient"] = {"externalId": external}
        body = stop_body(plan_id, f"s{number}", fields, None, {})
        return StopRecord(f"s{number}", plan_id, body)

    def values(self) -> Iterator[StopRecord]:
        """Nothing: compact stops take no part in optimization."""
        return iter(())

    def page(
        self, after_seq: int, limit: int, external_id: str | None, plan_id: str
    ) -> tuple[list[StopRecord], int, bool]:
        """Like :meth:`OrderedStore.page`; sequence numbers are ``number + 1``."""
        found: list[StopRecord] = []
        last = after_seq
        for number in range(after_seq, len(self._alive)):
            if not self._alive[number]:
                continue
            if external_id is not None and self._external[number] != external_id:
                continue
            if len(found) == limit:
                return found, last, True
            found.append(self._skeleton(plan_id, number))
            last = number + 1
        return found, last, False


@attrs.define
class PlanRecord:
    """A plan and everything inside it."""

    id: str
    """Bare plan id."""
    title: str
    """1 to 255 characters."""
    starts: datetime.date
    """Plan date."""
    depot_id: str
    """Bare depot id."""
    driver_ids: list[str]
    """Bare driver ids, in the order they were given."""
    stops: OrderedStore[StopRecord] | CompactStops
    """The plan's stops."""
    distributed: bool = False
    """True once distributed."""
    writable: bool = True
    """False once optimized (and while optimizing)."""
    optimization: str = "creating"
    """``creating``, ``optimizing``, ``optimized``, ``editing`` or ``preview``."""
    route_ids: list[str] = attrs.field(factory=list)
    """Bare route ids of the current optimization."""
    pending: dict[str, PendingChange] = attrs.field(factory=dict)
    """Live changes by bare stop id, waiting to be applied."""
    running_operation: str | None = None
    """Bare id of the optimization in progress."""
    preview_operation: str | None = None
    """Bare id of the finished re-optimization that ``:save``/``:redistribute`` apply."""
    optimized_before: bool = False
    """Whether an optimization ever succeeded (to restore the state after a failure)."""


@attrs.define
class OperationRecord:
    """A plan optimization operation."""

    id: str
    """Bare operation id."""
    plan_id: str
    """Bare plan id."""
    kind: Literal["optimize", "reoptimize"]
    """Which call started it."""
    started_at: float
    """Epoch seconds."""
    deadline: float
    """Server clock reading at which it is done."""
    outcome: Outcome | None
    """The computed routes (None when it fails)."""
    failure: tuple[str, str] | None = None
    """``(code, message)`` of a failure."""
    num_stops: int = 0
    """Stops considered."""
    done: bool = False
    """Whether it finished."""
    finished_at: float | None = None
    """Epoch seconds once done."""
    pending: dict[str, PendingChange] = attrs.field(factory=dict)
    """The live changes a re-optimization took into account."""


def _default_timing() -> dict[str, Any]:
    return {"earliestAttemptTime": None, "latestAttemptTime": None, "estimatedAttemptDuration": None}


def _default_recipient() -> dict[str, Any]:
    return {"email": None, "externalId": None, "name": None, "phone": None}


def _default_order_info() -> dict[str, Any]:
    return {"products": [], "sellerOrderId": None, "sellerName": None, "sellerWebsite": None}


def _merge(
    base: dict[str, Any] | None, patch: dict[str, Any] | None, default: dict[str, Any]
) -> dict[str, Any]:
    """PATCH an object field: null resets it, present keys replace, absent keys stay."""
    if patch is None:
        return dict(default)
    result = dict(default if base is None else base)
    result.update(patch)
    return result


def stop_body(
    plan_id: str,
    stop_id: str,
    fields: dict[str, Any],
    placed: tuple[float, float, str, str | None] | None,
    identifiers: dict[str, str],
) -> dict[str, Any]:
    """A stop's JSON body (without ``route``) from a validated create body.

    ``placed`` is ``(lat, lng, address text, placeId)`` from the geocoder;
    ``identifiers`` maps bare driver ids to their e-mail or phone.
    """
    address = fields.get("address") or {}
    driver = fields.get("driver")
    allowed = fields.get("allowedDrivers") or ([driver] if driver else [])
    body: dict[str, Any] = {
        "id": f"plans/{plan_id}/stops/{stop_id}",
        "plan": f"plans/{plan_id}",
        "address": {
            "address": placed[2] if placed else "",
            "addressLineOne": address.get("addressLineOne") or "",
            "addressLineTwo": address.get("addressLineTwo") or "",
            "latitude": placed[0] if placed else None,
            "longitude": placed[1] if placed else None,
            "placeId": placed[3] if placed else None,
            "placeTypes": ["street_address"] if placed and placed[3] else [],
        },
        "barcodes": list(fields.get("barcodes") or []),
        "driverIdentifier": identifiers.get(driver) if driver else None,
        "allowedDriversIdentifiers": [identifiers.get(ref, f"drivers/{ref}") for ref in allowed],
        "timing": _merge(None, fields.get("timing") or {}, _default_timing()),
        "estimatedTravelDuration": None,
        "estimatedTravelDistance": None,
        "notes": fields.get("notes"),
        "orderInfo": _merge(None, fields.get("orderInfo") or {}, _default_order_info()),
        "packageCount": fields.get("packageCount"),
        "placeInVehicle": None,
        "type": "stop",
        "recipient": _merge(None, fields.get("recipient") or {}, _default_recipient()),
        "activity": fields.get("activity") or "delivery",
        "packageLabel": None,
        "deliveryInfo": None,
        "proofOfAttemptRequirements": fields.get("proofOfAttemptRequirements") or {"enabled": None},
        "optimizationOrder": fields.get("optimizationOrder") or "default",
        "eta": None,
        "etaNullReason": dict(_NOT_OPTIMIZED),
        "customProperties": fields.get("customProperties"),
        "stopPosition": None,
        "trackingLink": None,
        "webAppLink": f"{_WEB_APP}/plans/{plan_id}/stops/{stop_id}",
        "serviceClientId": fields.get("serviceClientId"),
    }
    return body


def _seconds(time_of_day: dict[str, int] | None) -> int | None:
    if time_of_day is None:
        return None
    return time_of_day["hour"] * 3600 + time_of_day["minute"] * 60


class EmulatorState:
    """Everything the emulator knows: plans, stops, unassigned stops, routes, operations.

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
        self._rng = random.Random(config.seed)
        self._drivers = {driver.id: driver for driver in self.team.drivers}
        self._depots = {depot.id: depot for depot in self.team.depots}
        self._identifiers = {driver.id: driver.identifier for driver in self.team.drivers}
        self._tz = zoneinfo.ZoneInfo(self.team.timezone)

    # ----------------------------------------------------------------- helpers

    def new_id(self, length: int = 20) -> str:
        """A fresh opaque id from the seeded generator."""
        return "".join(self._rng.choices(_ALPHABET, k=length))

    def driver(self, driver_id: str) -> DriverConfig | None:
        """The team's driver with this bare id."""
        return self._drivers.get(driver_id)

    def _require_driver(self, driver_id: str, param: str) -> DriverConfig:
        driver = self._drivers.get(driver_id)
        if driver is None:
            raise Problem.not_found("Driver not found", "driver_not_found", param)
        return driver

    def _require_depot(self, depot_id: str | None, param: str) -> str:
        if depot_id is None:
            return self.team.main_depot.id
        if depot_id not in self._depots:
            raise Problem.not_found("Depot not found", "depot_not_found", param)
        return depot_id

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
        """409 for a plain write to a plan that is not writable (contract, Stops rule 1)."""
        self.require_not_running(plan)
        if not plan.writable:
            raise Problem.conflict(*problems.PLAN_NOT_WRITABLE)

    # ------------------------------------------------------------------- plans

    def create_plan(self, fields: dict[str, Any]) -> PlanRecord:
        """POST /plans with a validated body."""
        drivers = fields.get("drivers", [])
        self._check_plan_drivers(drivers)
        depot_id = self._require_depot(fields.get("depot"), "depot")
        store: OrderedStore[StopRecord] | CompactStops = (
            OrderedStore() if self.config.keep_stops else CompactStops()
        )
        plan = PlanRecord(self.new_id(), fields["title"], fields["starts"], depot_id, list(drivers), store)
        self.plans.add(plan.id, plan)
        return plan

    def _check_plan_drivers(self, drivers: Iterable[str]) -> None:
        for index, driver_id in enumerate(drivers):
            driver = self._require_driver(driver_id, f"drivers[{index}]")
            if not driver.active:
                raise Problem(400, "Driver is not active", "driver_not_active", f"drivers[{index}]")

    def update_plan(self, plan: PlanRecord, fields: dict[str, Any]) -> PlanRecord:
        """PATCH /plans/<id>: only present fields change; ``drivers`` is replaced in full."""
        self.require_writable(plan)
        if "drivers" in fields:
            self._check_plan_drivers(fields["drivers"])
        depot_id = self._require_depot(fields["depot"], "depot") if "depot" in fields else plan.depot_id
        if "title" in fields:
            plan.title = fields["title"]
        if "starts" in fields:
            plan.starts = fields["starts"]
        if "drivers" in fields:
            plan.driver_ids = list(fields["drivers"])
        plan.depot_id = depot_id
        return plan

    def delete_plan(self, plan: PlanRecord) -> None:
        """DELETE /plans/<id>: the plan and its routes, even when not writable (Plans rule 2)."""
        for route_id in plan.route_ids:
            self.routes.pop(route_id, None)
        self.plans.remove(plan.id)

    def plan_json(self, plan: PlanRecord) -> dict[str, Any]:
        """The Plan representation."""
        return {
            "id": f"plans/{plan.id}",
            "title": plan.title,
            "starts": {"day": plan.starts.day, "month": plan.starts.month, "year": plan.starts.year},
            "depot": f"depots/{plan.depot_id}",
            "distributed": plan.distributed,
            "writable": plan.writable,
            "optimization": plan.optimization,
            "drivers": [self.driver_json(self._drivers[d]) for d in plan.driver_ids if d in self._drivers],
            "routes": [f"routes/{route_id}" for route_id in plan.route_ids],
        }

    def driver_json(self, driver: DriverConfig) -> dict[str, Any]:
        """The Driver representation (inside a plan)."""

        def tod(value: datetime.time | None) -> dict[str, int] | None:
            return None if value is None else {"hour": value.hour, "minute": value.minute}

        return {
            "id": f"drivers/{driver.id}",
            "name": driver.name,
            "email": driver.email,
            "phone": driver.phone,
            "displayName": driver.display_name,
            "active": driver.active,
            "depots": [f"depots/{d}" for d in (driver.depots or (self.team.main_depot.id,))],
            "routeOverrides": {
                "startTime": tod(driver.start_time),
                "endTime": tod(driver.end_time),
                "startAddress": None,
                "endAddress": None,
                "maxStops": driver.max_stops,
                "drivingSpeed": driver.driving_speed,
                "deliverySpeed": driver.delivery_speed,
                "vehicleType": driver.vehicle_type,
            },
        }

    # ------------------------------------------------------------------- stops

    def _place(self, address: dict[str, Any], depot_id: str) -> tuple[float, float, str, str | None]:
        depot = self._depots[depot_id]
        placed = geocode(address, (depot.latitude, depot.longitude), self.config.ungeocodable_marker)
        if placed is None:
            raise Problem(422, "The address could not be geocoded", "geocoding_failed", "address")
        return placed.latitude, placed.longitude, placed.address, placed.place_id

    def _check_custom_properties(self, values: dict[str, Any] | None, param: str) -> None:
        if not values:
            return
        known = {prop.id for prop in self.team.custom_stop_properties}
        for key in values:
            if key not in known:
                raise Problem.invalid(
                    f"{param}.{key}" if param else key, "is not the id of a custom stop property of the team"
                )

    def _driver_refs(self, fields: dict[str, Any], prefix: str) -> list[str]:
        driver = fields.get("driver")
        if driver is not None:
            self._require_driver(driver, f"{prefix}driver")
            return [driver]
        allowed = fields.get("allowedDrivers") or []
        for index, driver_id in enumerate(allowed):
            self._require_driver(driver_id, f"{prefix}allowedDrivers[{index}]")
        return list(allowed)

    def build_stop(self, plan: PlanRecord, fields: dict[str, Any], prefix: str = "") -> StopRecord:
        """A new stop record from a validated create body (not stored yet).

        Raises 422 when the address cannot be geocoded and 404 for an unknown driver.
        """
        refs = self._driver_refs(fields, prefix)
        self._check_custom_properties(fields.get("customProperties"), f"{prefix}customProperties")
        placed = self._place(fields["address"], plan.depot_id)
        stop_id = plan.stops.new_id() if isinstance(plan.stops, CompactStops) else self.new_id()
        body = stop_body(plan.id, stop_id, fields, placed, self._identifiers)
        return StopRecord(stop_id, plan.id, body, placed[0], placed[1], tuple(refs))

    def add_stop(self, plan: PlanRecord, record: StopRecord) -> StopRecord:
        """Store a built stop; its drivers join the plan ("on first creation ... also added")."""
        plan.stops.add(record.id, record)
        for driver_id in record.allowed_driver_ids:
            if driver_id not in plan.driver_ids:
                plan.driver_ids.append(driver_id)
        return record

    def create_stop(self, plan: PlanRecord, fields: dict[str, Any]) -> StopRecord:
        """POST /plans/<id>/stops."""
        self.require_stop_collections(plan)
        self.require_writable(plan)
        return self.add_stop(plan, self.build_stop(plan, fields))

    def import_stops(self, plan: PlanRecord, items: list[dict[str, Any]]) -> dict[str, Any]:
        """POST /plans/<id>/stops:import: per-stop failures go to ``failed`` (Stops rule 4)."""
        self.require_stop_collections(plan)
        self.require_writable(plan)
        success: list[str] = []
        failed: list[dict[str, Any]] = []
        for index, fields in enumerate(items):
            try:
                record = self.build_stop(plan, fields, f"[{index}].")
            except Problem as problem:
                failed.append({"error": {"message": problem.message}, "stop": failure_echo(fields)})
                continue
            self.add_stop(plan, record)
            success.append(record.body["id"])
        return {"success": success, "failed": failed}

    def patched_stop(self, record: StopRecord, patch: dict[str, Any]) -> StopRecord:
        """A copy of ``record`` with a validated PATCH body applied (PATCH semantics)."""
        body = copy.deepcopy(record.body)
        allowed = list(record.allowed_driver_ids)
        if "driver" in patch:
            driver = patch["driver"]
            if driver is None:
                body["driverIdentifier"] = None
            else:
                self._require_driver(driver, "driver")
                body["driverIdentifier"] = self._identifiers[driver]
                allowed = [driver]
        if "allowedDrivers" in patch:
            refs = patch["allowedDrivers"] or []
            for index, driver_id in enumerate(refs):
                self._require_driver(driver_id, f"allowedDrivers[{index}]")
            allowed = list(refs)
        body["allowedDriversIdentifiers"] = [self._identifiers.get(ref, f"drivers/{ref}") for ref in allowed]
        if "customProperties" in patch:
            self._check_custom_properties(patch["customProperties"], "customProperties")
            value = patch["customProperties"]
            body["customProperties"] = (
                None if value is None else {**(body.get("customProperties") or {}), **value}
            )
        for key, default in (
            ("recipient", _default_recipient()),
            ("orderInfo", _default_order_info()),
            ("timing", _default_timing()),
        ):
            if key in patch:
                body[key] = _merge(body.get(key), patch[key], default)
        if "proofOfAttemptRequirements" in patch:
            body["proofOfAttemptRequirements"] = patch["proofOfAttemptRequirements"] or {"enabled": None}
        for key, default_value in (("activity", "delivery"), ("optimizationOrder", "default")):
            if key in patch:
                body[key] = patch[key] or default_value
        for key in ("packageCount", "notes"):
            if key in patch:
                body[key] = patch[key]
        if "barcodes" in patch:
            body["barcodes"] = list(patch["barcodes"])
        return attrs.evolve(record, body=body, allowed_driver_ids=tuple(allowed))

    def update_stop(self, plan: PlanRecord, stop_id: str, patch: dict[str, Any]) -> StopRecord:
        """PATCH /plans/<id>/stops/<id>: location and serviceClientId never change (Stops rule 2)."""
        self.require_stop_collections(plan)
        record = self.stop(plan, stop_id)
        self.require_writable(plan)
        updated = self.patched_stop(record, patch)
        plan.stops.replace(stop_id, updated)
        return updated

    def delete_stop(self, plan: PlanRecord, stop_id: str) -> None:
        """DELETE /plans/<id>/stops/<id>."""
        self.require_stop_collections(plan)
        self.stop(plan, stop_id)
        self.require_writable(plan)
        plan.stops.remove(stop_id)

    def stop_json(self, record: StopRecord) -> dict[str, Any]:
        """The Stop representation, with its current Route."""
        body = dict(record.body)
        route = self.routes.get(record.route_id) if record.route_id else None
        body["route"] = None if route is None else self.route_json(route)
        if self.config.openapi_fields:
            body["weight"] = None
            body["paymentOnDelivery"] = None
            body["circuitClientId"] = body.get("serviceClientId")
        return body

    def route_json(self, route: RouteRecord) -> dict[str, Any]:
        """The Route representation."""
        return {
            "id": f"routes/{route.id}",
            "title": route.title,
            "stopCount": route.stop_count,
            "driver": f"drivers/{route.driver_id}",
            "plan": f"plans/{route.plan_id}",
            "state": {
                "completed": False,
                "completedAt": None,
                "distributed": route.distributed_at is not None,
                "distributedAt": route.distributed_at,
                "notifiedRecipients": False,
                "notifiedRecipientsAt": None,
                "started": False,
                "startedAt": None,
            },
        }

    # -------------------------------------------------------------- live calls

    def _require_live(self, plan: PlanRecord) -> None:
        self.require_stop_collections(plan)
        self.require_not_running(plan)

    def _mark_edited(self, plan: PlanRecord) -> None:
        plan.optimization = "editing"
        plan.preview_operation = None

    def live_create(self, plan: PlanRecord, fields: dict[str, Any]) -> tuple[bool, StopRecord]:
        """POST /plans/<id>/stops:liveCreate: pending on an optimized plan, immediate otherwise."""
        self._require_live(plan)
        record = self.build_stop(plan, fields)
        if plan.writable:
            return False, self.add_stop(plan, record)
        plan.pending[record.id] = PendingChange("create", record)
        self._mark_edited(plan)
        return True, record

    def _current(self, plan: PlanRecord, stop_id: str) -> StopRecord:
        change = plan.pending.get(stop_id)
        if change is not None:
            if change.record is None:
                raise Problem.not_found("Stop not found", "stop_not_found")
            return change.record
        return self.stop(plan, stop_id)

    def live_update(self, plan: PlanRecord, stop_id: str, patch: dict[str, Any]) -> tuple[bool, StopRecord]:
        """POST /plans/<id>/stops/<id>:liveUpdate."""
        self._require_live(plan)
        record = self._current(plan, stop_id)
        updated = self.patched_stop(record, patch)
        if plan.writable:
            plan.stops.replace(stop_id, updated)
            return False, updated
        previous = plan.pending.get(stop_id)
        kind: Literal["create", "update"] = "create" if previous and previous.kind == "create" else "update"
        plan.pending[stop_id] = PendingChange(kind, updated)
        self._mark_edited(plan)
        return True, updated

    def live_delete(self, plan: PlanRecord, stop_id: str) -> bool:
        """POST /plans/<id>/stops/<id>:liveDelete."""
        self._require_live(plan)
        self._current(plan, stop_id)
        if plan.writable:
            plan.stops.remove(stop_id)
            return False
        previous = plan.pending.get(stop_id)
        if previous is not None and previous.kind == "create":
            del plan.pending[stop_id]
        else:
            plan.pending[stop_id] = PendingChange("delete", None)
        self._mark_edited(plan)
        return True

    # ------------------------------------------------------------ optimization

    def _opt_drivers(self, plan: PlanRecord) -> list[OptDriver]:
        result = []
        for driver_id in plan.driver_ids:
            driver = self._drivers.get(driver_id)
            if driver is None or not driver.active:
                continue
            start = driver.start_time or self.team.default_start_time
            result.append(
                OptDriver(f"drivers/{driver.id}", start.hour * 3600 + start.minute * 60, driver.max_stops)
            )
        return result

    def _opt_stop(self, record: StopRecord, pinned: str | None) -> OptStop:
        timing = record.body.get("timing") or {}
        duration = timing.get("estimatedAttemptDuration") or self.team.default_attempt_duration
        return OptStop(
            record.body["id"],
            record.latitude,
            record.longitude,
            record.body.get("optimizationOrder") or "default",
            _seconds(timing.get("earliestAttemptTime")),
            _seconds(timing.get("latestAttemptTime")),
            float(duration),
            frozenset(f"drivers/{ref}" for ref in record.allowed_driver_ids),
            pinned,
        )

    def _run_optimizer(
        self, plan: PlanRecord, records: list[StopRecord], pinned: dict[str, str]
    ) -> tuple[Outcome | None, tuple[str, str] | None]:
        drivers = self._opt_drivers(plan)
        if not drivers:
            return None, problems.NO_DRIVERS_AVAILABLE
        depot = self._depots[plan.depot_id]
        stops = [self._opt_stop(record, pinned.get(record.id)) for record in records]
        outcome = optimize(
            (depot.latitude, depot.longitude), drivers, stops, self.config.driving_speed_kmh / 3.6
        )
        return outcome, None

    def _new_operation(
        self,
        plan: PlanRecord,
        kind: Literal["optimize", "reoptimize"],
        now: float,
        outcome: Outcome | None,
        failure: tuple[str, str] | None,
        num_stops: int,
        pending: dict[str, PendingChange],
    ) -> OperationRecord:
        if num_stops <= self.config.instant_optimization_max_stops:
            delay = 0.0
        else:
            delay = self.config.scaled(
                self.config.optimization_delay + self.config.optimization_delay_per_stop * num_stops
            )
        operation = OperationRecord(
            self.new_id(),
            plan.id,
            kind,
            self.config.wall_clock(),
            now + delay,
            outcome,
            failure,
            num_stops,
            pending=pending,
        )
        self.operations[operation.id] = operation
        self._operation_order.append(operation.id)
        plan.running_operation = operation.id
        plan.optimization = "optimizing"
        plan.writable = False
        if delay == 0.0:
            self._finish(operation)
        return operation

    def start_optimization(self, plan: PlanRecord, now: float) -> OperationRecord:
        """POST /plans/<id>:optimize."""
        self.require_not_running(plan)
        if not plan.writable:
            raise Problem.conflict(*problems.PLAN_ALREADY_OPTIMIZED)
        records = list(plan.stops.values())
        outcome, failure = self._run_optimizer(plan, records, {})
        return self._new_operation(plan, "optimize", now, outcome, failure, len(plan.stops), {})

    def start_reoptimization(self, plan: PlanRecord, optimization_type: str, now: float) -> OperationRecord:
        """POST /plans/<id>:reoptimize: optimizes the plan as the pending live changes leave it."""
        self.require_not_running(plan)
        if not plan.optimized_before or plan.writable:
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)
        if not plan.pending:
            raise Problem.conflict(*problems.PLAN_ALREADY_OPTIMIZED)
        if plan.distributed and optimization_type != "reorder_changed_stops":
            raise Problem.conflict(*problems.PLAN_OPTIMIZATION_NOT_SUPPORTED)
        records = self._with_pending(plan)
        pinned: dict[str, str] = {}
        if optimization_type != "redistribute_stops_between_drivers":
            for record in records:
                change = plan.pending.get(record.id)
                if record.route_id is None or record.route_id not in self.routes:
                    continue
                if optimization_type == "reorder_changed_stops" and change is not None:
                    continue
                pinned[record.id] = f"drivers/{self.routes[record.route_id].driver_id}"
        outcome, failure = self._run_optimizer(plan, records, pinned)
        return self._new_operation(
            plan, "reoptimize", now, outcome, failure, len(records), dict(plan.pending)
        )

    def _with_pending(self, plan: PlanRecord) -> list[StopRecord]:
        records = []
        for record in plan.stops.values():
            change = plan.pending.get(record.id)
            if change is None:
                records.append(record)
            elif change.record is not None:
                records.append(change.record)
        records.extend(
            change.record
            for change in plan.pending.values()
            if change.kind == "create" and change.record is not None
        )
        return records

    def settle(self, now: float) -> None:
        """Finish every operation whose deadline has passed."""
        for operation in list(self.operations.values()):
            if not operation.done and operation.deadline <= now:
                self._finish(operation)

    def _finish(self, operation: OperationRecord) -> None:
        operation.done = True
        operation.finished_at = self.config.wall_clock()
        plan = self.plans.get(operation.plan_id)
        if plan is None or plan.running_operation != operation.id:
            return
        plan.running_operation = None
        if operation.failure is not None or operation.outcome is None:
            if plan.optimized_before:
                plan.optimization = "editing" if plan.pending else "optimized"
            else:
                plan.optimization = "creating"
                plan.writable = True
            return
        if operation.kind == "optimize":
            self._apply_outcome(plan, operation.outcome)
            plan.optimization = "optimized"
            plan.optimized_before = True
        elif plan.pending == operation.pending:
            plan.optimization = "preview"
            plan.preview_operation = operation.id
        else:
            plan.optimization = "editing"

    def _apply_outcome(self, plan: PlanRecord, outcome: Outcome) -> None:
        for route_id in plan.route_ids:
            self.routes.pop(route_id, None)
        plan.route_ids = []
        placed: dict[str, tuple[str, Any]] = {}
        midnight = datetime.datetime.combine(plan.starts, datetime.time(0, 0), self._tz).timestamp()
        for driver_ref, visits in outcome.routes.items():
            driver_id = driver_ref.split("/", 1)[1]
            driver = self._drivers[driver_id]
            route = RouteRecord(self.new_id(), plan.id, driver_id, driver.name or driver_id, len(visits))
            if plan.distributed:
                route.distributed_at = self.config.wall_clock()
            self.routes[route.id] = route
            plan.route_ids.append(route.id)
            for visit in visits:
                placed[visit.stop_id] = (route.id, visit)
        for record in list(plan.stops.values()):
            body = record.body
            hit = placed.get(body["id"])
            if hit is None:
                record.route_id = None
                body.update(
                    stopPosition=None,
                    estimatedTravelDuration=None,
                    estimatedTravelDistance=None,
                    eta=None,
                    etaNullReason=dict(_NOT_OPTIMIZED),
                )
                continue
            route_id, visit = hit
            arrival = round(midnight + visit.arrival_seconds)
            record.route_id = route_id
            body.update(
                stopPosition=visit.position,
                estimatedTravelDuration=visit.travel_seconds,
                estimatedTravelDistance=visit.travel_meters,
                eta={
                    "estimatedArrivalAt": arrival,
                    "estimatedEarliestArrivalAt": arrival - _ETA_SPREAD,
                    "estimatedLatestArrivalAt": arrival + _ETA_SPREAD,
                },
                etaNullReason=None,
            )
        plan.writable = False

    def _apply_preview(self, plan: PlanRecord) -> None:
        operation = self.operations.get(plan.preview_operation or "")
        if operation is None or operation.outcome is None:
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)
        for stop_id, change in operation.pending.items():
            if change.kind == "delete":
                plan.stops.remove(stop_id)
            elif change.kind == "create" and change.record is not None:
                self.add_stop(plan, change.record)
            elif change.record is not None:
                plan.stops.replace(stop_id, change.record)
        plan.pending.clear()
        plan.preview_operation = None
        self._apply_outcome(plan, operation.outcome)
        plan.optimization = "optimized"

    def distribute(self, plan: PlanRecord) -> PlanRecord:
        """POST /plans/<id>:distribute: only an optimized plan, only once."""
        self.require_not_running(plan)
        if plan.distributed:
            raise Problem.conflict(*problems.PLAN_ALREADY_DISTRIBUTED)
        if not plan.optimized_before:
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)
        self._distribute_routes(plan)
        return plan

    def _distribute_routes(self, plan: PlanRecord) -> None:
        now = self.config.wall_clock()
        plan.distributed = True
        for route_id in plan.route_ids:
            route = self.routes.get(route_id)
            if route is not None and route.distributed_at is None:
                route.distributed_at = now

    def _require_preview(self, plan: PlanRecord) -> None:
        self.require_not_running(plan)
        if plan.preview_operation is None:
            # Re-optimization is required after any live change (Stops rule 5).
            if plan.distributed and not plan.pending:
                raise Problem.conflict(*problems.PLAN_ALREADY_DISTRIBUTED)
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)

    def redistribute(self, plan: PlanRecord) -> PlanRecord:
        """POST /plans/<id>:redistribute: apply the re-optimized live changes and distribute."""
        self._require_preview(plan)
        self._apply_preview(plan)
        self._distribute_routes(plan)
        return plan

    def save(self, plan: PlanRecord) -> None:
        """POST /plans/<id>:save: apply the re-optimized live changes without distributing."""
        self._require_preview(plan)
        self._apply_preview(plan)

    def operation(self, operation_id: str) -> OperationRecord:
        """The operation, or 404."""
        operation = self.operations.get(operation_id)
        if operation is None:
            raise Problem.not_found("The operation was not found.", "operation_not_found")
        return operation

    def operations_page(
        self, before: int, limit: int, keep: Callable[[OperationRecord], bool]
    ) -> tuple[list[OperationRecord], int, bool]:
        """GET /operations: newest first, up to ``limit`` kept operations that started
        before sequence number ``before`` (0: from the newest).

        Returns ``(operations, sequence number of the last one served, more left)``; an
        operation's sequence number is its 1-based place in start order. Operations that
        start after the first page was served are not on the later pages, so walking
        the pages never skips or repeats one.
        """
        found: list[OperationRecord] = []
        start = len(self._operation_order) if before == 0 else before - 1
        last = before
        for index in range(start - 1, -1, -1):
            operation = self.operations[self._operation_order[index]]
            if not keep(operation):
                continue
            if len(found) == limit:
                return found, last, True
            found.append(operation)
            last = index + 1
        return found, last, False

    def operation_json(self, operation: OperationRecord) -> dict[str, Any]:
        """The operation representation; ``result`` is absent until done (contract, the service)."""
        body: dict[str, Any] = {
            "id": f"operations/{operation.id}",
            "type": "plan_optimization",
            "done": operation.done,
            "metadata": {
                "canceled": False,
                "startedAt": operation.started_at,
                "finishedAt": operation.finished_at,
                "startedBy": "api",
                "targetPlanId": f"plans/{operation.plan_id}",
            },
        }
        if operation.done:
            if operation.failure is not None:
                code, message = operation.failure
                body["result"] = {"code": code, "message": message}
            elif operation.outcome is not None:
                outcome = operation.outcome
                compact = outcome.optimized_count == 0 and not outcome.skipped
                body["result"] = {
                    "numOptimizedStops": operation.num_stops if compact else outcome.optimized_count,
                    "skippedStops": [
                        {"id": stop_id, "reason": reason} for stop_id, reason in outcome.skipped
                    ],
                }
        return body

    # -------------------------------------------------------- unassigned stops

    def unassigned_stop(self, stop_id: str) -> UnassignedStopRecord:
        """The unassigned stop, or 404."""
        record = self.unassigned_stops.get(stop_id)
        if record is None:
            raise Problem.not_found("Unassigned stop not found", "unassigned_stop_not_found")
        return record

    def build_unassigned(
        self, fields: dict[str, Any], depot_id: str | None, prefix: str = ""
    ) -> UnassignedStopRecord:
        """A new unassigned stop from a validated body (not stored yet)."""
        depot = self._require_depot(depot_id, "depot")
        refs = self._driver_refs(fields, prefix)
        self._check_custom_properties(fields.get("customProperties"), f"{prefix}customProperties")
        placed = self._place(fields["address"], depot)
        stop_id = self.new_id()
        plan_body = stop_body("-", stop_id, fields, placed, self._identifiers)
        body = {key: plan_body[key] for key in _UNASSIGNED_KEYS}
        body["id"] = f"unassignedStops/{stop_id}"
        body["depot"] = f"depots/{depot}"
        body["allowedDriversIdentifiers"] = [self._identifiers.get(ref, f"drivers/{ref}") for ref in refs]
        return UnassignedStopRecord(stop_id, body, placed[0], placed[1])

    def create_unassigned(self, fields: dict[str, Any]) -> UnassignedStopRecord:
        """POST /unassignedStops."""
        record = self.build_unassigned(fields, fields.get("depot"))
        self.unassigned_stops.add(record.id, record)
        return record

    def import_unassigned(self, items: list[dict[str, Any]], depot_id: str | None) -> dict[str, Any]:
        """POST /unassignedStops:import; failures name the ``unassignedStop`` (public OpenAPI document)."""
        self._require_depot(depot_id, "depot")
        success: list[str] = []
        failed: list[dict[str, Any]] = []
        for index, fields in enumerate(items):
            try:
                record = self.build_unassigned(fields, depot_id, f"unassignedStops[{index}].")
            except Problem as problem:
                failed.append({"error": {"message": problem.message}, "unassignedStop": failure_echo(fields)})
                continue
            self.unassigned_stops.add(record.id, record)
            success.append(record.body["id"])
        return {"success": success, "failed": failed}

    def update_unassigned(self, record: UnassignedStopRecord, patch: dict[str, Any]) -> UnassignedStopRecord:
        """PATCH /unassignedStops/<id>."""
        depot = self._require_depot(patch["depot"], "depot") if "depot" in patch else None
        as_stop = StopRecord(record.id, "-", record.body, record.latitude, record.longitude, ())
        allowed = [
            driver.id
            for driver in self.team.drivers
            if driver.identifier in record.body["allowedDriversIdentifiers"]
        ]
        as_stop.allowed_driver_ids = tuple(allowed)
        patched = self.patched_stop(as_stop, patch)
        body = {key: patched.body[key] for key in record.body}
        if depot is not None:
            body["depot"] = f"depots/{depot}"
        record.body = body
        return record

    def unassigned_json(self, record: UnassignedStopRecord) -> dict[str, Any]:
        """The UnassignedStop representation."""
        body = dict(record.body)
        if self.config.openapi_fields:
            body["weight"] = None
            body["paymentOnDelivery"] = None
            body["trackingLink"] = None
            body["circuitClientId"] = body.get("serviceClientId")
        return body

    # -------------------------------------------------------- reference lists

    def depot_json(self, depot_id: str) -> dict[str, Any]:
        """The Depot representation: only ``id`` and ``name`` (contract, Depot)."""
        depot = self._depots.get(depot_id)
        if depot is None:
            raise Problem.not_found("Depot not found", "depot_not_found")
        return {"id": f"depots/{depot.id}", "name": depot.name}

    def custom_stop_properties_json(self) -> list[dict[str, Any]]:
        """The custom stop property definitions."""
        return [
            {
                "id": prop.id,
                "name": prop.name,
                "visibleToDrivers": prop.visible_to_drivers,
                "visibleToRecipients": prop.visible_to_recipients,
            }
            for prop in self.team.custom_stop_properties
        ]

    # ---------------------------------------------------------------- summary

    def stop_count(self, plan_id: str) -> int:
        """Applied stops of a plan (also in compact mode)."""
        return len(self.plan(plan_id).stops)


_UNASSIGNED_KEYS = (
    "id",
    "address",
    "barcodes",
    "allowedDriversIdentifiers",
    "timing",
    "notes",
    "orderInfo",
    "packageCount",
    "recipient",
    "activity",
    "proofOfAttemptRequirements",
    "optimizationOrder",
    "customProperties",
    "serviceClientId",
)


def failure_echo(fields: dict[str, Any]) -> dict[str, Any]:
    """The ``stop`` part of an import failure: the sent address (every key) and recipient."""
    address = fields.get("address") or {}
    keys = ("addressName", "addressLineOne", "addressLineTwo", "city", "state", "zip", "country")
    echo_address: dict[str, Any] = {key: address.get(key) for key in keys}
    echo_address["latitude"] = address.get("latitude")
    echo_address["longitude"] = address.get("longitude")
    recipient = fields.get("recipient")
    echo_recipient = None if recipient is None else {**_default_recipient(), **recipient}
    return {"address": echo_address, "recipient": echo_recipient}
