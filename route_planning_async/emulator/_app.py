"""HTTP: the route table, the request pipeline, and one handler per endpoint.

Every request goes through the same steps, in this order:

1. base path (``/public/v0.2b``), else 404;
2. authentication (Basic ``base64("<key>:")`` or Bearer), else 401;
3. the route table, else 404 (no such path) or 405 (wrong method);
4. path ids (1 to 50 of ``[A-Za-z0-9_-]``), else 400;
5. the rate limiter of the route's category (per API key; weight = stops in an import), else 429;
6. injected faults (``emu.faults``);
7. the body: ``Content-Type: application/json`` on any request with a body, else 400
   (code ``unsupported_content_type``; the contract documents 400, not 415, for
   rejected requests), valid JSON, else 400; no body on body-less calls (strict mode);
8. the handler: validation (400), lookups (404), states (409, 410), then the change.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import datetime
import hmac
import json
import logging
import re
from collections.abc import Callable
from typing import Any, Literal

import attrs
from aiohttp import web
from multidict import MultiMapping

from route_planning_async._limits import Category
from route_planning_async.emulator._config import EmulatorConfig
from route_planning_async.emulator._faults import Fault, FaultInjector, FaultKind
from route_planning_async.emulator._limits import SlidingWindowLimiter, retry_after_header
from route_planning_async.emulator._log import Outcome, RequestLog, RequestRecord
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._state import CompactStops, EmulatorState, OperationRecord, PlanRecord
from route_planning_async.emulator._validation import (
    ID_RE,
    array,
    check_keys,
    expect_object,
    reference,
    string,
    validate_plan_body,
    validate_reoptimize_body,
    validate_stop_body,
)

__all__ = ["BASE_PATH", "ROUTES", "EmulatorApp", "RouteSpec"]

logger = logging.getLogger("route_planning_async.emulator")

BASE_PATH = "/public/v0.2b"
"""Every endpoint lives below this path (contract, General conventions)."""

BodyMode = Literal["none", "required", "optional"]
_NO_BODY = object()
_R, _W, _I, _O = Category.READ, Category.WRITE, Category.BATCH_IMPORT, Category.OPTIMIZE
_SEGMENT = r"[^/:]+"


@attrs.frozen
class RouteSpec:
    """One endpoint of the emulator."""

    name: str
    """Endpoint name, the same as the client's endpoint table (``plans.optimize``)."""
    method: str
    """HTTP method."""
    template: str
    """Path below the base path with ``{placeholders}``."""
    category: Category
    """Rate-limit category (contract, Limits)."""
    body: BodyMode
    """Whether a JSON body is required, optional or refused."""

    @property
    def pattern(self) -> re.Pattern[str]:
        """The template as an anchored regular expression."""
        regex = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>{_SEGMENT})", self.template)
        return re.compile(regex)


ROUTES: tuple[RouteSpec, ...] = (
    RouteSpec("plans.create", "POST", "/plans", _W, "required"),
    RouteSpec("plans.list", "GET", "/plans", _R, "none"),
    RouteSpec("plans.get", "GET", "/plans/{plan}", _R, "none"),
    RouteSpec("plans.update", "PATCH", "/plans/{plan}", _W, "required"),
    RouteSpec("plans.delete", "DELETE", "/plans/{plan}", _W, "none"),
    RouteSpec("plans.optimize", "POST", "/plans/{plan}:optimize", _O, "none"),
    RouteSpec("plans.distribute", "POST", "/plans/{plan}:distribute", _W, "none"),
    RouteSpec("plans.reoptimize", "POST", "/plans/{plan}:reoptimize", _O, "optional"),
    RouteSpec("plans.redistribute", "POST", "/plans/{plan}:redistribute", _W, "none"),
    RouteSpec("plans.save", "POST", "/plans/{plan}:save", _W, "none"),
    RouteSpec("operations.get", "GET", "/operations/{operation}", _R, "none"),
    # The contract does not show the operation list; the public OpenAPI document does.
    RouteSpec("operations.list", "GET", "/operations", _R, "none"),
    RouteSpec("stops.create", "POST", "/plans/{plan}/stops", _W, "required"),
    RouteSpec("stops.list", "GET", "/plans/{plan}/stops", _R, "none"),
    RouteSpec("stops.import_batch", "POST", "/plans/{plan}/stops:import", _I, "required"),
    RouteSpec("stops.get", "GET", "/plans/{plan}/stops/{stop}", _R, "none"),
    RouteSpec("stops.update", "PATCH", "/plans/{plan}/stops/{stop}", _W, "required"),
    RouteSpec("stops.delete", "DELETE", "/plans/{plan}/stops/{stop}", _W, "none"),
    RouteSpec("stops.live_create", "POST", "/plans/{plan}/stops:liveCreate", _W, "required"),
    RouteSpec("stops.live_update", "POST", "/plans/{plan}/stops/{stop}:liveUpdate", _W, "required"),
    RouteSpec("stops.live_delete", "POST", "/plans/{plan}/stops/{stop}:liveDelete", _W, "none"),
    RouteSpec("unassigned_stops.create", "POST", "/unassignedStops", _W, "required"),
    RouteSpec("unassigned_stops.list", "GET", "/unassignedStops", _R, "none"),
    RouteSpec("unassigned_stops.import_batch", "POST", "/unassignedStops:import", _I, "required"),
    RouteSpec("unassigned_stops.get", "GET", "/unassignedStops/{unassigned_stop}", _R, "none"),
    RouteSpec("unassigned_stops.update", "PATCH", "/unassignedStops/{unassigned_stop}", _W, "required"),
    RouteSpec("unassigned_stops.delete", "DELETE", "/unassignedStops/{unassigned_stop}", _W, "none"),
    RouteSpec("depots.list", "GET", "/depots", _R, "none"),
    RouteSpec("depots.get", "GET", "/depots/{depot}", _R, "none"),
    RouteSpec("custom_stop_properties.list", "GET", "/team/customStopProperties", _R, "none"),
    # Serialized ids the public OpenAPI document can also fetch.
    RouteSpec("routes.get", "GET", "/routes/{route}", _R, "none"),
    RouteSpec("drivers.get", "GET", "/drivers/{driver}", _R, "none"),
)
"""Every endpoint, in matching order."""

_COMPILED = tuple((route, route.pattern) for route in ROUTES)
_PATH_PARAM_NAMES = {
    "plan": "planId",
    "stop": "stopId",
    "unassigned_stop": "unassignedStopId",
    "operation": "operationId",
    "depot": "depotId",
    "route": "routeId",
    "driver": "driverId",
}


@attrs.frozen
class _ListSpec:
    default: int
    maximum: int
    filters: tuple[str, ...] = ()


# maxPageSize ranges and defaults (contract, Limits; depots and operations from the
# public OpenAPI document, which also gives the operation list's two filters).
_PLANS_LIST = _ListSpec(10, 20, ("title", "startsGte", "startsLte"))
_STOPS_LIST = _ListSpec(10, 10, ("externalId",))
_UNASSIGNED_LIST = _ListSpec(20, 20, ("externalId",))
_DEPOTS_LIST = _ListSpec(20, 20)
_OPERATIONS_LIST = _ListSpec(20, 20, ("done", "type"))
_OPERATION_TYPES = ("plan_optimization",)


@attrs.frozen
class _Cursor:
    route: str
    scope: str
    signature: tuple[tuple[str, str], ...]
    after: int


@attrs.frozen
class Call:
    """What a handler gets."""

    route: RouteSpec
    """The matched endpoint."""
    params: dict[str, str]
    """Path ids, already checked."""
    query: MultiMapping[str]
    """Decoded query parameters."""
    json: Any
    """The decoded body, or ``_NO_BODY``."""
    now: float
    """Server clock reading."""


@attrs.frozen
class Reply:
    """What a handler answers."""

    status: int
    """HTTP status."""
    body: Any = None
    """JSON-able body; None for an empty body (204)."""


class _Dropped(Exception):
    """The connection was closed on purpose."""


class EmulatorApp:
    """The aiohttp application and the request pipeline around :class:`EmulatorState`."""

    def __init__(
        self,
        config: EmulatorConfig,
        state: EmulatorState,
        limiter: SlidingWindowLimiter,
        faults: FaultInjector,
        log: RequestLog,
    ) -> None:
        self.config = config
        self.state = state
        self.limiter = limiter
        self.faults = faults
        self.log = log
        self.internal_errors: list[BaseException] = []
        """Exceptions the handlers raised (answered as 500); a correct emulator keeps it empty."""
        self._cursors: dict[str, _Cursor] = {}
        self._tokens: dict[_Cursor, str] = {}
        self._seq = 0
        self._timers: set[asyncio.TimerHandle] = set()
        self._handlers: dict[str, Callable[[Call], Reply]] = {
            route.name: getattr(self, "_h_" + route.name.replace(".", "_")) for route in ROUTES
        }

    def application(self) -> web.Application:
        """A fresh aiohttp application serving the emulator."""
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._dispatch)
        return app

    def cancel_timers(self) -> None:
        """Stop the timers that finish delayed optimizations."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    # ----------------------------------------------------------------- pipeline

    def _key_of(self, header: str | None) -> str | None:
        """The API key the ``Authorization`` header carries, when it is one of the team's."""
        if not header:
            return None
        scheme, _, value = header.partition(" ")
        value = value.strip()
        if scheme.lower() == "bearer":
            sent = value.encode()
        elif scheme.lower() == "basic":
            try:
                decoded = base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                return None
            # The key is the user name and the password is empty: "<key>:".
            if not decoded.endswith(b":"):
                return None
            sent = decoded[:-1]
        else:
            return None
        for key in (self.config.api_key, *self.config.extra_api_keys):
            if hmac.compare_digest(sent, key.encode()):
                return key
        return None

    async def _dispatch(self, request: web.Request) -> web.StreamResponse:
        self._seq += 1
        seq = self._seq
        clock = self.config.clock
        self.state.settle(clock())
        raw_path = request.rel_url.raw_path
        record = _RecordBuilder(seq, clock(), request.method, raw_path)
        try:
            response = await self._pipeline(request, record)
        except _Dropped:
            record.status = None
            self.log.append(record.build())
            return web.Response(status=200)
        record.status = response.status
        self.log.append(record.build())
        return response

    async def _pipeline(self, request: web.Request, record: _RecordBuilder) -> web.StreamResponse:
        raw_path = request.rel_url.raw_path
        if not (raw_path == BASE_PATH or raw_path.startswith(BASE_PATH + "/")):
            record.outcome = "not_found"
            return _error(Problem.not_found(f"No endpoint at {raw_path}"))
        path = raw_path[len(BASE_PATH) :]
        record.path = path
        key = self._key_of(request.headers.get("Authorization"))
        if key is None:
            record.outcome = "unauthorized"
            return _error(Problem(401, "Unauthorized: send the API key as Basic or Bearer", "unauthorized"))
        try:
            route, params = self._match(request.method, path)
        except Problem as problem:
            record.outcome = "not_found"
            return _error(problem)
        record.route, record.category = route.name, route.category
        body = await request.read()
        weight = _import_weight(route, body)
        record.weight = weight
        now = self.config.clock()
        record.time = now
        decision = self.limiter.check(key, route.category, weight, now)
        if not decision.admitted:
            record.outcome = "rate_limited"
            record.reason = decision.reason
            return _error(
                Problem(
                    429,
                    "Too many requests: rate limit exceeded",
                    "rate_limit_exceeded",
                    headers={"Retry-After": retry_after_header(decision.retry_after, self.config.speedup)},
                )
            )
        record.admitted = True
        fault = self.faults.pick(record.seq, route.name, route.category, request.method)
        if fault is not None:
            record.fault = fault.kind.value
            record.outcome = "fault"
            early = await self._early_fault(request, fault)
            if early is not None:
                return early
        try:
            call = Call(
                route, self._checked_params(params), request.query, self._body(request, route, body), now
            )
            reply = self._handlers[route.name](call)
            response = _json(reply.status, reply.body)
            if record.outcome != "fault":
                record.outcome = "ok" if reply.status < 300 else "error"
        except Problem as problem:
            response = _error(problem)
            if record.outcome != "fault":
                record.outcome = "error"
        except Exception as exc:
            logger.exception("emulator handler %s failed", route.name)
            self.internal_errors.append(exc)
            response = _error(Problem(500, f"Internal emulator error: {exc!r}", "internal_error"))
            if record.outcome != "fault":
                record.outcome = "error"
        if fault is not None:
            return self._late_fault(request, fault, response)
        return response

    def _match(self, method: str, path: str) -> tuple[RouteSpec, dict[str, str]]:
        allowed: list[str] = []
        for route, pattern in _COMPILED:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            if route.method == method:
                return route, match.groupdict()
            allowed.append(route.method)
        if allowed:
            raise _MethodNotAllowed(allowed)
        raise Problem.not_found(f"No endpoint at {path}")

    def _checked_params(self, params: dict[str, str]) -> dict[str, str]:
        for name, value in params.items():
            if ID_RE.fullmatch(value) is None:
                raise Problem.invalid(
                    _PATH_PARAM_NAMES.get(name, name), "must be 1 to 50 letters, digits, '-' or '_'"
                )
        return params

    def _body(self, request: web.Request, route: RouteSpec, body: bytes) -> Any:
        if not body:
            if route.body == "required":
                raise Problem.invalid("", "a JSON body is required")
            return _NO_BODY
        if route.body == "none" and self.config.strict:
            raise Problem.invalid("", f"{route.method} {route.template} takes no request body")
        # Requests with a body and without the header are rejected (contract, General conventions).
        if request.content_type != "application/json":
            raise Problem(
                400,
                "Requests with a body must carry 'Content-Type: application/json'",
                "unsupported_content_type",
                "Content-Type",
            )
        try:
            return json.loads(body)
        except (UnicodeDecodeError, ValueError) as exc:
            raise Problem(400, f"The body is not valid JSON: {exc}", "invalid_json") from None

    async def _early_fault(self, request: web.Request, fault: Fault) -> web.StreamResponse | None:
        if fault.kind is FaultKind.DELAY:
            await asyncio.sleep(fault.delay)
            return None
        if fault.kind is FaultKind.RATE_LIMIT:
            return _error(
                Problem(
                    429,
                    "Too many requests (injected)",
                    "rate_limit_exceeded",
                    headers={
                        "Retry-After": retry_after_header(
                            self.config.scaled(fault.retry_after), self.config.speedup
                        )
                    },
                )
            )
        if fault.kind is FaultKind.ERROR:
            return _error(Problem(fault.status, "Injected failure", "internal_error"))
        if fault.kind is FaultKind.DROP:
            _drop(request)
        return None

    def _late_fault(self, request: web.Request, fault: Fault, response: web.Response) -> web.StreamResponse:
        if fault.kind is FaultKind.ERROR_AFTER_COMMIT:
            return _error(
                Problem(fault.status, "Injected failure after the change was made", "internal_error")
            )
        if fault.kind is FaultKind.DROP_AFTER_COMMIT:
            _drop(request)
        if fault.kind is FaultKind.MALFORMED_JSON and response.status < 300:
            text = response.body if isinstance(response.body, bytes) else b""
            cut = text[: max(1, len(text) // 2)] if text else b'{"truncated'
            return web.Response(status=200, body=cut, content_type="application/json")
        return response

    # ---------------------------------------------------------------- helpers

    def _schedule(self, plan: PlanRecord) -> None:
        operation = self.state.operations.get(plan.running_operation or "")
        if operation is None or operation.done:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, operation.deadline - self.config.clock())

        def fire() -> None:
            self._timers.discard(timer)
            self.state.settle(self.config.clock())

        timer = loop.call_later(delay, fire)
        self._timers.add(timer)

    def _paginate(
        self,
        call: Call,
        scope: str,
        spec: _ListSpec,
        fetch: Callable[[int, int, dict[str, Any]], tuple[list[Any], int, bool]],
    ) -> tuple[list[Any], str | None]:
        limit = spec.default
        filters: dict[str, Any] = {}
        token: str | None = None
        seen: set[str] = set()
        for key, value in call.query.items():
            if key in seen:
                raise Problem.invalid(key, "is given more than once")
            seen.add(key)
            match = re.fullmatch(r"filter\[(\w+)\]|filter\.(\w+)", key)
            if key == "pageToken":
                token = string(value, "pageToken")
            elif key == "maxPageSize":
                if re.fullmatch(r"\d{1,6}", value) is None:
                    raise Problem.invalid("maxPageSize", f"must be a whole number, got {value!r}")
                limit = int(value)
                if not 1 <= limit <= spec.maximum:
                    raise Problem.invalid("maxPageSize", f"must be between 1 and {spec.maximum}, got {limit}")
            elif match is not None:
                name = match.group(1) or match.group(2)
                if name not in spec.filters:
                    raise Problem.invalid(f"filter.{name}", "is not a filter of this list")
                if name in filters:
                    raise Problem.invalid(f"filter.{name}", "is given more than once")
                filters[name] = _filter_value(name, value)
            elif self.config.strict:
                raise Problem.invalid(key, "is not a query parameter of this list")
        signature = tuple(sorted((k, v) for k, v in call.query.items() if k != "pageToken"))
        after = 0
        if token is not None:
            cursor = self._cursors.get(token)
            if cursor is None or cursor.route != call.route.name or cursor.scope != scope:
                raise Problem(
                    400, "pageToken: unknown or expired page token", "invalid_page_token", "pageToken"
                )
            if cursor.signature != signature:
                # "all the original query parameters unchanged" (contract, Pagination).
                raise Problem(
                    400,
                    "pageToken: the other query parameters differ from the request that returned it",
                    "invalid_page_token",
                    "pageToken",
                )
            after = cursor.after
        items, last, more = fetch(after, limit, filters)
        next_token: str | None = None
        if more:
            cursor = _Cursor(call.route.name, scope, signature, last)
            # The same page asked for again (a retried GET) gets the same next token.
            next_token = self._tokens.get(cursor)
            if next_token is None:
                next_token = self._tokens[cursor] = self.state.new_id(24)
                self._cursors[next_token] = cursor
        return items, next_token

    def _plan(self, call: Call) -> PlanRecord:
        return self.state.plan(call.params["plan"])

    def _stops_plan(self, call: Call) -> PlanRecord:
        plan = self._plan(call)
        self.state.require_stop_collections(plan)
        return plan

    # ---------------------------------------------------------------- plans

    def _h_plans_create(self, call: Call) -> Reply:
        fields = validate_plan_body(
            call.json,
            partial=False,
            earliest=self.config.earliest_plan_date,
            latest=self.config.latest_plan_date,
            strict=self.config.strict,
        )
        return Reply(200, self.state.plan_json(self.state.create_plan(fields)))

    def _h_plans_list(self, call: Call) -> Reply:
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
            return [self.state.plan_json(plan) for plan in plans], last, more

        items, token = self._paginate(call, "", _PLANS_LIST, fetch)
        return Reply(200, {"plans": items, "nextPageToken": token})

    def _h_plans_get(self, call: Call) -> Reply:
        return Reply(200, self.state.plan_json(self._plan(call)))

    def _h_plans_update(self, call: Call) -> Reply:
        fields = validate_plan_body(
            call.json,
            partial=True,
            earliest=self.config.earliest_plan_date,
            latest=self.config.latest_plan_date,
            strict=self.config.strict,
        )
        return Reply(200, self.state.plan_json(self.state.update_plan(self._plan(call), fields)))

    def _h_plans_delete(self, call: Call) -> Reply:
        self.state.delete_plan(self._plan(call))
        return Reply(204)

    def _h_plans_optimize(self, call: Call) -> Reply:
        plan = self._plan(call)
        operation = self.state.start_optimization(plan, call.now)
        self._schedule(plan)
        return Reply(200, self.state.operation_json(operation))

    def _h_plans_distribute(self, call: Call) -> Reply:
        return Reply(200, self.state.plan_json(self.state.distribute(self._plan(call))))

    def _h_plans_reoptimize(self, call: Call) -> Reply:
        body = None if call.json is _NO_BODY else call.json
        optimization_type = validate_reoptimize_body(body, strict=self.config.strict)
        plan = self._plan(call)
        operation = self.state.start_reoptimization(plan, optimization_type, call.now)
        self._schedule(plan)
        return Reply(200, self.state.operation_json(operation))

    def _h_plans_redistribute(self, call: Call) -> Reply:
        return Reply(200, self.state.plan_json(self.state.redistribute(self._plan(call))))

    def _h_plans_save(self, call: Call) -> Reply:
        self.state.save(self._plan(call))
        return Reply(204)

    def _h_operations_get(self, call: Call) -> Reply:
        return Reply(200, self.state.operation_json(self.state.operation(call.params["operation"])))

    def _h_operations_list(self, call: Call) -> Reply:
        # Newest first (the public OpenAPI document gives no order): the operations
        # a caller looks for, the running and the latest ones, come on the first page.
        def keep(operation: OperationRecord, filters: dict[str, Any]) -> bool:
            done = filters.get("done")
            # Every operation of the emulator is a plan_optimization, the only documented type.
            return done is None or operation.done == done

        def fetch(before: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            found, last, more = self.state.operations_page(before, limit, lambda op: keep(op, filters))
            return [self.state.operation_json(operation) for operation in found], last, more

        items, token = self._paginate(call, "", _OPERATIONS_LIST, fetch)
        return Reply(200, {"operations": items, "nextPageToken": token})

    # ---------------------------------------------------------------- stops

    def _h_stops_create(self, call: Call) -> Reply:
        fields = validate_stop_body(call.json, "stop.create", strict=self.config.strict)
        record = self.state.create_stop(self._plan(call), fields)
        return Reply(200, self.state.stop_json(record))

    def _h_stops_list(self, call: Call) -> Reply:
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
            return [self.state.stop_json(record) for record in found], last, more

        items, token = self._paginate(call, plan.id, _STOPS_LIST, fetch)
        return Reply(200, {"stops": items, "nextPageToken": token})

    def _h_stops_import_batch(self, call: Call) -> Reply:
        items = array(call.json, "", min_items=1, max_items=100)
        fields = [
            validate_stop_body(item, "stop.create", f"[{index}]", strict=self.config.strict)
            for index, item in enumerate(items)
        ]
        return Reply(200, self.state.import_stops(self._plan(call), fields))

    def _h_stops_get(self, call: Call) -> Reply:
        plan = self._stops_plan(call)
        return Reply(200, self.state.stop_json(self.state.stop(plan, call.params["stop"])))

    def _h_stops_update(self, call: Call) -> Reply:
        patch = validate_stop_body(call.json, "stop.update", strict=self.config.strict)
        record = self.state.update_stop(self._plan(call), call.params["stop"], patch)
        return Reply(200, self.state.stop_json(record))

    def _h_stops_delete(self, call: Call) -> Reply:
        self.state.delete_stop(self._plan(call), call.params["stop"])
        return Reply(204)

    def _h_stops_live_create(self, call: Call) -> Reply:
        fields = validate_stop_body(call.json, "stop.create", strict=self.config.strict)
        pending, record = self.state.live_create(self._plan(call), fields)
        return Reply(200, {"pending": pending, "stop": self.state.stop_json(record)})

    def _h_stops_live_update(self, call: Call) -> Reply:
        patch = validate_stop_body(call.json, "stop.update", strict=self.config.strict)
        pending, record = self.state.live_update(self._plan(call), call.params["stop"], patch)
        return Reply(200, {"pending": pending, "stop": self.state.stop_json(record)})

    def _h_stops_live_delete(self, call: Call) -> Reply:
        pending = self.state.live_delete(self._plan(call), call.params["stop"])
        return Reply(200, {"pending": pending})

    # ------------------------------------------------------ unassigned stops

    def _h_unassigned_stops_create(self, call: Call) -> Reply:
        fields = validate_stop_body(call.json, "unassigned.create", strict=self.config.strict)
        return Reply(200, self.state.unassigned_json(self.state.create_unassigned(fields)))

    def _h_unassigned_stops_list(self, call: Call) -> Reply:
        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            external = filters.get("externalId")
            found, last, more = self.state.unassigned_stops.page(
                after, limit, None if external is None else (lambda s: s.external_id == external)
            )
            return [self.state.unassigned_json(record) for record in found], last, more

        items, token = self._paginate(call, "", _UNASSIGNED_LIST, fetch)
        return Reply(200, {"unassignedStops": items, "nextPageToken": token})

    def _h_unassigned_stops_import_batch(self, call: Call) -> Reply:
        body = expect_object(call.json, "")
        check_keys(body, ("unassignedStops", "depot"), "", self.config.strict)
        if "unassignedStops" not in body:
            raise Problem.invalid("unassignedStops", "is required")
        items = array(body["unassignedStops"], "unassignedStops", min_items=1, max_items=100)
        depot = None if body.get("depot") is None else reference(body["depot"], "depot", "depots")
        fields = [
            validate_stop_body(
                item, "unassigned.import", f"unassignedStops[{index}]", strict=self.config.strict
            )
            for index, item in enumerate(items)
        ]
        return Reply(200, self.state.import_unassigned(fields, depot))

    def _h_unassigned_stops_get(self, call: Call) -> Reply:
        record = self.state.unassigned_stop(call.params["unassigned_stop"])
        return Reply(200, self.state.unassigned_json(record))

    def _h_unassigned_stops_update(self, call: Call) -> Reply:
        patch = validate_stop_body(call.json, "unassigned.update", strict=self.config.strict)
        record = self.state.unassigned_stop(call.params["unassigned_stop"])
        return Reply(200, self.state.unassigned_json(self.state.update_unassigned(record, patch)))

    def _h_unassigned_stops_delete(self, call: Call) -> Reply:
        record = self.state.unassigned_stop(call.params["unassigned_stop"])
        self.state.unassigned_stops.remove(record.id)
        return Reply(204)

    # ------------------------------------------------------ reference lists

    def _h_depots_list(self, call: Call) -> Reply:
        depots = self.state.team.depots

        def fetch(after: int, limit: int, filters: dict[str, Any]) -> tuple[list[Any], int, bool]:
            chunk = depots[after : after + limit]
            return (
                [self.state.depot_json(d.id) for d in chunk],
                after + len(chunk),
                after + limit < len(depots),
            )

        items, token = self._paginate(call, "", _DEPOTS_LIST, fetch)
        return Reply(200, {"depots": items, "nextPageToken": token})

    def _h_depots_get(self, call: Call) -> Reply:
        return Reply(200, self.state.depot_json(call.params["depot"]))

    def _h_custom_stop_properties_list(self, call: Call) -> Reply:
        if self.config.strict and call.query:
            raise Problem.invalid(next(iter(call.query)), "is not a query parameter of this list")
        return Reply(200, {"customStopProperties": self.state.custom_stop_properties_json()})

    def _h_routes_get(self, call: Call) -> Reply:
        route = self.state.routes.get(call.params["route"])
        if route is None:
            raise Problem.not_found("Route not found", "route_not_found")
        return Reply(200, self.state.route_json(route))

    def _h_drivers_get(self, call: Call) -> Reply:
        driver = self.state.driver(call.params["driver"])
        if driver is None:
            raise Problem.not_found("Driver not found", "driver_not_found")
        return Reply(200, self.state.driver_json(driver))


class _MethodNotAllowed(Problem):
    def __init__(self, allowed: list[str]) -> None:
        super().__init__(
            405,
            f"Method not allowed; use {', '.join(allowed)}",
            "method_not_allowed",
            headers={"Allow": ", ".join(allowed)},
        )


@attrs.define
class _RecordBuilder:
    seq: int
    time: float
    method: str
    path: str
    route: str | None = None
    category: Category | None = None
    weight: int = 1
    status: int | None = None
    outcome: Outcome = "error"
    admitted: bool = False
    fault: str | None = None
    reason: str = ""

    def build(self) -> RequestRecord:
        return RequestRecord(
            self.seq,
            self.time,
            self.method,
            self.path,
            self.route,
            self.category,
            self.weight,
            self.status,
            self.outcome,
            self.admitted,
            self.fault,
            self.reason,
        )


def _filter_value(name: str, value: str) -> Any:
    if name in ("startsGte", "startsLte"):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is None:
            raise Problem.invalid(f"filter.{name}", f"must be a date YYYY-MM-DD, got {value!r}")
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise Problem.invalid(f"filter.{name}", f"is not a calendar date: {value!r}") from None
    if name == "done":
        if value not in ("true", "false"):
            raise Problem.invalid("filter.done", f"must be 'true' or 'false', got {value!r}")
        return value == "true"
    if name == "type" and value not in _OPERATION_TYPES:
        raise Problem.invalid("filter.type", f"must be one of {', '.join(_OPERATION_TYPES)}, got {value!r}")
    return string(value, f"filter.{name}")


def _import_weight(route: RouteSpec, body: bytes) -> int:
    """Stops in a batch import body: the weight of the 1,000 stops per minute rule."""
    if route.category is not Category.BATCH_IMPORT:
        return 1
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        return 0
    if isinstance(data, dict):
        data = data.get("unassignedStops")
    return len(data) if isinstance(data, list) else 0


def _json(status: int, body: Any) -> web.Response:
    if body is None:
        return web.Response(status=status)
    payload = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
    return web.Response(status=status, body=payload, content_type="application/json")


def _error(problem: Problem) -> web.Response:
    response = _json(problem.status, problem.body())
    response.headers.update(problem.headers)
    return response


def _drop(request: web.Request) -> None:
    transport = request.transport
    if transport is not None:
        transport.close()
    raise _Dropped
