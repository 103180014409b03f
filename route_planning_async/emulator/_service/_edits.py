"""Plain writes: creating, changing and deleting plans, stops and unassigned stops.

:class:`Edits` takes bodies a version's handlers already validated (e.g.
``v0_2b/_requests.py``), checks what only the store knows (drivers, depots, custom
properties, the geocoder's verdict) and stores the records. A plain write needs a
writable plan; the optimizations that make a plan unwritable are in
``_optimizations.py``, the live changes it takes then in ``_live.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from route_planning_async.emulator._routing._geo import geocode
from route_planning_async.emulator._rules._problems import TEAM_PROFILE_URL, Problem
from route_planning_async.emulator._service._services import checked_service
from route_planning_async.emulator._store._bodies import (
    UNASSIGNED_KEYS,
    patched_body,
    patched_extra,
    split_extra,
    stop_body,
)
from route_planning_async.emulator._store._collections import OrderedStore
from route_planning_async.emulator._store._records import (
    CompactStops,
    PlanRecord,
    StopRecord,
    UnassignedStopRecord,
)
from route_planning_async.emulator._store._store import Imported, Store, import_each

__all__ = ["Edits"]


class Edits(Store):
    """The store plus its plain writes."""

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

    def _check_weight(self, weight: dict[str, Any] | None, param: str) -> None:
        """A weight needs the team's vehicle capacity on, and its unit (official schema)."""
        if weight is None:
            return
        unit = self.team.capacity_unit
        if unit is None:
            raise Problem(
                403,
                "Vehicle capacity is disabled for this team, so stops cannot have a weight",
                "vehicle_capacity_disabled",
                param,
                url=TEAM_PROFILE_URL,
            )
        if weight["unit"] != unit:
            raise Problem.invalid(f"{param}.unit", f"must be the team's capacity unit {unit!r}")

    def editable_stop(self, plan: PlanRecord, stop_id: str) -> StopRecord:
        """The stop, unless it is a route's ``start`` or ``end`` stop: those belong to the
        optimization (422 ``stop_not_editable``, official schema)."""
        record = self.stop(plan, stop_id)
        if record.terminal:
            raise Problem(422, "Stop cannot be edited", "stop_not_editable")
        return record

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
        fields, extra = split_extra(fields)
        refs = self._driver_refs(fields, prefix)
        self._check_custom_properties(fields.get("customProperties"), f"{prefix}customProperties")
        self._check_weight(fields.get("weight"), f"{prefix}weight")
        placed = self._place(fields["address"], plan.depot_id)
        if "serviceInfo" in extra:
            extra["serviceInfo"] = checked_service(
                self.team,
                extra["serviceInfo"],
                activity=fields.get("activity") or "delivery",
                depot_id=plan.depot_id,
                location=(placed[0], placed[1]),
                now=self.config.wall_clock(),
                prefix=prefix,
            )
        stop_id = plan.stops.new_id() if isinstance(plan.stops, CompactStops) else self.new_id()
        body = stop_body(plan.id, stop_id, fields, placed, self._identifiers)
        return StopRecord(
            stop_id,
            plan.id,
            body,
            placed[0],
            placed[1],
            tuple(refs),
            extra=extra,
            created_at=self.config.wall_clock(),
        )

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

    def import_stops(self, plan: PlanRecord, items: list[dict[str, Any]]) -> Imported[StopRecord]:
        """POST /plans/<id>/stops:import: a stop that fails is refused, the others go on (Stops rule 4)."""
        self.require_stop_collections(plan)
        self.require_writable(plan)
        return import_each(
            items,
            lambda index, fields: self.build_stop(plan, fields, f"[{index}]."),
            lambda record: self.add_stop(plan, record),
        )

    def patched_stop(self, record: StopRecord, patch: dict[str, Any]) -> StopRecord:
        """A copy of ``record`` with a validated PATCH body applied (PATCH semantics)."""
        patch, extra = split_extra(patch)
        allowed = list(record.allowed_driver_ids)
        if "driver" in patch and patch["driver"] is not None:
            self._require_driver(patch["driver"], "driver")
            allowed = [patch["driver"]]
        if "allowedDrivers" in patch:
            refs = patch["allowedDrivers"] or []
            for index, driver_id in enumerate(refs):
                self._require_driver(driver_id, f"allowedDrivers[{index}]")
            allowed = list(refs)
        if "customProperties" in patch:
            self._check_custom_properties(patch["customProperties"], "customProperties")
        self._check_weight(patch.get("weight"), "weight")
        body = patched_body(record.body, patch, allowed, self._identifiers)
        kept = patched_extra(record.extra, extra)
        if "serviceInfo" in extra or "activity" in patch:
            sent = extra.get("serviceInfo")
            plan = self.plans.get(record.plan_id)
            kept["serviceInfo"] = checked_service(
                self.team,
                kept.get("serviceInfo"),
                activity=body["activity"],
                depot_id=plan.depot_id if plan is not None else self.main_depot_id,
                location=(record.latitude, record.longitude),
                now=self.config.wall_clock(),
                cleared_start=isinstance(sent, dict)
                and "slaStartsAt" in sent
                and sent["slaStartsAt"] is None,
            )
        return attrs.evolve(record, body=body, allowed_driver_ids=tuple(allowed), extra=kept)

    def update_stop(self, plan: PlanRecord, stop_id: str, patch: dict[str, Any]) -> StopRecord:
        """PATCH /plans/<id>/stops/<id>: location and circuitClientId never change (Stops rule 2)."""
        self.require_stop_collections(plan)
        record = self.editable_stop(plan, stop_id)
        self.require_writable(plan)
        updated = self.patched_stop(record, patch)
        plan.stops.replace(stop_id, updated)
        return updated

    def delete_stop(self, plan: PlanRecord, stop_id: str) -> None:
        """DELETE /plans/<id>/stops/<id>."""
        self.require_stop_collections(plan)
        self.editable_stop(plan, stop_id)
        self.require_writable(plan)
        plan.stops.remove(stop_id)

    # -------------------------------------------------------- unassigned stops

    def build_unassigned(
        self, fields: dict[str, Any], depot_id: str | None, prefix: str = ""
    ) -> UnassignedStopRecord:
        """A new unassigned stop from a validated body (not stored yet)."""
        fields, extra = split_extra(fields)
        depot = self._require_depot(depot_id, "depot")
        refs = self._driver_refs(fields, prefix)
        self._check_custom_properties(fields.get("customProperties"), f"{prefix}customProperties")
        self._check_weight(fields.get("weight"), f"{prefix}weight")
        placed = self._place(fields["address"], depot)
        stop_id = self.new_id()
        plan_body = stop_body("-", stop_id, fields, placed, self._identifiers)
        body = {key: plan_body[key] for key in UNASSIGNED_KEYS}
        body["id"] = f"unassignedStops/{stop_id}"
        body["depot"] = f"depots/{depot}"
        body["allowedDriversIdentifiers"] = [self._identifiers.get(ref, f"drivers/{ref}") for ref in refs]
        return UnassignedStopRecord(
            stop_id, body, placed[0], placed[1], extra=extra, created_at=self.config.wall_clock()
        )

    def create_unassigned(self, fields: dict[str, Any]) -> UnassignedStopRecord:
        """POST /unassignedStops."""
        record = self.build_unassigned(fields, fields.get("depot"))
        self.unassigned_stops.add(record.id, record)
        return record

    def import_unassigned(
        self, items: list[dict[str, Any]], depot_id: str | None
    ) -> Imported[UnassignedStopRecord]:
        """POST /unassignedStops:import: an unassigned stop that fails is refused, the others go on."""
        self._require_depot(depot_id, "depot")
        return import_each(
            items,
            lambda index, fields: self.build_unassigned(fields, depot_id, f"unassignedStops[{index}]."),
            lambda record: self.unassigned_stops.add(record.id, record),
        )

    def update_unassigned(self, record: UnassignedStopRecord, patch: dict[str, Any]) -> UnassignedStopRecord:
        """PATCH /unassignedStops/<id>."""
        depot = self._require_depot(patch["depot"], "depot") if "depot" in patch else None
        as_stop = StopRecord(
            record.id, "-", record.body, record.latitude, record.longitude, (), extra=record.extra
        )
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
        record.extra = patched.extra
        return record
