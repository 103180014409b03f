"""The handlers every version shares: one per endpoint, from a checked call to a reply.

The pipeline in ``_server/_app.py`` has already matched the route, checked the path ids,
applied the rate limits and decoded the body; a handler validates the body
(``_rules/_requests.py``), asks :class:`EmulatorState` for the change
or the records and answers JSON (``_views.py``). Lists page through ``_rules/_pages.py``.
The handlers of ``plans.optimize`` and ``plans.reoptimize`` also have the operation
finished on time (:class:`OperationTimers`).

A version subclasses :class:`BaseHandlers` with its route table, its views and its
stop body rules (``v0_2b/_handlers.py``), and adds or replaces the handlers of the
endpoints it answers otherwise (``v1/_handlers.py``).
"""

from __future__ import annotations

import functools
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from route_planning_async.emulator._rules._pages import Pages
from route_planning_async.emulator._rules._problems import PAYWALL_URL, ROUTE_INACCESSIBLE, Problem
from route_planning_async.emulator._rules._requests import (
    DEPOTS_LIST,
    DRIVERS_LIST,
    OPERATIONS_LIST,
    PLANS_LIST,
    REOPTIMIZATION_TYPES,
    STOPS_LIST,
    UNASSIGNED_LIST,
    reference,
    validate_driver_body,
    validate_plan_body,
    validate_reoptimize_body,
)
from route_planning_async.emulator._rules._routes import RouteSpec
from route_planning_async.emulator._rules._stop_requests import BodyKind, StopBodies
from route_planning_async.emulator._rules._validation import array_of, check_keys, expect_object, required
from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._setup._team import DriverConfig
from route_planning_async.emulator._store._records import (
    CompactStops,
    OperationRecord,
    PlanRecord,
    StopRecord,
    UnassignedStopRecord,
)
from route_planning_async.emulator._store._store import Imported
from route_planning_async.emulator._wire._api import NO_BODY, Call, Handler, OperationTimers, Reply
from route_planning_async.emulator._wire._views import BaseViews, failure_echo

__all__ = ["BaseHandlers"]

R = TypeVar("R")


class BaseHandlers:
    """One method per endpoint of a version's routes, named after it (``plans.create``: ``plans_create``).

    Args:
        config: The configuration in force.
        state: The records the handlers read and change.
        timers: Finish optimizations on time.
        routes: The version's route table (every route needs a method of its name).
        views: The version's JSON answers.
        stop_bodies: The fields of the version's stop bodies.
    """

    def __init__(
        self,
        config: EmulatorConfig,
        state: EmulatorState,
        timers: OperationTimers,
        routes: tuple[RouteSpec, ...],
        views: BaseViews,
        stop_bodies: StopBodies,
    ) -> None:
        self.config = config
        self.state = state
        self.views = views
        self._stop_rules = stop_bodies
        self._timers = timers
        self._pages = Pages(config, lambda: self.state.new_id(24))
        self.table: Mapping[str, Handler] = {
            route.name: getattr(self, route.name.replace(".", "_")) for route in routes
        }
        """The handler of each endpoint, by endpoint name."""

    def stop_body(self, value: object, kind: BodyKind, path: str = "") -> dict[str, Any]:
        """The version's stop (or unassigned stop) body of ``kind``, validated and normalized."""
        return self._stop_rules.validate(
            value, kind, path, strict=self.config.strict, strict_inputs=self.config.strict_inputs
        )

    # ------------------------------------------------------ lookups and bodies

    def _plan(self, call: Call) -> PlanRecord:
        return self.state.plan(call.params["plan"])

    def _stops_plan(self, call: Call) -> PlanRecord:
        plan = self._plan(call)
        self.state.require_stop_collections(plan)
        return plan

    def _stop_bodies(self, value: object, kind: BodyKind, path: str) -> list[dict[str, Any]]:
        """The 1 to 100 stop bodies of a batch import."""

        def check(item: object, where: str) -> dict[str, Any]:
            return self.stop_body(item, kind, where)

        return array_of(value, path, check, min_items=1, max_items=100)

    def _import_json(
        self, imported: Imported[Any], echo_as: str, fields: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The answer of a stop import: the ids stored, and each refused stop echoed."""
        return self.views.import_json(imported, _body_id, echo_as, lambda index: failure_echo(fields[index]))

    # ---------------------------------------------------------------- plans

    def _plan_body(self, call: Call, *, partial: bool) -> dict[str, Any]:
        return validate_plan_body(
            call.json,
            partial=partial,
            earliest=self.config.earliest_plan_date,
            latest=self.config.latest_plan_date,
            strict=self.config.strict,
        )

    def plans_create(self, call: Call) -> Reply:
        fields = self._plan_body(call, partial=False)
        return Reply(200, self.views.plan_json(self.state.create_plan(fields)))

    def plans_list(self, call: Call) -> Reply:
        def keep(plan: PlanRecord, filters: dict[str, Any]) -> bool:
            title = filters.get("title")
            gte = filters.get("startsGte")
            lte = filters.get("startsLte")
            return (
                (title is None or title.lower() in plan.title.lower())
                and (gte is None or plan.starts >= gte)
                and (lte is None or plan.starts <= lte)
            )

        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            plans, last, more = self.state.plans.page(after, limit, lambda plan: keep(plan, filters))
            return [self.views.plan_json(plan) for plan in plans], last, more

        items, token = self._pages.paginate(call.route.name, call.query, "", PLANS_LIST, fetch)
        return Reply(200, {"plans": items, "nextPageToken": token})

    def plans_get(self, call: Call) -> Reply:
        return Reply(200, self.views.plan_json(self._plan(call)))

    def plans_update(self, call: Call) -> Reply:
        fields = self._plan_body(call, partial=True)
        return Reply(200, self.views.plan_json(self.state.update_plan(self._plan(call), fields)))

    def plans_delete(self, call: Call) -> Reply:
        self.state.delete_plan(self._plan(call))
        return Reply(204)

    def plans_optimize(self, call: Call) -> Reply:
        plan = self._plan(call)
        operation = self.state.start_optimization(plan, call.now)
        self._timers.finish_on_time(plan)
        return Reply(200, self.views.operation_json(operation))

    def plans_distribute(self, call: Call) -> Reply:
        return Reply(200, self.views.plan_json(self.state.distribute(self._plan(call))))

    def plans_reoptimize(self, call: Call) -> Reply:
        optimization_type = (
            REOPTIMIZATION_TYPES[0]
            if call.json is NO_BODY
            else validate_reoptimize_body(call.json, strict=self.config.strict)
        )
        plan = self._plan(call)
        operation = self.state.start_reoptimization(plan, optimization_type, call.now)
        self._timers.finish_on_time(plan)
        return Reply(200, self.views.operation_json(operation))

    def plans_redistribute(self, call: Call) -> Reply:
        return Reply(200, self.views.plan_json(self.state.redistribute(self._plan(call))))

    def plans_save(self, call: Call) -> Reply:
        self.state.save(self._plan(call))
        return Reply(204)

    def operations_get(self, call: Call) -> Reply:
        return Reply(200, self.views.operation_json(self.state.operation(call.params["operation"])))

    def operations_list(self, call: Call) -> Reply:
        # Newest first (the public OpenAPI document gives no order): the operations
        # a caller looks for, the running and the latest ones, come on the first page.
        def keep(operation: OperationRecord, filters: dict[str, Any]) -> bool:
            done = filters.get("done")
            # Every operation of the emulator is a plan_optimization, the only documented type.
            return done is None or operation.done == done

        def fetch(before: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            found, last, more = self.state.operations_page(before, limit, lambda op: keep(op, filters))
            return [self.views.operation_json(operation) for operation in found], last, more

        items, token = self._pages.paginate(call.route.name, call.query, "", OPERATIONS_LIST, fetch)
        return Reply(200, {"operations": items, "nextPageToken": token})

    # ---------------------------------------------------------------- stops

    def stops_create(self, call: Call) -> Reply:
        fields = self.stop_body(call.json, "stop.create")
        record = self.state.create_stop(self._plan(call), fields)
        return Reply(200, self.views.stop_json(record))

    def stops_list(self, call: Call) -> Reply:
        plan = self._stops_plan(call)
        stops = plan.stops

        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            external = filters.get("externalId")
            if isinstance(stops, CompactStops):
                found, last, more = stops.page(after, limit, external, plan.id)
            else:
                found, last, more = stops.page(
                    after, limit, None if external is None else (lambda s: s.external_id == external)
                )
            return [self.views.stop_json(record) for record in found], last, more

        items, token = self._pages.paginate(call.route.name, call.query, plan.id, STOPS_LIST, fetch)
        return Reply(200, {"stops": items, "nextPageToken": token})

    def stops_import_batch(self, call: Call) -> Reply:
        fields = self._stop_bodies(call.json, "stop.create", "")
        imported = self.state.import_stops(self._plan(call), fields)
        return Reply(200, self._import_json(imported, "stop", fields))

    def stops_get(self, call: Call) -> Reply:
        plan = self._stops_plan(call)
        return Reply(200, self.views.stop_json(self.state.stop(plan, call.params["stop"])))

    def stops_update(self, call: Call) -> Reply:
        patch = self.stop_body(call.json, "stop.update")
        record = self.state.update_stop(self._plan(call), call.params["stop"], patch)
        return Reply(200, self.views.stop_json(record))

    def stops_delete(self, call: Call) -> Reply:
        self.state.delete_stop(self._plan(call), call.params["stop"])
        return Reply(204)

    def stops_live_create(self, call: Call) -> Reply:
        fields = self.stop_body(call.json, "stop.create")
        pending, record = self.state.live_create(self._plan(call), fields)
        return Reply(200, {"pending": pending, "stop": self.views.stop_json(record)})

    def stops_live_update(self, call: Call) -> Reply:
        patch = self.stop_body(call.json, "stop.update")
        pending, record = self.state.live_update(self._plan(call), call.params["stop"], patch)
        return Reply(200, {"pending": pending, "stop": self.views.stop_json(record)})

    def stops_live_delete(self, call: Call) -> Reply:
        pending = self.state.live_delete(self._plan(call), call.params["stop"])
        return Reply(200, {"pending": pending})

    # ------------------------------------------------------ unassigned stops

    def unassigned_stops_create(self, call: Call) -> Reply:
        fields = self.stop_body(call.json, "unassigned.create")
        return Reply(200, self.views.unassigned_json(self.state.create_unassigned(fields)))

    def unassigned_stops_list(self, call: Call) -> Reply:
        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            external = filters.get("externalId")
            found, last, more = self.state.unassigned_stops.page(
                after, limit, None if external is None else (lambda s: s.external_id == external)
            )
            return [self.views.unassigned_json(record) for record in found], last, more

        items, token = self._pages.paginate(call.route.name, call.query, "", UNASSIGNED_LIST, fetch)
        return Reply(200, {"unassignedStops": items, "nextPageToken": token})

    def unassigned_stops_import_batch(self, call: Call) -> Reply:
        body = expect_object(call.json, "")
        check_keys(body, ("unassignedStops", "depot"), "", self.config.strict)
        required(body, ("unassignedStops",), "")
        fields = self._stop_bodies(body["unassignedStops"], "unassigned.import", "unassignedStops")
        depot = None if body.get("depot") is None else reference(body["depot"], "depot", "depots")
        imported = self.state.import_unassigned(fields, depot)
        return Reply(200, self._import_json(imported, "unassignedStop", fields))

    def unassigned_stops_get(self, call: Call) -> Reply:
        record = self.state.unassigned_stop(call.params["unassigned_stop"])
        return Reply(200, self.views.unassigned_json(record))

    def unassigned_stops_update(self, call: Call) -> Reply:
        patch = self.stop_body(call.json, "unassigned.update")
        record = self.state.unassigned_stop(call.params["unassigned_stop"])
        return Reply(200, self.views.unassigned_json(self.state.update_unassigned(record, patch)))

    def unassigned_stops_delete(self, call: Call) -> Reply:
        record = self.state.unassigned_stop(call.params["unassigned_stop"])
        self.state.unassigned_stops.remove(record.id)
        return Reply(204)

    # ------------------------------------------------------ reference lists

    def depots_list(self, call: Call) -> Reply:
        depots = self.state.depots()

        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            chunk = depots[after : after + limit]
            return (
                [self.views.depot_json(d.id) for d in chunk],
                after + len(chunk),
                after + limit < len(depots),
            )

        items, token = self._pages.paginate(call.route.name, call.query, "", DEPOTS_LIST, fetch)
        return Reply(200, {"depots": items, "nextPageToken": token})

    def depots_get(self, call: Call) -> Reply:
        return Reply(200, self.views.depot_json(call.params["depot"]))

    def custom_stop_properties_list(self, call: Call) -> Reply:
        if self.config.strict and call.query:
            raise Problem.invalid(next(iter(call.query)), "is not a query parameter of this list")
        return Reply(200, {"customStopProperties": self.views.custom_stop_properties_json()})

    def routes_get(self, call: Call) -> Reply:
        route = self.state.routes.get(call.params["route"])
        if route is None:
            raise Problem.not_found("Route not found", "route_not_found")
        limit = self.config.inaccessible_before
        plan = self.state.plans.get(route.plan_id)
        if limit is not None and plan is not None and plan.starts < limit:
            raise Problem(403, ROUTE_INACCESSIBLE[1], ROUTE_INACCESSIBLE[0], url=PAYWALL_URL)
        return Reply(200, self.views.route_json(route))

    def drivers_get(self, call: Call) -> Reply:
        driver = self.state.driver(call.params["driver"])
        if driver is None:
            raise Problem.not_found("Driver not found", "driver_not_found")
        return Reply(200, self.views.driver_json(driver))

    # ------------------- the rest of the public API documentation (not in the contract)

    def drivers_list(self, call: Call) -> Reply:
        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            found, last, more = self.state.drivers_page(after, limit, filters.get("active"))
            return [self.views.driver_json(driver) for driver in found], last, more

        items, token = self._pages.paginate(call.route.name, call.query, "", DRIVERS_LIST, fetch)
        return Reply(200, {"drivers": items, "nextPageToken": token})

    def drivers_create(self, call: Call) -> Reply:
        fields = validate_driver_body(
            call.json, partial=False, strict=self.config.strict, strict_inputs=self.config.strict_inputs
        )
        return Reply(200, self.views.driver_json(self.state.create_driver(fields)))

    def drivers_update(self, call: Call) -> Reply:
        fields = validate_driver_body(
            call.json, partial=True, strict=self.config.strict, strict_inputs=self.config.strict_inputs
        )
        return Reply(200, self.views.driver_json(self.state.update_driver(call.params["driver"], fields)))

    def drivers_delete(self, call: Call) -> Reply:
        self.state.remove_driver(call.params["driver"])
        return Reply(204)

    def drivers_import_batch(self, call: Call) -> Reply:
        validate = functools.partial(validate_driver_body, strict_inputs=self.config.strict_inputs)
        return self.batch_import(call, validate, 50, self.state.import_drivers, "driver", _driver_name)

    def batch_import(
        self,
        call: Call,
        validate: Callable[..., dict[str, Any]],
        max_items: int,
        store: Callable[[list[dict[str, Any]]], Imported[R]],
        echo_as: str,
        name: Callable[[R], str],
    ) -> Reply:
        """The answer of a batch import of 1 to ``max_items`` entries (drivers, v1's depots and
        members): each entry checked by ``validate(item, where, partial=False, strict=...)``
        (400 for the whole call), then ``store`` keeps what it can; each refused entry is
        echoed as sent under ``echo_as``."""

        def check(item: object, where: str) -> dict[str, Any]:
            return validate(item, where, partial=False, strict=self.config.strict)

        fields = array_of(call.json, "", check, min_items=1, max_items=max_items)
        sent: list[Any] = call.json
        return Reply(200, self.views.import_json(store(fields), name, echo_as, sent.__getitem__))

    def operations_cancel(self, call: Call) -> Reply:
        operation = self.state.cancel_operation(call.params["operation"])
        return Reply(200, self.views.operation_json(operation))

    def stops_live_import_batch(self, call: Call) -> Reply:
        fields = self._stop_bodies(call.json, "stop.create", "")
        pending, imported = self.state.live_import(self._plan(call), fields)
        return Reply(200, {**self._import_json(imported, "stop", fields), "pending": pending})

    def custom_stop_properties_get(self, call: Call) -> Reply:
        # Captured as sent (percent-encoded); the official schemas bound the id's characters.
        wanted = urllib.parse.unquote(call.params["custom_stop_property"])
        if len(wanted) > 50:
            raise Problem.invalid("customStopPropertyId", f"must be at most 50 characters, got {len(wanted)}")
        for prop in self.views.custom_stop_properties_json():
            if prop["id"] == wanted:
                return Reply(200, prop)
        raise Problem.not_found("Custom stop property not found", "custom_stop_property_not_found")


def _body_id(record: StopRecord | UnassignedStopRecord) -> str:
    return str(record.body["id"])


def _driver_name(driver: DriverConfig) -> str:
    return f"drivers/{driver.id}"
