"""v0.2b's client: the shared base client with v0.2b's service address and namespaces."""

from __future__ import annotations

from typing import Unpack, overload

from route_planning_async import _ids
from route_planning_async._client import BaseClient, ClientSettings
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

    def __init__(self, api_key: str | None = None, **settings: Unpack[ClientSettings]) -> None:
        super().__init__(api_key, **settings)

    __init__.__doc__ = BaseClient.__init__.__doc__

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
