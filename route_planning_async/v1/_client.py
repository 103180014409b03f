"""v1's client: the shared base client with v1's service address, default limits and namespaces."""

from __future__ import annotations

from typing import Unpack, overload

from route_planning_async._checks import _ids
from route_planning_async._client import BaseClient, ClientSettings, by_serialized_id
from route_planning_async._docs import docstring_documented
from route_planning_async._versions import V1
from route_planning_async.v1._models import Depot, Driver, Operation, Plan, Route, Stop, UnassignedStop
from route_planning_async.v1.resources import (
    CustomStopProperties,
    Depots,
    Drivers,
    Members,
    Operations,
    Plans,
    Raw,
    Routes,
    Stops,
    UnassignedStops,
)

__all__ = ["DEFAULT_BASE_URL", "AnyResource", "RoutePlanningClient"]

DEFAULT_BASE_URL = "https://api.spoke.com" + V1.base_path
"""The service address for v1. ``ROUTE_PLANNING_BASE_URL`` overrides it."""

AnyResource = Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver
"""What ``client.get`` answers for a serialized id whose kind the type checker does not know."""


class RoutePlanningClient(BaseClient):
    """An asyncio client for the Route Planning Service API v1.

    Use it as an async context manager; every task that uses it shares one
    rate-limit scheduler, at the public API documentation's limits
    (:meth:`RateLimits.public_docs`) unless ``rate_limits=`` says otherwise::

        async with RoutePlanningClient(api_key) as client:
            plan = await client.plans.create(PlanInput(title="Monday", starts=date(2026, 11, 23)))

    The constructor is v0.2b's (``help(RoutePlanningClient.__init__)``). A v0.2b
    and a v1 client of one key share one budget when they are given the same
    ``rate_limit_backend`` (an :class:`InMemoryBackend` in one process, Redis
    across processes) and the same ``rate_limits``.

    Attributes:
        plans (Plans): Plans (drivers as ids, route overrides), optimization, distribution, live editing.
        stops (Stops): Stops inside a plan, the batch and bulk imports, live calls, and the team-wide search.
        unassigned_stops (UnassignedStops): Stops of a depot in no plan yet, with their batch and
            bulk imports.
        operations (Operations): Long-running optimizations: list, get, cancel, wait, wait_many.
        depots (Depots): The team's depots: list, get, create, update, delete, set_main, import.
        members (Members): The team's members: create, update, delete, import.
        custom_stop_properties (CustomStopProperties): The team's custom stop property definitions
            (read only).
        drivers (Drivers): The team's drivers: list, create, change, remove, import.
        routes (Routes): Routes of optimized plans: list, get, and each route's stops (read only).
        raw (Raw): Any endpoint, answered as the HTTP response itself: status, headers, body.
    """

    default_base_url = DEFAULT_BASE_URL
    published_limits = V1.limits

    def __init__(self, api_key: str | None = None, **settings: Unpack[ClientSettings]) -> None:
        """Check every setting, before anything is sent.

        Args:
            api_key: The team's API key, a non-blank ``str`` without control
                characters. It is sent only in the ``Authorization``
                header and never appears in ``repr()``, logs or exceptions. ``None``
                (the default) reads it from ``ROUTE_PLANNING_API_KEY``.

        Keyword Args:
            base_url (str | None): The service address; ``http://`` is refused but for loopback hosts, and
                so are an empty string, a relative URL, a query and credentials. ``None`` (the default)
                means ``ROUTE_PLANNING_BASE_URL``, else the version's service.
            auth (AuthScheme): ``"basic"`` (the primary scheme, the default) or ``"bearer"``.
            rate_limits (RateLimits | None): The client-side limits. ``None`` (the default) reads
                ``ROUTE_PLANNING_LIMITS`` when it is set (``contract``, ``public-docs`` or a limits file),
                else takes the version's: v0.2b the contract's (:meth:`RateLimits.default`), v1 the public
                API documentation's (:meth:`RateLimits.public_docs`).
            retry (RetryPolicy | None): How 429s, 5xx answers and connection errors are retried.
            rate_limit_backend (RateLimitBackend | None): Where the limit state lives. ``None`` (the
                default): in memory, shared by the clients of this process that use the same origin and API
                key (one budget per process); give an :class:`InMemoryBackend` of its own to keep a client
                apart. A shared backend (Redis) lets many processes share one key's limits. A backend holds
                one budget: a client of another origin or API key than its first is refused
                (:class:`ConfigurationError`).
            session (aiohttp.ClientSession | None): An aiohttp session to borrow; it is left open on exit.
                Note that aiohttp re-sends a GET or DELETE once, unseen, over a fresh connection when a
                pooled one was closed; the client turns that off on the session it creates.
            ssl (ssl.SSLContext | None): An :class:`ssl.SSLContext` for a private CA. Verification stays on.
                ``None`` (the default), without ``session`` or ``transport``, trusts the CA file
                ``ROUTE_PLANNING_CA_FILE`` names when it is set, else the system's CAs.
            timeout (float | None): Total seconds for one attempt of one request: finite and positive, or
                ``None`` to turn the timeout off. Default 60.
            transport (Transport | None): Send every attempt through this :class:`Transport` instead of an
                aiohttp session (a test double, another HTTP library). It gets requests relative to
                ``base_url`` and without credentials, and is neither opened nor closed by the client;
                ``session`` and ``ssl`` do not apply.
            trace_configs (Sequence[aiohttp.TraceConfig]): aiohttp :class:`aiohttp.TraceConfig` objects for
                the session the client creates (tracing, metrics: see the docs' OpenTelemetry recipe). A
                borrowed ``session`` keeps its own.
            poll_interval (float | None): The ``poll_interval`` of every wait (``operations.wait``,
                ``wait_many``, ``plans.optimize_and_wait``, ``live_edit``) that gives none; ``None`` (the
                default): the waits' own default. ``Emulator.client()`` divides it by the emulator's
                speed-up.
            max_poll_interval (float | None): The ``max_poll_interval`` of every wait that gives none, as
                ``poll_interval``.

        Raises:
            ConfigurationError: A setting is invalid (the error names it).
        """
        super().__init__(api_key, **settings)

    def _bind_namespaces(self) -> None:
        # What each namespace is: the class docstring's Attributes section.
        self.plans = Plans(self)
        self.stops = Stops(self)
        self.unassigned_stops = UnassignedStops(self)
        self.operations = Operations(self)
        self.depots = Depots(self)
        self.members = Members(self)
        self.custom_stop_properties = CustomStopProperties(self)
        self.drivers = Drivers(self)
        self.routes = Routes(self)
        self.raw = Raw(self)

    @overload
    async def get(self, serialized_id: _ids.PlanId) -> Plan: ...
    @overload
    async def get(self, serialized_id: _ids.StopId) -> Stop: ...
    @overload
    async def get(self, serialized_id: _ids.UnassignedStopId) -> UnassignedStop: ...
    @overload
    async def get(self, serialized_id: _ids.OperationId) -> Operation: ...
    @overload
    async def get(self, serialized_id: _ids.DepotId) -> Depot: ...
    @overload
    async def get(self, serialized_id: _ids.RouteId) -> Route: ...
    @overload
    async def get(self, serialized_id: _ids.DriverId) -> Driver: ...
    @overload
    async def get(self, serialized_id: str) -> AnyResource: ...

    async def get(self, serialized_id: str) -> AnyResource:
        """Fetch any resource by its serialized id (``GET {base_url}/<serialized id>``), as its v1 model.

        Args:
            serialized_id: ``plans/…``, ``plans/…/stops/…``, ``unassignedStops/…``,
                ``operations/…``, ``depots/…``, ``routes/…`` or ``drivers/…`` (v1 cannot
                read a member back). A model's typed id gives its model's type.

        Returns:
            The v1 model of the id's kind.

        Raises:
            ValidationError: For a string that is no serialized id.
        """
        found: AnyResource = await by_serialized_id(self, serialized_id)
        return found


# The constructor shows the base client's text, written into the source by the docstring generator.
docstring_documented(
    __name__,
    "RoutePlanningClient.__init__",
    lambda lines, width, written: written(BaseClient.__module__, "BaseClient.__init__"),
)
