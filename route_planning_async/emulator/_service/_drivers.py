"""The team's drivers, changeable as the public API documentation allows: create, change, remove, import.

The contract has no driver endpoints; the public OpenAPI document has ``GET/POST
/drivers``, ``GET/PATCH/DELETE /drivers/<id>`` and ``POST /drivers:import`` (1 to
50 drivers). The team's configured drivers (``EmulatorConfig.team``) are the
starting fleet. A removed driver disappears from the team and from the plans
that are not being optimized; routes already computed for it keep naming it.
A driver's e-mail and phone are its identity in the team: a create or an import
entry whose e-mail or phone a team driver already has is refused (422, or a
``failed`` entry of the import), which is what makes a repeated import harmless.
"""

from __future__ import annotations

import datetime
from typing import Any

from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._setup._team import DriverConfig
from route_planning_async.emulator._store._store import Imported, Store, import_each

__all__ = ["TeamDrivers"]

DriverAddress = dict[str, Any] | None
"""A driver's start or end address, as its route overrides gave it (None when not given)."""


def _time(value: dict[str, int] | None) -> datetime.time | None:
    return None if value is None else datetime.time(value["hour"], value["minute"])


class TeamDrivers(Store):
    """The team's drivers, changeable; the configured team is where it starts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._removed_drivers: set[str] = set()
        """Bare ids of removed drivers (kept in ``_drivers`` for the routes that name them)."""
        self._driver_addresses: dict[str, tuple[DriverAddress, DriverAddress]] = {}
        """Start and end addresses of the drivers whose routeOverrides set them."""
        self._driver_order: dict[str, int] = {driver_id: n for n, driver_id in enumerate(self._drivers)}
        """Sequence number of each driver, for stable pages."""
        self._driver_keys: dict[str, str] | None = None
        """Bare driver id by e-mail and by phone (built at the first create or import)."""

    # Lookups (the store's, with removed drivers hidden) ------------------------

    def driver(self, driver_id: str) -> DriverConfig | None:
        """The team's driver with this bare id (None once removed)."""
        if driver_id in self._removed_drivers:
            return None
        return self._drivers.get(driver_id)

    def _require_driver(self, driver_id: str, param: str) -> DriverConfig:
        driver = self.driver(driver_id)
        if driver is None:
            raise Problem.not_found("Driver not found", "driver_not_found", param)
        return driver

    def team_driver(self, driver_id: str) -> DriverConfig:
        """The driver, or 404 ``Driver not found``."""
        return self._require_driver(driver_id, "")

    def driver_addresses(self, driver_id: str) -> tuple[DriverAddress, DriverAddress]:
        """The start and end addresses the driver's route overrides gave it."""
        return self._driver_addresses.get(driver_id, (None, None))

    def drivers_page(
        self, after: int, limit: int, active: bool | None
    ) -> tuple[list[DriverConfig], int, bool]:
        """Up to ``limit`` team drivers after sequence number ``after`` (1-based), in creation order."""
        found = [
            driver
            for driver_id, driver in self._drivers.items()
            if driver_id not in self._removed_drivers
            and self._driver_order[driver_id] + 1 > after
            and (active is None or driver.active == active)
        ]
        page = found[:limit]
        last = self._driver_order[page[-1].id] + 1 if page else after
        return page, last, len(found) > limit

    # Changes ---------------------------------------------------------------------

    def _holder_of(self, key: str | None) -> str | None:
        """The team driver whose e-mail or phone is ``key``."""
        if not key:
            return None
        if self._driver_keys is None:
            self._driver_keys = {}
            for driver_id, driver in self._drivers.items():
                if driver_id not in self._removed_drivers:
                    self._index_driver(driver)
        return self._driver_keys.get(key)

    def _index_driver(self, driver: DriverConfig) -> None:
        assert self._driver_keys is not None
        for key in (driver.email, driver.phone):
            if key:
                self._driver_keys[key] = driver.id

    def _built_driver(
        self, driver_id: str, fields: dict[str, Any], base: DriverConfig | None
    ) -> DriverConfig:
        for ref in fields.get("depots") or ():
            self._require_depot(ref, "depots")
        overrides = fields.get("routeOverrides")
        previous = base or DriverConfig(driver_id)
        values: dict[str, Any] = {
            "name": fields.get("name", previous.name),
            "email": previous.email if base else fields.get("email"),
            "phone": previous.phone if base else fields.get("phone"),
            "display_name": fields.get("displayName", previous.display_name),
            "active": previous.active,
            "depots": tuple(fields["depots"] or ()) if "depots" in fields else previous.depots,
        }
        if overrides is not None or "routeOverrides" in fields:
            # The whole routeOverrides object is replaced (PATCH semantics: arrays and
            # objects that are present are replaced in full).
            given = overrides or {}
            values.update(
                start_time=_time(given.get("startTime")),
                end_time=_time(given.get("endTime")),
                max_stops=given.get("maxStops"),
                driving_speed=given.get("drivingSpeed") or "average",
                delivery_speed=given.get("deliverySpeed") or "average",
                vehicle_type=given.get("vehicleType"),
            )
            self._driver_addresses[driver_id] = (given.get("startAddress"), given.get("endAddress"))
        else:
            values.update(
                start_time=previous.start_time,
                end_time=previous.end_time,
                max_stops=previous.max_stops,
                driving_speed=previous.driving_speed,
                delivery_speed=previous.delivery_speed,
                vehicle_type=previous.vehicle_type,
            )
        return DriverConfig(driver_id, **values)

    def _store_driver(self, driver: DriverConfig) -> DriverConfig:
        if driver.id not in self._driver_order:
            self._driver_order[driver.id] = len(self._driver_order)
        self._drivers[driver.id] = driver
        self._identifiers[driver.id] = driver.identifier
        if self._driver_keys is not None:
            self._index_driver(driver)
        return driver

    def _new_driver(self, fields: dict[str, Any]) -> DriverConfig:
        """A new team driver, or a Problem (422 when its e-mail or phone is taken)."""
        for key in ("email", "phone"):
            if self._holder_of(fields.get(key)) is not None:
                raise Problem(
                    422, f"A driver with this {key} is already in the team", "driver_already_exists", key
                )
        driver_id = self.new_id()
        driver = self._built_driver(driver_id, fields, None)
        return self._store_driver(driver)

    def create_driver(self, fields: dict[str, Any]) -> DriverConfig:
        """POST /drivers."""
        return self._new_driver(fields)

    def update_driver(self, driver_id: str, fields: dict[str, Any]) -> DriverConfig:
        """PATCH /drivers/<id>: only the fields given change."""
        driver = self.team_driver(driver_id)
        return self._store_driver(self._built_driver(driver_id, fields, driver))

    def remove_driver(self, driver_id: str) -> None:
        """DELETE /drivers/<id>: gone from the team and from every plan not being optimized."""
        driver = self.team_driver(driver_id)
        self._removed_drivers.add(driver_id)
        if self._driver_keys is not None:
            for key in (driver.email, driver.phone):
                if key and self._driver_keys.get(key) == driver_id:
                    del self._driver_keys[key]
        for plan in self.plans.values():
            if plan.running_operation is None and driver_id in plan.driver_ids:
                plan.driver_ids.remove(driver_id)

    def import_drivers(self, items: list[dict[str, Any]]) -> Imported[DriverConfig]:
        """POST /drivers:import: a driver that fails is refused, the others go on."""
        return import_each(items, lambda _, fields: self._new_driver(fields))
