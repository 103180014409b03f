"""HTTP: the aiohttp application and the request pipeline every call goes through.

Every request goes through the same steps, in this order:

0. the link's inbound delay (``latency`` + jitter, ``_traffic/_link.py``): the request
   arrives, gets its sequence number and server time, after it;
1. the base path of a version served (``/public/v0.2b``), else 404;
2. authentication (Basic ``base64("<key>:")`` or Bearer), else 401;
3. the version's route table, else 404 (no such path) or 405 (wrong method);
4. path ids (1 to 50 of ``[A-Za-z0-9_-]``), else 400;
5. the rate limiter of the route's category (per API key; weight = stops in an import), else 429;
6. injected faults (``emu.faults``);
7. the body: ``Content-Type: application/json`` on any request with a body, else 400
   (code ``unsupported_content_type``; the contract documents 400, not 415, for
   rejected requests), valid JSON, else 400; no body on body-less calls (strict mode);
8. the version's handler (``v0_2b/_handlers.py``): validation (400), lookups (404),
   states (409, 410), then the change;
9. the link's outbound delay, then the answer is sent.

The pipeline knows no version: each :class:`ApiVersion` (``_wire/_api.py``) it mounts
brings its base path, route table and handlers. Every request, answered or not,
goes to the request log (``_traffic/_log.py``).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hmac
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from aiohttp import web

from route_planning_async._json import JSONInputError, read_json
from route_planning_async._rate_limits._limits import Category
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._rules._routes import RouteSpec
from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._traffic._faults import Fault, FaultInjector, FaultKind
from route_planning_async.emulator._traffic._limits import RateLimiter, retry_after_header
from route_planning_async.emulator._traffic._link import Link
from route_planning_async.emulator._traffic._log import Outcome, RequestLog, RequestRecord
from route_planning_async.emulator._wire._api import NO_BODY, ApiVersion, Call, Handler, OperationTimers

__all__ = ["MAX_BODY", "MAX_REQUEST_LINE", "PARSER_LINE_LIMIT", "EmulatorApp"]

MAX_BODY = 32 * 1024 * 1024
"""The largest request body read (32 MiB: a 100-stop import is far below it); a larger one gets a
JSON 413 in the official schemas' error shape, not aiohttp's text."""

MAX_REQUEST_LINE = 8190
"""The longest request line (``GET /path?query HTTP/1.1``) answered; a longer one gets the
service's JSON 400 (the official schemas' error shape), not the HTTP parser's text."""

PARSER_LINE_LIMIT = 1024 * 1024
"""What the HTTP parser reads of a request line, so the pipeline, not the parser,
refuses a line over :data:`MAX_REQUEST_LINE` (past this, the parser's own 400 remains)."""

logger = logging.getLogger("route_planning_async.emulator")


class _Dropped(Exception):
    """The connection was closed on purpose."""


class EmulatorApp:
    """The aiohttp application and the request pipeline around :class:`EmulatorState`.

    Args:
        config: The configuration in force.
        state: The records every version serves.
        limiter: The server's rate limits.
        faults: The scripted faults.
        log: Where every request is recorded.
        versions: The API versions served, each below its base path.
    """

    def __init__(
        self,
        config: EmulatorConfig,
        state: EmulatorState,
        limiter: RateLimiter,
        faults: FaultInjector,
        log: RequestLog,
        versions: Sequence[ApiVersion],
    ) -> None:
        self.config = config
        self.state = state
        self.limiter = limiter
        self.faults = faults
        self.log = log
        self.internal_errors: list[BaseException] = []
        """Exceptions the handlers raised (answered as 500); a correct emulator keeps it empty."""
        self._seq = 0
        self._timers = OperationTimers(config, state)
        self._mounts = [(version, version.handlers(config, state, self._timers)) for version in versions]
        self.link = Link(config.latency, config.latency_jitter, config.seed, config.sleep)
        """The network delays around every request."""

    def application(self) -> web.Application:
        """A fresh aiohttp application serving the emulator."""
        app = web.Application(client_max_size=MAX_BODY)
        # Every path, one with an encoded newline (%0A) included, reaches the pipeline and its
        # JSON answers ("." would leave those to aiohttp's own text 404).
        app.router.add_route("*", r"/{tail:[\s\S]*}", self._dispatch)
        return app

    def cancel_timers(self) -> None:
        """Stop the timers that finish delayed optimizations."""
        self._timers.cancel()

    # ----------------------------------------------------------------- pipeline

    def _mounted(self, raw_path: str) -> tuple[ApiVersion, Mapping[str, Handler]] | None:
        """The version whose base path ``raw_path`` lies below, and its handlers."""
        for version, handlers in self._mounts:
            base = version.base_path
            if raw_path == base or raw_path.startswith(base + "/"):
                return version, handlers
        return None

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
        await self.link.inbound()
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
        await self.link.outbound()
        return response

    async def _pipeline(self, request: web.Request, record: _RecordBuilder) -> web.StreamResponse:
        target = request.raw_path
        if len(f"{request.method} {target} HTTP/1.1") > MAX_REQUEST_LINE:
            record.outcome = "error"
            return _error(Problem.invalid("", f"the request line is longer than {MAX_REQUEST_LINE} bytes"))
        raw_path = request.rel_url.raw_path
        mounted = self._mounted(raw_path)
        if mounted is None:
            record.outcome = "not_found"
            return _error(Problem.not_found(f"No endpoint at {raw_path}"))
        version, handlers = mounted
        path = raw_path[len(version.base_path) :]
        record.path = path
        key = self._key_of(request.headers.get("Authorization"))
        if key is None:
            record.outcome = "unauthorized"
            return _error(Problem(401, "Unauthorized: send the API key as Basic or Bearer", "unauthorized"))
        try:
            route, params = version.routes.match(request.method, path)
        except Problem as problem:
            record.outcome = "not_found"
            return _error(problem)
        record.route, record.category = route.name, route.category
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            # aiohttp's own answer is plain text; every answer of the service is a JSON object.
            record.outcome = "error"
            return _error(
                Problem(413, f"Request body too large: at most {MAX_BODY} bytes", "payload_too_large")
            )
        weight = _weight(version, route, body)
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
        fault = self.faults.pick(record.seq, route.name, route.category, request.method, body, key)
        if fault is not None:
            record.fault = fault.kind.value
            record.outcome = "fault"
            early = await self._early_fault(request, fault, version, body)
            if early is not None:
                return early
        try:
            path_ids = version.routes.checked_path_ids(params)
            call = Call(route, path_ids, request.query, self._body(request, route, body), now)
            reply = handlers[route.name](call)
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

    def _body(self, request: web.Request, route: RouteSpec, body: bytes) -> Any:
        if not body:
            if route.body == "required":
                raise Problem.invalid("", "a JSON body is required")
            return NO_BODY
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
            return read_json(body)
        except JSONInputError as exc:
            reason = f"is not valid JSON: {exc.detail}" if exc.syntax else str(exc)
            raise Problem(400, f"The body {reason}", "invalid_json") from None

    async def _early_fault(
        self, request: web.Request, fault: Fault, version: ApiVersion, body: bytes
    ) -> web.StreamResponse | None:
        if fault.kind is FaultKind.DELAY:
            await asyncio.sleep(fault.delay)
            return None
        if fault.kind is FaultKind.HANG:
            await _held(request, fault.delay, until_closed=True)
            _drop(request)
        if fault.kind is FaultKind.LATE_COMMIT:
            # aiohttp does not cancel a handler whose client went away: the
            # request is carried out late, and its answer is lost.
            await _held(request, fault.delay, until_closed=False)
            return None
        if fault.kind is FaultKind.REJECT_STOP:
            return _error(_refusal(fault, *_import_items(version, body)))
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
        if fault.kind in (FaultKind.DROP_AFTER_COMMIT, FaultKind.LATE_COMMIT):
            _drop(request)
        if fault.kind is FaultKind.MALFORMED_JSON and response.status < 300:
            text = response.body if isinstance(response.body, bytes) else b""
            cut = text[: max(1, len(text) // 2)] if text else b'{"truncated'
            return web.Response(status=200, body=cut, content_type="application/json")
        return response


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


async def _held(request: web.Request, seconds: float, *, until_closed: bool) -> None:
    """Hold a request without an answer for ``seconds``, or until its client closes the connection."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        transport = request.transport
        if until_closed and (transport is None or transport.is_closing()):
            return
        await asyncio.sleep(min(0.01, max(0.0, end - loop.time())))


def _weight(version: ApiVersion, route: RouteSpec, body: bytes) -> int:
    """Stops in a batch import body (the weight of the 1,000 stops per minute rule); 1 for other calls."""
    if route.category is not Category.BATCH_IMPORT:
        return 1
    return len(_import_items(version, body)[1])


def _import_items(version: ApiVersion, body: bytes) -> tuple[str, list[Any]]:
    """The items of a batch import body, and the param path they sit under (none when it is no JSON)."""
    try:
        data = read_json(body)
    except JSONInputError:
        return "", []
    return version.import_items(data)


def _refusal(fault: Fault, prefix: str, stops: list[Any]) -> Problem:
    """The 400 of a ``reject_stop`` fault: it names the first stop holding the marker."""
    marker = fault.marker or ""
    index = next((i for i, stop in enumerate(stops) if marker in json.dumps(stop, ensure_ascii=False)), 0)
    if fault.param is None:
        return Problem.invalid("", f"the request was refused (injected: a stop holds {marker!r})")
    return Problem.invalid(f"{prefix}[{index}].{fault.param}", f"refused (injected: holds {marker!r})")


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
