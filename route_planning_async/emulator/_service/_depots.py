"""The team's depots, changeable as v1 allows: create, change, remove, make main, import.

The configured team (``EmulatorConfig.team``) gives the first depots, the first
one main. A depot made through v1 is placed by the deterministic geocoder at its
``routeOverrides.startAddress`` (near the main depot), and keeps the
``routeOverrides`` it was given, which v1 serves back. A depot cannot be removed
while it is the main depot, or a plan, an unassigned stop or a driver names it
(400 ``Depot cannot be deleted``). Only the address and name of a depot matter to
routes: their ``start`` and ``end`` stops are at the depot's address.
"""

from __future__ import annotations

from typing import Any

from route_planning_async.emulator._routing._geo import geocode
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._setup._team import DepotConfig
from route_planning_async.emulator._store._store import Imported, Store, import_each

__all__ = ["TeamDepots"]


class TeamDepots(Store):
    """The team's depots, changeable; the configured team is where it starts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.depot_overrides: dict[str, dict[str, Any]] = {}
        """The ``routeOverrides`` each depot made or changed through v1 was given, as validated."""

    def _placed_depot(self, depot_id: str, name: str, address: dict[str, Any], param: str) -> DepotConfig:
        main = self._depots[self.main_depot_id]
        placed = geocode(address, (main.latitude, main.longitude), self.config.ungeocodable_marker)
        if placed is None:
            raise Problem(422, "The address could not be geocoded", "geocoding_failed", param)
        return DepotConfig(
            depot_id,
            name,
            placed.latitude,
            placed.longitude,
            address_line_one=address.get("addressLineOne") or address.get("addressName") or "",
            address_line_two=address.get("addressLineTwo") or "",
            city=address.get("city") or "",
            state=address.get("state") or "",
            zip=address.get("zip") or "",
            country=address.get("country") or "",
            place_id=placed.place_id,
        )

    def _new_depot(self, fields: dict[str, Any], prefix: str = "") -> DepotConfig:
        overrides = fields["routeOverrides"]
        depot_id = self.new_id()
        depot = self._placed_depot(
            depot_id, fields["name"], overrides["startAddress"], f"{prefix}routeOverrides.startAddress"
        )
        self._depots[depot_id] = depot
        self.depot_overrides[depot_id] = overrides
        return depot

    def create_depot(self, fields: dict[str, Any]) -> DepotConfig:
        """POST /depots with a validated body."""
        return self._new_depot(fields)

    def import_depots(self, items: list[dict[str, Any]]) -> Imported[DepotConfig]:
        """POST /depots:import: a depot that fails is refused, the others go on."""
        return import_each(items, lambda index, fields: self._new_depot(fields, f"[{index}]."))

    def _current_overrides(self, depot: DepotConfig) -> dict[str, Any]:
        """The ``routeOverrides`` a depot has: those v1 gave it, else (a configured depot) its
        address and the team's default start time, the rest null."""
        given = self.depot_overrides.get(depot.id)
        if given is not None:
            return dict(given)
        start = self.config.team.default_start_time
        address = {
            "addressLineOne": depot.address_line_one or None,
            "addressLineTwo": depot.address_line_two or None,
            "city": depot.city or None,
            "state": depot.state or None,
            "zip": depot.zip or None,
            "country": depot.country or None,
            "latitude": depot.latitude,
            "longitude": depot.longitude,
        }
        return {
            "startAddress": {key: value for key, value in address.items() if value is not None},
            "startTime": {"hour": start.hour, "minute": start.minute},
            "endAddress": None,
            "endTime": None,
            "defaultTimeAtStop": None,
            "maxStops": None,
            "vehicleType": None,
            "roadSide": None,
            "roundTrip": None,
        }

    def update_depot(self, depot_id: str, fields: dict[str, Any]) -> DepotConfig:
        """PATCH /depots/<id>: a new name, and the ``routeOverrides`` keys sent replace the
        depot's (the PATCH schema requires none; a new ``startAddress`` moves the depot)."""
        depot = self.depot(depot_id)
        name = fields.get("name", depot.name)
        sent = fields.get("routeOverrides")
        if sent is not None:
            overrides = {**self._current_overrides(depot), **sent}
            if "startAddress" in sent:
                depot = self._placed_depot(
                    depot_id, name, overrides["startAddress"], "routeOverrides.startAddress"
                )
            self.depot_overrides[depot_id] = overrides
        if name != depot.name:
            depot = DepotConfig(
                depot.id,
                name,
                depot.latitude,
                depot.longitude,
                address_line_one=depot.address_line_one,
                address_line_two=depot.address_line_two,
                city=depot.city,
                state=depot.state,
                zip=depot.zip,
                country=depot.country,
                place_id=depot.place_id,
            )
        self._depots[depot_id] = depot
        return depot

    def depot_in_use(self, depot_id: str) -> bool:
        """Whether the depot is the main one, or a plan, an unassigned stop or a driver names it."""
        if depot_id == self.main_depot_id:
            return True
        if any(plan.depot_id == depot_id for plan in self.plans.values()):
            return True
        ref = f"depots/{depot_id}"
        if any(record.body.get("depot") == ref for record in self.unassigned_stops.values()):
            return True
        return any(depot_id in (driver.depots or ()) for driver in self._drivers.values())

    def delete_depot(self, depot_id: str) -> None:
        """DELETE /depots/<id>: only a depot nothing uses (else 400 ``Depot cannot be deleted``)."""
        self.depot(depot_id)
        if self.depot_in_use(depot_id):
            raise Problem(400, "Depot cannot be deleted", None)
        del self._depots[depot_id]
        self.depot_overrides.pop(depot_id, None)

    def set_main_depot(self, depot_id: str) -> None:
        """POST /depots/<id>:setMain: plans that name no depot go to it from now on."""
        self.main_depot_id = self.depot(depot_id).id

    def driver_depots(self, driver_id: str) -> tuple[str, ...]:
        """The bare ids of the depots a driver works at (the main depot when it names none)."""
        driver = self.any_driver(driver_id)
        depots = driver.depots if driver is not None else ()
        return tuple(depots) if depots else (self.main_depot_id,)

    def drivers_off_depot(self, depot_id: str, driver_ids: list[str]) -> list[int]:
        """The places in ``driver_ids`` of the drivers who do not work at ``depot_id`` (v1's
        rule: a plan's drivers share its depot)."""
        return [
            index
            for index, driver_id in enumerate(driver_ids)
            if self.any_driver(driver_id) is not None and depot_id not in self.driver_depots(driver_id)
        ]
