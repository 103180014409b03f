"""v0.2b's client: the shared base client with v0.2b's service address and namespaces."""

from __future__ import annotations

from typing import Unpack, overload

from route_planning_async._checks import _ids
from route_planning_async._client import BaseClient, ClientSettings
from route_planning_async._docs import docstring_documented
from route_planning_async._versions import V0_2B
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

__all__ = ["DEFAULT_BASE_URL", "AnyResource", "RoutePlanningClient"]

DEFAULT_BASE_URL = "https://api.spoke.com" + V0_2B.base_path
"""The service address for v0.2b. ``ROUTE_PLANNING_BASE_URL`` overrides it."""

AnyResource = Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver
"""What ``client.get`` answers for a serialized id whose kind the type checker does not know."""


class RoutePlanningClient(BaseClient):
    """An asyncio client for the Route Planning Service API v0.2b.

    Use it as an async context manager; it shares one rate-limit scheduler between
    every task that uses it::

        async with RoutePlanningClient(api_key) as client:
            plan = await client.plans.create(title="Monday", starts=date(2026, 11, 23))

    Every setting is checked here: a bad one raises :class:`ConfigurationError`
    naming it, before anything is sent. ``help(RoutePlanningClient.__init__)``
    explains each one.

    Attributes:
        plans (Plans): Plans, their optimization, distribution and live editing.
        stops (Stops): Stops inside a plan, the batch import and the bulk importer.
        unassigned_stops (UnassignedStops): Stops of a depot that belong to no plan yet.
        operations (Operations): Long-running optimizations: get, wait, wait_many.
        depots (Depots): The team's depots (read only).
        custom_stop_properties (CustomStopProperties): The team's custom stop property
            definitions (read only).
        drivers (Drivers): The team's drivers: list, create, change, remove, import.
        routes (Routes): Routes of optimized plans (read only).
        raw (Raw): Any endpoint, answered as the HTTP response itself: status, headers, body.
    """

    default_base_url = DEFAULT_BASE_URL
    published_limits = V0_2B.limits

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


# The constructor shows the base client's text, written into the source by the docstring generator.
docstring_documented(
    __name__,
    "RoutePlanningClient.__init__",
    lambda lines, width, written: written(BaseClient.__module__, "BaseClient.__init__"),
)
