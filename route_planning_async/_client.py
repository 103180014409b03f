"""The client: owns (or borrows) the transport and is the one seam every request passes.

A resource method (``_resources.py``) builds a request; :meth:`RoutePlanningClient._execute`
hands it to the scheduler (``_scheduler.py``), which admits it into its
rate-limit category and calls the transport (``_transport.py``); the pure core
(``_core.py``) decodes the answer or raises. ``ARCHITECTURE.md`` draws the flow.
"""

from __future__ import annotations

import asyncio
import copy
import ipaddress
import logging
import math
import os
import ssl
import ssl as _ssl
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Self, overload

import aiohttp
import yarl

from route_planning_async._backends import RateLimitBackend
from route_planning_async._core import AuthScheme, Request, Response, auth_header, decode, user_agent
from route_planning_async._errors import ConfigurationError, RequestTimeoutError, RoutePlanningError
from route_planning_async._ids import (
    DepotId,
    DriverId,
    OperationId,
    PlanId,
    RouteId,
    StopId,
    UnassignedStopId,
)
from route_planning_async._limits import RateLimits
from route_planning_async._retry import RetryPolicy
from route_planning_async._scheduler import Clock, Scheduler, Send
from route_planning_async._stats import SchedulerStats
from route_planning_async._transport import AiohttpTransport, Transport
from route_planning_async._validators import UNSET, UnsetType
from route_planning_async.v0_2b._models import Depot, Driver, Operation, Plan, Route, Stop, UnassignedStop
from route_planning_async.v0_2b.resources import (
    CustomStopProperties,
    Depots,
    Drivers,
    Operations,
    Plans,
    Raw,
    Routes,
    Stops,
    UnassignedStops,
    get_by_serialized_id,
)

__all__ = ["API_KEY_ENV", "BASE_URL_ENV", "DEFAULT_BASE_URL", "AnyResource", "RoutePlanningClient"]

logger = logging.getLogger("route_planning_async")

DEFAULT_BASE_URL = "https://api.spoke.com/public/v0.2b"
"""The service address for v0.2b. ``ROUTE_PLANNING_BASE_URL`` overrides it."""

API_KEY_ENV = "ROUTE_PLANNING_API_KEY"
"""The environment variable the key is read from when the client is given none."""

BASE_URL_ENV = "ROUTE_PLANNING_BASE_URL"
"""The environment variable the service address is read from when the client is given none."""

AnyResource = Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver
"""What ``client.get`` answers for a serialized id whose kind the type checker does not know."""

_LOOPBACK_NAMES = {"localhost"}


def _checked_base_url(base_url: object, setting: str = "base_url") -> str:
    """The base URL without its trailing slash; HTTPS only, but for loopback hosts."""
    if not isinstance(base_url, str):
        raise ConfigurationError(f"{setting} must be a str, got {type(base_url).__name__}")
    if not base_url.strip():
        # An unset configuration variable must not quietly mean the production service.
        raise ConfigurationError(
            f"{setting} is empty; leave base_url out (None) for the default service address"
        )
    try:
        url = yarl.URL(base_url)
    except ValueError as exc:
        raise ConfigurationError(f"{setting} is not a valid URL: {exc}") from None
    # Quoted without credentials, query or fragment: any of them may hold a secret.
    shown = repr(str(url.with_user(None).with_query(None).with_fragment(None)) if url.is_absolute() else "…")
    if url.scheme not in ("https", "http") or not url.host:
        raise ConfigurationError(f"{setting} must be an absolute https:// URL, got {shown}")
    if url.user or url.password:
        raise ConfigurationError(f"{setting} must not carry credentials; pass api_key instead")
    if url.query_string or url.fragment or "?" in base_url or "#" in base_url:
        raise ConfigurationError(f"{setting} must not have a query or fragment: {shown}")
    if url.scheme == "http" and not _is_loopback(url.host):
        # The service rejects plain HTTP (contract, Authentication rule 4); only a
        # local test server on this machine may be spoken to without TLS.
        raise ConfigurationError(
            f"{setting} must use https://; plain http:// is only allowed for loopback hosts, got {shown}"
        )
    return str(url).rstrip("/")


def _checked_api_key(api_key: object) -> str:
    """The key, when it is a non-blank ``str`` that can go in a header as it is.

    ``None`` means ``ROUTE_PLANNING_API_KEY``.
    """
    # The message never quotes the key: a wrong setting may still be a real secret.
    if api_key is None:
        if API_KEY_ENV not in os.environ:
            raise ConfigurationError(f"no api_key given and {API_KEY_ENV} is not set")
        try:
            return _checked_api_key(os.environ[API_KEY_ENV])
        except ConfigurationError as exc:
            raise ConfigurationError(f"{API_KEY_ENV}: {exc}") from None
    if not isinstance(api_key, str):
        raise ConfigurationError(f"api_key must be a str, got {type(api_key).__name__}")
    if not api_key.strip():
        raise ConfigurationError("api_key must be a non-blank string")
    if any(ord(char) < 0x20 or ord(char) == 0x7F for char in api_key):
        # CR, LF or NUL would break (or inject into) the Authorization header.
        raise ConfigurationError("api_key must not contain control characters (CR, LF, NUL, tab...)")
    if api_key != api_key.strip():
        raise ConfigurationError("api_key must not start or end with whitespace")
    return api_key


def _checked_timeout(timeout: object) -> float | None:
    """Seconds for one attempt: finite and positive, or None to disable explicitly."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise ConfigurationError(
            f"timeout must be a number of seconds (or None to disable it), got {type(timeout).__name__}"
        )
    if not (math.isfinite(timeout) and timeout > 0):
        # aiohttp reads 0 (and NaN, and a negative) as "no timeout": a silent server would hang forever.
        raise ConfigurationError(
            f"timeout must be a finite, positive number of seconds (or None to disable it), got {timeout!r}"
        )
    return float(timeout)


def _check_instance(setting: str, value: object, expected: type | tuple[type, ...]) -> None:
    if value is not None and not isinstance(value, expected):
        names = " or ".join(t.__name__ for t in (expected if isinstance(expected, tuple) else (expected,)))
        raise ConfigurationError(f"{setting} must be a {names} (or None), got {type(value).__name__}")


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class RoutePlanningClient:
    """An asyncio client for the Route Planning Service API v0.2b.

    Use it as an async context manager; it shares one rate-limit scheduler between
    every task that uses it::

        async with RoutePlanningClient(api_key) as client:
            plan = await client.plans.create(title="Monday", starts=date(2026, 11, 23))

    Every setting is checked here: a bad one raises :class:`ConfigurationError`
    naming it, before anything is sent.

    Args:
        api_key: The team's API key, a non-blank ``str`` without control
            characters. It is sent only in the ``Authorization``
            header and never appears in ``repr()``, logs or exceptions. ``None``
            (the default) reads it from ``ROUTE_PLANNING_API_KEY``.
        base_url: The service address; ``http://`` is refused but for loopback hosts,
            and so are an empty string, a relative URL, a query and credentials.
            ``None`` (the default) means ``ROUTE_PLANNING_BASE_URL``, else the v0.2b service.
        auth: ``"basic"`` (the primary scheme) or ``"bearer"``.
        rate_limits: The client-side limits; the contract's by default.
        retry: How 429s, 5xx answers and connection errors are retried.
        rate_limit_backend: Where the limit state lives; in memory by default.
            A shared backend (Redis) lets many processes share one key's limits.
        session: An aiohttp session to borrow; it is left open on exit. Note that
            aiohttp re-sends a GET or DELETE once, unseen, over a fresh connection when a
            pooled one was closed; the client turns that off on the session it creates.
        ssl: An :class:`ssl.SSLContext` for a private CA. Verification stays on.
        timeout: Total seconds for one attempt of one request: finite and
            positive, or ``None`` to turn the timeout off.
        transport: Send every attempt through this :class:`Transport` instead
            of an aiohttp session (a test double, another HTTP library). It gets
            requests relative to ``base_url`` and without credentials, and is neither
            opened nor closed by the client; ``session`` and ``ssl`` do not apply.
        trace_configs: aiohttp :class:`aiohttp.TraceConfig` objects for the
            session the client creates (tracing, metrics: see the docs' OpenTelemetry
            recipe). A borrowed ``session`` keeps its own.

    Raises:
        ConfigurationError: A setting is invalid (the error names it).
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        auth: AuthScheme = "basic",
        rate_limits: RateLimits | None = None,
        retry: RetryPolicy | None = None,
        rate_limit_backend: RateLimitBackend | None = None,
        session: aiohttp.ClientSession | None = None,
        ssl: ssl.SSLContext | None = None,
        timeout: float | None = 60.0,
        transport: Transport | None = None,
        trace_configs: Sequence[aiohttp.TraceConfig] = (),
    ) -> None:
        api_key = _checked_api_key(api_key)
        if transport is not None and (session is not None or ssl is not None):
            raise ConfigurationError("give either transport= or session=/ssl=, not both")
        if trace_configs and (session is not None or transport is not None):
            raise ConfigurationError(
                "trace_configs= applies to the session the client creates; "
                "give them to your own session (or transport) instead"
            )
        if not all(isinstance(config, aiohttp.TraceConfig) for config in trace_configs):
            raise ConfigurationError("trace_configs must be aiohttp.TraceConfig objects")
        if base_url is not None:
            self._base_url = _checked_base_url(base_url)
        elif BASE_URL_ENV in os.environ:
            self._base_url = _checked_base_url(os.environ[BASE_URL_ENV], BASE_URL_ENV)
        else:
            self._base_url = DEFAULT_BASE_URL
        seconds = _checked_timeout(timeout)
        _check_instance("rate_limits", rate_limits, RateLimits)
        _check_instance("retry", retry, RetryPolicy)
        _check_instance("ssl", ssl, _ssl.SSLContext)
        _check_instance("session", session, aiohttp.ClientSession)
        if transport is not None and not callable(getattr(transport, "send", None)):
            raise ConfigurationError("transport must have an async send(request) method")
        self._headers = {
            "Authorization": auth_header(api_key, auth),
            "User-Agent": user_agent(),
            "Accept": "application/json",
        }
        self._ssl = ssl
        self._timeout = aiohttp.ClientTimeout(total=seconds)
        self._borrowed_session = session
        self._borrowed_transport = transport
        self._trace_configs = list(trace_configs)
        self._session: aiohttp.ClientSession | None = None
        self._transport: Transport | None = None
        self._entered = False
        self._scheduler = Scheduler(
            rate_limits if rate_limits is not None else RateLimits.default(),
            retry if retry is not None else RetryPolicy(),
            backend=rate_limit_backend,
        )
        # The client that owns the session; a view from with_options() is not it.
        self._owner = self
        self._call_timeout: float | UnsetType | None = UNSET
        self._call_retry: RetryPolicy | None = None
        self._bind_namespaces()

    def _bind_namespaces(self) -> None:
        self.plans = Plans(self)
        """Plans, their optimization, distribution and live editing."""
        self.stops = Stops(self)
        """Stops inside a plan, the batch import and the bulk importer."""
        self.unassigned_stops = UnassignedStops(self)
        """Stops of a depot that belong to no plan yet."""
        self.operations = Operations(self)
        """Long-running optimizations: get, wait, wait_many."""
        self.depots = Depots(self)
        """The team's depots (read only)."""
        self.custom_stop_properties = CustomStopProperties(self)
        """The team's custom stop property definitions (read only)."""
        self.drivers = Drivers(self)
        """The team's drivers: list, create, change, remove, import."""
        self.routes = Routes(self)
        """Routes of optimized plans (read only)."""
        self.raw = Raw(self)
        """Any endpoint, answered as the HTTP response itself: status, headers, body."""

    def __repr__(self) -> str:
        if self._owner is not self:
            return f"<RoutePlanningClient base_url={self._base_url!r} (with options)>"
        return f"<RoutePlanningClient base_url={self._base_url!r}>"

    def with_options(
        self,
        *,
        timeout: float | UnsetType | None = UNSET,
        retry: RetryPolicy | UnsetType = UNSET,
    ) -> RoutePlanningClient:
        """A view of this client whose calls use other settings.

        The view shares everything else with the client: its session, its
        scheduler (so its requests count against the same limits, in the same
        queues) and its learned limits. It needs no closing and cannot be
        entered; it works while the client is open. Options not given keep the
        client's (or the view's, for a view of a view)::

            slow = client.with_options(timeout=300)
            plan = await slow.plans.get(plan_id)
            patient = client.with_options(retry=RetryPolicy(attempts=10, cap=60))

        Args:
            timeout: Seconds for one attempt of each request, finite and
                positive, or ``None`` to turn the timeout off. With a transport of
                your own (``transport=``), an attempt that takes longer raises
                :class:`RequestTimeoutError` and is retried as a lost answer is.
            retry: The retry policy for the view's requests. How the
                category learns the service's limit stays the client's
                (``RetryPolicy.learning`` of the client's own policy).

        Returns:
            The view, a :class:`RoutePlanningClient`.

        Raises:
            ConfigurationError: A setting is invalid (the error names it).
        """
        view = copy.copy(self)
        if not isinstance(timeout, UnsetType):
            view._call_timeout = _checked_timeout(timeout)
        if not isinstance(retry, UnsetType):
            _check_instance("retry", retry, RetryPolicy)
            view._call_retry = retry
        view._bind_namespaces()
        return view

    @property
    def base_url(self) -> str:
        """The service address every path is appended to."""
        return self._base_url

    @property
    def rate_limits(self) -> RateLimits:
        """The client-side limits in force."""
        return self._scheduler.limits

    @property
    def stats(self) -> SchedulerStats:
        """Per category: requests sent, 429s, retries, time spent waiting, effective rate."""
        return self._scheduler.stats

    @property
    def _clock(self) -> Clock:
        """The scheduler's clock, which the workflows wait on."""
        return self._scheduler.clock

    async def __aenter__(self) -> Self:
        if self._owner is not self:
            raise RoutePlanningError(
                "a view from with_options() shares its client's session: open the client itself"
            )
        if self._entered:
            raise RoutePlanningError("this client is already open; create one client per context")
        self._entered = True
        if self._borrowed_transport is not None:
            self._transport = self._borrowed_transport
            return self
        transport: Transport
        if self._borrowed_session is not None:
            session = self._borrowed_session
            transport = AiohttpTransport(
                session, self._base_url, self._headers, ssl_context=self._ssl, timeout=self._timeout
            )
        else:
            # The session carries the headers and the timeout as its defaults,
            # which spares aiohttp merging them again on every request.
            session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=100),
                headers=self._headers,
                timeout=self._timeout,
                # No "Content-Type: application/octet-stream" on a POST without a body.
                skip_auto_headers=("Content-Type",),
                trace_configs=self._trace_configs or None,
            )
            transport = AiohttpTransport(session, self._base_url, {}, ssl_context=self._ssl, timeout=None)
            # aiohttp silently sends a GET or DELETE again when a pooled
            # connection turns out to be closed. The service would then see a
            # request the scheduler never counted, so that retry is left to the
            # scheduler, which counts every attempt. (A borrowed session keeps
            # its owner's setting.)
            session._retry_connection = False
        self._session = session
        self._transport = transport
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the session this client opened; a borrowed session or transport stays open.

        On a view from :meth:`with_options` this does nothing: the client owns the session.
        """
        if self._owner is not self:
            return
        session, self._session, self._transport = self._session, None, None
        await self._scheduler.aclose()
        if session is not None and session is not self._borrowed_session:
            await session.close()

    @overload
    async def get(self, serialized_id: PlanId) -> Plan: ...
    @overload
    async def get(self, serialized_id: StopId) -> Stop: ...
    @overload
    async def get(self, serialized_id: UnassignedStopId) -> UnassignedStop: ...
    @overload
    async def get(self, serialized_id: OperationId) -> Operation: ...
    @overload
    async def get(self, serialized_id: DepotId) -> Depot: ...
    @overload
    async def get(self, serialized_id: RouteId) -> Route: ...
    @overload
    async def get(self, serialized_id: DriverId) -> Driver: ...
    @overload
    async def get(self, serialized_id: str) -> AnyResource: ...

    async def get(self, serialized_id: str) -> AnyResource:
        """Fetch any resource by its serialized id, as the matching model.

        Args:
            serialized_id: ``plans/…``, ``plans/…/stops/…``,
                ``unassignedStops/…``, ``operations/…``, ``depots/…``, ``routes/…``
                or ``drivers/…``. The ids of the models are typed by their kind
                (``Plan.id`` is a :data:`PlanId`), so ``await client.get(plan.id)``
                is typed as a :class:`Plan`; a plain ``str`` gives the union of the
                models, to narrow with ``isinstance``.

        Returns:
            The model of the id's kind (:class:`Plan`, :class:`Stop`, ...).

        Raises:
            ValidationError: For a string that is no serialized id.
        """
        return await get_by_serialized_id(self, serialized_id)

    async def _execute(self, request: Request, *, on_sent: Callable[[], None] | None = None) -> Any:
        """Send ``request`` through the scheduler and return its decoded JSON data.

        ``on_sent`` is called whenever an attempt is handed to the transport: up
        to then the service cannot have seen the request (the bulk importer
        tells a batch that never left from one that may have been applied).
        """
        response = await self._send(request, on_sent=on_sent)
        return decode(request, response, base_url=self._base_url)

    async def _send(self, request: Request, *, on_sent: Callable[[], None] | None = None) -> Response:
        """Send ``request`` through the scheduler and return the final answer, whatever its status."""
        transport = self._owner._transport
        if transport is None:
            if self._owner._entered:
                raise RoutePlanningError("the client is not open (it was closed): nothing was sent")
            raise RoutePlanningError(
                "the client is not open: use 'async with RoutePlanningClient(...) as client:'"
            )
        send = transport.send if self._owner is self else self._send_with_timeout(transport)
        if on_sent is not None:
            send = _announcing(send, on_sent)
        return await self._scheduler.run(request, send, retry=self._call_retry)

    def _send_with_timeout(self, transport: Transport) -> Send:
        """The transport's ``send``, bounded by the view's timeout when it has one."""
        seconds = self._call_timeout
        if isinstance(seconds, UnsetType):
            return transport.send
        if isinstance(transport, AiohttpTransport):
            timeout = aiohttp.ClientTimeout(total=seconds)

            async def send_with_timeout(request: Request) -> Response:
                return await transport.send(request, client_timeout=timeout)

            return send_with_timeout
        if seconds is None:
            return transport.send
        base_url = self._base_url
        limit = seconds

        async def send_within(request: Request) -> Response:
            try:
                async with asyncio.timeout(limit):
                    return await transport.send(request)
            except TimeoutError:
                pass
            raise RequestTimeoutError(
                f"timed out after {limit:g} s",
                method=request.method,
                request_url=base_url + request.path,
                maybe_sent=True,
            )

        return send_within


def _announcing(send: Send, on_sent: Callable[[], None]) -> Send:
    """``send``, calling ``on_sent`` as each attempt is handed to it."""

    async def announced(request: Request) -> Response:
        on_sent()
        return await send(request)

    return announced
