"""v1's handlers: the shared ones (``emulator/_wire/_handlers.py``) over v1's routes, views and
stop body rules, and v1's own.

v1 answers some endpoints otherwise: a plan's ``routeOverrides`` are kept; the
depot rule (a driver must work at the plan's depot: 412 ``Driver does not share
depot with plan`` on a plan update, 412 ``Driver is not linked to plan`` when a
stop names such a driver, both without a code). And it has endpoints of its own:
depots (create, update, delete, ``:setMain``, ``:import``), members, the route
list and a route's stops, and the stop search.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import Any

from route_planning_async.emulator._rules._pages import ListSpec
from route_planning_async.emulator._rules._problems import PAYWALL_URL, ROUTE_INACCESSIBLE, Problem
from route_planning_async.emulator._rules._requests import validate_plan_body
from route_planning_async.emulator._rules._validation import string
from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._store._collections import OrderedStore
from route_planning_async.emulator._store._records import PlanRecord, RouteRecord, StopRecord
from route_planning_async.emulator._wire._api import Call, OperationTimers, Reply
from route_planning_async.emulator._wire._handlers import BaseHandlers
from route_planning_async.emulator.v1._requests import (
    ROUTE_STOPS_LIST,
    ROUTES_LIST,
    STOP_BODIES,
    validate_depot_body,
    validate_member_body,
)
from route_planning_async.emulator.v1._routes import ROUTES
from route_planning_async.emulator.v1._search import Position, SearchError, ranked
from route_planning_async.emulator.v1._views import Views
from route_planning_async.v1.search import (
    DEFAULT_PAGE_SIZE,
    MAX_FILTER_LENGTH,
    MAX_KEYWORD_LENGTH,
    MAX_PAGE_SIZE,
)

__all__ = ["Handlers"]

NOT_SHARING_DEPOT = "Driver does not share depot with plan"
"""The message of the 412 of a plan update naming a driver of another depot."""
NOT_LINKED = "Driver is not linked to plan"
"""The message of the 412 of a stop naming a driver of another depot than its plan's."""


def _text(param: str, value: str) -> str:
    return string(value, param, max_len=MAX_FILTER_LENGTH)


def _keyword(param: str, value: str) -> str:
    """``keyword``: 1 to 255 characters in the official file (``filter``'s bound is 2,048)."""
    return string(value, param, max_len=MAX_KEYWORD_LENGTH)


def _sort_field(param: str, value: str) -> str | None:
    """``sortField``: a plain ``string`` in the official file, so an empty one is no sort field."""
    return _text(param, value) if value else None


SEARCH_LIST = ListSpec(
    DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE,
    params={"keyword": _keyword, "filter": _text, "sortField": _sort_field, "sortOrder": _text},
    empty_page_token=True,
)
"""``GET /stops:search``: its page sizes (the document's bounds contradict themselves: a
default of 20 with an exclusive maximum of 20; 1 to 20 are taken) and its parameters."""


class Handlers(BaseHandlers):
    """One method per endpoint of v1's :data:`ROUTES`."""

    views: Views

    def __init__(self, config: EmulatorConfig, state: EmulatorState, timers: OperationTimers) -> None:
        super().__init__(config, state, timers, ROUTES, Views(state), STOP_BODIES)

    # ------------------------------------------------------------ the depot rule

    def _require_linked(self, plan: PlanRecord, fields: dict[str, Any], prefix: str = "") -> None:
        """412 ``Driver is not linked to plan`` when a stop names a driver the plan does not
        have (v1: "These drivers must be configured as part of the plan to be valid")."""
        drivers = fields.get("allowedDrivers") or []
        for index, driver_id in enumerate(drivers):
            if driver_id not in plan.driver_ids:
                raise Problem(412, NOT_LINKED, None, f"{prefix}allowedDrivers[{index}]")

    # ------------------------------------------------------------------ plans

    def _plan_body_v1(self, call: Call, *, partial: bool) -> dict[str, Any]:
        """A v1 plan body: with ``routeOverrides``, dated in the years 2000 to 2100."""
        return validate_plan_body(
            call.json,
            partial=partial,
            earliest=max(self.config.earliest_plan_date, datetime.date(2000, 1, 1)),
            latest=min(self.config.latest_plan_date, datetime.date(2100, 12, 31)),
            strict=self.config.strict,
            with_overrides=True,
        )

    def plans_create(self, call: Call) -> Reply:
        fields = self._plan_body_v1(call, partial=False)
        plan = self.state.create_plan(fields)
        plan.route_overrides = fields.get("routeOverrides")
        return Reply(200, self.views.plan_json(plan))

    def plans_update(self, call: Call) -> Reply:
        fields = self._plan_body_v1(call, partial=True)
        plan = self._plan(call)
        if "drivers" in fields or "depot" in fields:
            depot_id = plan.depot_id
            if "depot" in fields:
                depot_id = self.state.main_depot_id if fields["depot"] is None else fields["depot"]
                self.state.depot(depot_id, "depot")
            drivers = fields.get("drivers", plan.driver_ids)
            off = self.state.drivers_off_depot(depot_id, drivers)
            if off:
                param = f"drivers[{off[0]}]" if "drivers" in fields else "depot"
                raise Problem(412, NOT_SHARING_DEPOT, None, param)
        plan = self.state.update_plan(plan, fields)
        if "routeOverrides" in fields:
            plan.route_overrides = fields["routeOverrides"]
        return Reply(200, self.views.plan_json(plan))

    # ------------------------------------------------------------------ stops

    def stops_create(self, call: Call) -> Reply:
        fields = self.stop_body(call.json, "stop.create")
        plan = self._plan(call)
        self._require_linked(plan, fields)
        return Reply(200, self.views.stop_json(self.state.create_stop(plan, fields)))

    def stops_import_batch(self, call: Call) -> Reply:
        fields = self._stop_bodies(call.json, "stop.create", "")
        plan = self._plan(call)
        for index, item in enumerate(fields):
            self._require_linked(plan, item, f"[{index}].")
        imported = self.state.import_stops(plan, fields)
        return Reply(200, self._import_json(imported, "stop", fields))

    def stops_update(self, call: Call) -> Reply:
        patch = self.stop_body(call.json, "stop.update")
        plan = self._plan(call)
        self._require_linked(plan, patch)
        record = self.state.update_stop(plan, call.params["stop"], patch)
        return Reply(200, self.views.stop_json(record))

    def stops_live_update(self, call: Call) -> Reply:
        patch = self.stop_body(call.json, "stop.update")
        plan = self._plan(call)
        self._require_linked(plan, patch)
        pending, record = self.state.live_update(plan, call.params["stop"], patch)
        return Reply(200, {"pending": pending, "stop": self.views.stop_json(record)})

    def stops_search(self, call: Call) -> Reply:
        """Every stop of the plans with stop collections and every unassigned stop, found by
        the search (``v1/_search.py``), paged."""

        def fetch(
            after: Position | int, limit: int, params: dict[str, Any]
        ) -> tuple[list[Any], Position | int, bool]:
            documents, render = self._search_documents()
            try:
                found = ranked(
                    documents,
                    keyword=params.get("keyword"),
                    filter=params.get("filter"),
                    sort_field=params.get("sortField"),
                    sort_order=params.get("sortOrder", "asc"),
                )
            except SearchError as error:
                raise Problem(400, error.message, "invalid_argument", error.param) from None
            # The token is a cursor, the position of the last stop served (0: none yet), so
            # deleting stops between pages moves no other stop's position.
            rest = found if isinstance(after, int) else [pair for pair in found if pair[0] > after]
            chunk = rest[:limit]
            page = [render[id(document)]() for _, document in chunk]
            return page, chunk[-1][0] if chunk else after, len(rest) > limit

        items, token = self._pages.paginate(call.route.name, call.query, "", SEARCH_LIST, fetch)
        return Reply(200, {"stops": items, "nextPageToken": token})

    def _search_documents(
        self,
    ) -> tuple[list[tuple[tuple[int, ...], dict[str, Any]]], dict[int, Callable[[], dict[str, Any]]]]:
        """The bodies the search reads (the stored form, with the route, the invoice number and
        ``createdAt``), each with its place (the plans' stops by the plan's and the stop's
        sequence numbers, then the unassigned stops by theirs), and how to render each found one."""
        documents: list[tuple[tuple[int, ...], dict[str, Any]]] = []
        render: dict[int, Callable[[], dict[str, Any]]] = {}
        for plan_seq, plan in self.state.plans.sequenced():
            stops = plan.stops
            if not isinstance(stops, OrderedStore) or not self.state.has_stop_collections(plan):
                continue
            if self._inaccessible(plan):
                continue
            for stop_seq, record in stops.sequenced():
                document = self._document(record)
                documents.append(((0, plan_seq, stop_seq), document))
                render[id(document)] = lambda record=record: {  # type: ignore[misc]
                    "type": "stop",
                    "stop": self.views.stop_json(record),
                }
        for seq, unassigned in self.state.unassigned_stops.sequenced():
            document = {
                **unassigned.body,
                "orderInfo": self.views.unassigned_json(unassigned)["orderInfo"],
                "createdAt": unassigned.created_at,
            }
            documents.append(((1, seq), document))
            render[id(document)] = lambda unassigned=unassigned: {  # type: ignore[misc]
                "type": "unassignedStop",
                "unassignedStop": self.views.unassigned_json(unassigned),
            }
        return documents, render

    def _document(self, record: StopRecord) -> dict[str, Any]:
        route = self.state.routes.get(record.route_id) if record.route_id else None
        return {
            **record.body,
            "orderInfo": {**record.body["orderInfo"], "invoiceNumber": record.extra.get("invoiceNumber")},
            "route": None if route is None else {"id": f"routes/{route.id}"},
            "createdAt": record.created_at,
        }

    def _inaccessible(self, plan: PlanRecord) -> bool:
        limit = self.config.inaccessible_before
        return limit is not None and plan.starts < limit

    # ----------------------------------------------------------------- routes

    def _route_inaccessible(self, route: RouteRecord) -> bool:
        plan = self.state.plans.get(route.plan_id)
        return plan is not None and self._inaccessible(plan)

    def _route(self, call: Call) -> RouteRecord:
        route = self.state.routes.get(call.params["route"])
        if route is None:
            raise Problem.not_found("Route not found", "route_not_found")
        if self._route_inaccessible(route):
            raise Problem(403, ROUTE_INACCESSIBLE[1], ROUTE_INACCESSIBLE[0], url=PAYWALL_URL)
        return route

    def routes_list(self, call: Call) -> Reply:
        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            # The routes of plans older than the team may read are left out (their own get is 403).
            routes = [route for route in self.state.routes.values() if not self._route_inaccessible(route)]
            chunk = routes[after : after + limit]
            return [self.views.route_json(r) for r in chunk], after + len(chunk), after + limit < len(routes)

        items, token = self._pages.paginate(call.route.name, call.query, "", ROUTES_LIST, fetch)
        return Reply(200, {"routes": items, "nextPageToken": token})

    def routes_list_stops(self, call: Call) -> Reply:
        """The route's stops in route order (its ``start`` stop first, its ``end`` stop last)."""
        route = self._route(call)
        plan = self.state.plans.get(route.plan_id)

        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            external = filters.get("externalId")
            records = [
                record
                for record in (plan.stops.values() if plan is not None else ())
                if record.route_id == route.id and (external is None or record.external_id == external)
            ]
            records.sort(key=lambda record: record.body.get("stopPosition") or 0)
            chunk = records[after : after + limit]
            items = [self.views.stop_json(record) for record in chunk]
            return items, after + len(chunk), after + limit < len(records)

        items, token = self._pages.paginate(call.route.name, call.query, route.id, ROUTE_STOPS_LIST, fetch)
        return Reply(200, {"stops": items, "nextPageToken": token})

    # ----------------------------------------------------------------- depots

    def depots_create(self, call: Call) -> Reply:
        fields = validate_depot_body(
            call.json, partial=False, strict=self.config.strict, strict_inputs=self.config.strict_inputs
        )
        return Reply(200, self.views.depot_json(self.state.create_depot(fields).id))

    def depots_update(self, call: Call) -> Reply:
        fields = validate_depot_body(
            call.json, partial=True, strict=self.config.strict, strict_inputs=self.config.strict_inputs
        )
        return Reply(200, self.views.depot_json(self.state.update_depot(call.params["depot"], fields).id))

    def depots_delete(self, call: Call) -> Reply:
        self.state.delete_depot(call.params["depot"])
        return Reply(204)

    def depots_set_main(self, call: Call) -> Reply:
        self.state.set_main_depot(call.params["depot"])
        return Reply(204)

    def depots_import_batch(self, call: Call) -> Reply:
        validate = functools.partial(validate_depot_body, strict_inputs=self.config.strict_inputs)
        return self.batch_import(
            call, validate, 100, self.state.import_depots, "depot", lambda d: f"depots/{d.id}"
        )

    # ---------------------------------------------------------------- members

    def members_create(self, call: Call) -> Reply:
        fields = validate_member_body(call.json, partial=False, strict=self.config.strict)
        return Reply(200, self.views.member_json(self.state.create_member(fields)))

    def members_update(self, call: Call) -> Reply:
        fields = validate_member_body(call.json, partial=True, strict=self.config.strict)
        return Reply(200, self.views.member_json(self.state.update_member(call.params["member"], fields)))

    def members_delete(self, call: Call) -> Reply:
        self.state.delete_member(call.params["member"])
        return Reply(204)

    def members_import_batch(self, call: Call) -> Reply:
        return self.batch_import(
            call, validate_member_body, 50, self.state.import_members, "member", lambda m: f"members/{m.id}"
        )
