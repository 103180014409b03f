"""The team's drivers as the public API documentation serves them: list, create, change, remove, import.

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
import re
from typing import Any

from route_planning_async.emulator._config import DriverConfig
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._validation import (
    array,
    check_keys,
    choice,
    expect_object,
    integer,
    join,
    number,
    reference,
    string,
    time_of_day,
)
from route_planning_async.emulator._views import Views

__all__ = ["TeamDrivers", "validate_driver_body"]

# Body fields of the public OpenAPI document (additionalProperties: false).
_CREATE_FIELDS = ("name", "displayName", "email", "phone", "depots", "routeOverrides")
_UPDATE_FIELDS = ("name", "displayName", "depots", "routeOverrides")
_OVERRIDE_FIELDS = (
    "startAddress",
    "endAddress",
    "startTime",
    "endTime",
    "maxStops",
    "drivingSpeed",
    "deliverySpeed",
    "vehicleType",
)
_ADDRESS_FIELDS = {
    "addressName": 255,
    "addressLineOne": 255,
    "addressLineTwo": 255,
    "city": 100,
    "state": 100,
    "zip": 100,
    "country": 100,
}
_SPEEDS = ("slower", "average", "faster")
_VEHICLES = ("bike", "scooter", "car", "small_truck", "truck", "electric_cargo_bike")
_EMAIL = re.compile(
    r"(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}"
)


def _address(value: object, path: str, strict: bool) -> dict[str, Any] | None:
    if value is None:
        return None
    obj = expect_object(value, path)
    check_keys(obj, (*_ADDRESS_FIELDS, "latitude", "longitude"), path, strict)
    result: dict[str, Any] = {}
    for key, max_len in _ADDRESS_FIELDS.items():
        if obj.get(key) is not None:
            result[key] = string(obj[key], join(path, key), max_len=max_len)
    for key, bound in (("latitude", 90), ("longitude", 180)):
        if obj.get(key) is not None:
            result[key] = number(obj[key], join(path, key), minimum=-bound, maximum=bound)
    return result


def _overrides(value: object, path: str, strict: bool) -> dict[str, Any] | None:
    if value is None:
        return None
    obj = expect_object(value, path)
    check_keys(obj, _OVERRIDE_FIELDS, path, strict)
    result: dict[str, Any] = {}
    for key in ("startAddress", "endAddress"):
        if key in obj:
            result[key] = _address(obj[key], join(path, key), strict)
    for key in ("startTime", "endTime"):
        if key in obj:
            result[key] = None if obj[key] is None else time_of_day(obj[key], join(path, key))
    if obj.get("maxStops") is not None:
        result["maxStops"] = integer(obj["maxStops"], join(path, "maxStops"), minimum=0, maximum=2**53 - 1)
    for key in ("drivingSpeed", "deliverySpeed"):
        if obj.get(key) is not None:
            result[key] = choice(obj[key], join(path, key), _SPEEDS)
    if obj.get("vehicleType") is not None:
        result["vehicleType"] = choice(obj["vehicleType"], join(path, "vehicleType"), _VEHICLES)
    return result


def validate_driver_body(value: object, path: str = "", *, partial: bool, strict: bool) -> dict[str, Any]:
    """The fields of a driver create (``partial=False``) or PATCH body, checked (400 otherwise)."""
    obj = expect_object(value, path)
    check_keys(obj, _UPDATE_FIELDS if partial else _CREATE_FIELDS, path, strict)
    fields: dict[str, Any] = {}
    for key in ("name", "displayName", "phone"):
        if key in obj and (key != "phone" or not partial):
            fields[key] = None if obj[key] is None else string(obj[key], join(path, key))
    if not partial and obj.get("email") is not None:
        email = string(obj["email"], join(path, "email"))
        if _EMAIL.fullmatch(email) is None:
            raise Problem.invalid(join(path, "email"), f"must be an e-mail address, got {email!r}")
        fields["email"] = email
    if "depots" in obj:
        depots = obj["depots"]
        if depots is not None:
            items = array(depots, join(path, "depots"), min_items=1, max_items=50)
            # "duplicates will be ignored" (public OpenAPI document).
            depots = list(
                dict.fromkeys(
                    reference(item, join(join(path, "depots"), i), "depots") for i, item in enumerate(items)
                )
            )
        fields["depots"] = depots
    if "routeOverrides" in obj:
        fields["routeOverrides"] = _overrides(obj["routeOverrides"], join(path, "routeOverrides"), strict)
    return fields


def _time(value: dict[str, int] | None) -> datetime.time | None:
    return None if value is None else datetime.time(value["hour"], value["minute"])


def _address_json(given: dict[str, Any] | None) -> dict[str, Any] | None:
    """The driverSchema form of a start or end address."""
    if given is None:
        return None
    parts = [
        given.get(key) for key in ("addressLineOne", "addressLineTwo", "city", "state", "zip", "country")
    ]
    return {
        "address": ", ".join(part for part in parts if part),
        "addressLineOne": given.get("addressLineOne") or "",
        "addressLineTwo": given.get("addressLineTwo") or "",
        "latitude": given.get("latitude"),
        "longitude": given.get("longitude"),
        "placeId": None,
        "placeTypes": [],
    }


class TeamDrivers(Views):
    """The team's drivers, changeable; the configured team is where it starts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._removed_drivers: set[str] = set()
        """Bare ids of removed drivers (kept in ``_drivers`` for the routes that name them)."""
        self._driver_addresses: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]] = {}
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

    def driver_json(self, driver: DriverConfig) -> dict[str, Any]:
        """The Driver representation, with the start and end addresses it was given."""
        body = super().driver_json(driver)
        start, end = self._driver_addresses.get(driver.id, (None, None))
        body["routeOverrides"]["startAddress"] = _address_json(start)
        body["routeOverrides"]["endAddress"] = _address_json(end)
        return body

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

    def import_drivers(self, items: list[dict[str, Any]], echoes: list[Any]) -> dict[str, Any]:
        """POST /drivers:import: per-driver failures go to ``failed``, with the driver echoed."""
        success: list[str] = []
        failed: list[dict[str, Any]] = []
        for fields, echo in zip(items, echoes, strict=True):
            try:
                driver = self._new_driver(fields)
            except Problem as problem:
                failed.append({"error": {"message": problem.message}, "driver": echo})
                continue
            success.append(f"drivers/{driver.id}")
        return {"success": success, "failed": failed}
