"""Resource namespaces: ``client.plans``, ``client.stops`` and the rest.

Each method does the same three things, in this order: check every id and
input (raising :class:`~route_planning_async.ValidationError` before anything is
sent), build the request from the endpoint table (``_endpoints.ENDPOINTS``), and
hand it to ``client._execute``; the JSON answer comes back as a model.

Ids: plan methods take ``"plans/<id>"`` or a bare ``"<id>"``; stop methods
take the serialized stop id ``"plans/<planId>/stops/<stopId>"`` that every
:class:`~route_planning_async.Stop` carries.

Inputs are the typed classes of ``_inputs.py``. Updates take either the update
object or its fields as keywords (``stops.update(stop_id, notes="Ring twice")``).

The workflows built on these calls live in their own modules and are reached
from here, their options passed through once as keywords (``Unpack`` of the
workflow's options ``TypedDict``): ``plans.optimize_and_wait`` /
``plans.live_edit`` (``_workflows.py``), ``operations.wait`` /
``operations.wait_many`` (``_operations.py``), and ``stops.import_many`` /
``unassigned_stops.import_many`` (``_importer.py``, through the import targets
below). The workflows never see the client: they get the namespaces they call
(which satisfy their small protocols) and the scheduler's clock.
"""

from __future__ import annotations

import datetime
from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Callable,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Final, Protocol, TypeVar, Unpack

import attrs

from route_planning_async import _ids
from route_planning_async._converter import structure, unstructure
from route_planning_async._core import Request, decode
from route_planning_async._endpoints import ENDPOINTS
from route_planning_async._errors import RoutePlanningError, ValidationError
from route_planning_async._import_report import ImportReport
from route_planning_async._importer import ImportOptions, run_import, stop_key
from route_planning_async._inputs import (
    PlanInput,
    PlanUpdate,
    StopInput,
    StopUpdate,
    UnassignedStopInput,
    UnassignedStopUpdate,
    check_batch,
    check_no_depot,
    reoptimization_body,
)
from route_planning_async._limits import RateLimits
from route_planning_async._models import (
    CustomStopProperty,
    Depot,
    ImportResult,
    LiveChange,
    Operation,
    Plan,
    Stop,
    UnassignedStop,
)
from route_planning_async._operations import PollOptions, WaitManyOptions, wait, wait_many
from route_planning_async._pagination import FilterValue, Paginator, list_query
from route_planning_async._scheduler import Clock
from route_planning_async._validators import UNSET, UnsetType, a_or_an
from route_planning_async._workflows import LiveEdit, LiveEditOptions, live_edit, optimize_and_wait

__all__ = [
    "CustomStopProperties",
    "Depots",
    "Operations",
    "Plans",
    "Stops",
    "UnassignedStops",
    "get_by_serialized_id",
]

M = TypeVar("M")
U = TypeVar("U")

# The operation list's filters and their values (public API documentation,
# GET /operations: ``filter.done`` "true"/"false", ``filter.type`` "plan_optimization").
_OPERATION_FILTERS: Final = ("done", "type")
_OPERATION_TYPES: Final = frozenset({"plan_optimization"})

# Fields an update can never carry, and why (contract, Stops rule 2 and the
# unassigned stop update table).
_NOT_UPDATABLE: Final = {
    "address": "a stop's location cannot be updated; delete the stop and create a new one",
    "service_client_id": "cannot be updated (it is set on create and import only)",
}


def _update_body(cls: type[U], update: U | None, fields: Mapping[str, Any]) -> U:
    """The update object from either an instance of ``cls`` or its fields as keywords."""
    if update is not None:
        if fields:
            raise ValidationError("update", f"give a {cls.__name__} or keyword fields, not both")
        if not isinstance(update, cls):
            raise ValidationError("update", f"must be {a_or_an(cls.__name__)}, got {type(update).__name__}")
        return update
    known = attrs.fields_dict(cls)  # type: ignore[arg-type]
    for name in fields:
        if name not in known:
            raise ValidationError(name, _NOT_UPDATABLE.get(name, f"is not a field of {cls.__name__}"))
    return cls(**fields)


class _Client(Protocol):
    """What a namespace needs of the client that owns it (``RoutePlanningClient`` is one)."""

    @property
    def plans(self) -> Plans: ...
    @property
    def stops(self) -> Stops: ...
    @property
    def unassigned_stops(self) -> UnassignedStops: ...
    @property
    def operations(self) -> Operations: ...
    @property
    def depots(self) -> Depots: ...
    @property
    def rate_limits(self) -> RateLimits: ...
    @property
    def _clock(self) -> Clock: ...
    async def _execute(self, request: Request) -> Any: ...


class _Resource:
    """A namespace bound to one client."""

    __slots__ = ("_client",)

    def __init__(self, client: _Client) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"

    async def _fetch(self, request: Request, model: type[M]) -> M:
        data = await self._client._execute(request)
        if not isinstance(data, dict):
            # Every response body is a JSON object (contract, General conventions).
            raise RoutePlanningError(
                f"{request.describe()}: expected a JSON object, got {type(data).__name__}"
            )
        try:
            return structure(data, model)
        except (KeyError, TypeError, ValueError) as exc:
            raise RoutePlanningError(
                f"{request.describe()}: the answer does not have the shape of {model.__name__}: {exc!r}"
            ) from exc

    def _paginate(
        self,
        endpoint: str,
        model: type[M],
        key: str,
        *,
        path: Mapping[str, str] | None = None,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[M]:
        query = list_query(endpoint, filter=filter, max_page_size=max_page_size)
        return Paginator(
            self._client._execute, endpoint, model, key, path=path, query=query, page_token=page_token
        )


class Plans(_Resource):
    """Plans: create, list, change, optimize, distribute (``client.plans``)."""

    __slots__ = ()

    async def create(
        self,
        *,
        title: str,
        starts: datetime.date,
        drivers: Iterable[str] = (),
        depot: str | None = None,
    ) -> Plan:
        """Create a plan. ``drivers`` are ``drivers/<id>`` (or bare ids), at most 50
        after duplicates are dropped; without a ``depot`` the team's main depot is used."""
        drivers = list(drivers) if not isinstance(drivers, str) else drivers
        body = PlanInput(
            title=title,
            starts=starts,
            drivers=drivers if drivers else UNSET,
            depot=UNSET if depot is None else depot,
        )
        request = ENDPOINTS["plans.create"].request(json=unstructure(body))
        return await self._fetch(request, Plan)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Plan]:
        """The team's plans, lazily. Filters: ``title``, ``startsGte`` (a date) ...;
        ``max_page_size`` 1..20 (the service's default is 10)."""
        return self._paginate(
            "plans.list",
            Plan,
            "plans",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, plan_id: str) -> Plan:
        """One plan by id."""
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.get"].request(path), Plan)

    async def update(
        self,
        plan_id: str,
        update: PlanUpdate | None = None,
        /,
        *,
        title: str | UnsetType = UNSET,
        starts: datetime.date | UnsetType = UNSET,
        drivers: Iterable[str] | UnsetType = UNSET,
        depot: str | UnsetType | None = UNSET,
    ) -> Plan:
        """Change the fields given (a :class:`PlanUpdate`, or keywords); ``drivers``
        replaces the whole list. A plan that is not writable is changed through the
        live endpoints instead."""
        path = {"plan": _ids.plan_id(plan_id)}
        given = {
            name: value
            for name, value in (("title", title), ("starts", starts), ("drivers", drivers), ("depot", depot))
            if not isinstance(value, UnsetType)
        }
        body = _update_body(PlanUpdate, update, given)
        request = ENDPOINTS["plans.update"].request(path, json=unstructure(body))
        return await self._fetch(request, Plan)

    async def delete(self, plan_id: str) -> None:
        """Delete a plan and all of its routes; it cannot be undone."""
        path = {"plan": _ids.plan_id(plan_id)}
        await self._client._execute(ENDPOINTS["plans.delete"].request(path))

    async def optimize(self, plan_id: str) -> Operation:
        """Start optimizing the plan; poll the returned operation until ``done``.
        Small plans may come back already done."""
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.optimize"].request(path), Operation)

    async def distribute(self, plan_id: str) -> Plan:
        """Send the optimized plan's routes to its drivers."""
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.distribute"].request(path), Plan)

    async def reoptimize(self, plan_id: str, *, optimization_type: str | None = None) -> Operation:
        """Re-optimize after live changes. ``optimization_type`` is a
        :class:`ReoptimizationType` value; without it the service's default
        (``reorder_changed_stops``) applies."""
        path = {"plan": _ids.plan_id(plan_id)}
        body = reoptimization_body(optimization_type)
        request = ENDPOINTS["plans.reoptimize"].request(path, json=body)
        return await self._fetch(request, Operation)

    async def redistribute(self, plan_id: str) -> Plan:
        """Apply the re-optimized live changes and send the routes to the drivers."""
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.redistribute"].request(path), Plan)

    async def save(self, plan_id: str) -> None:
        """Apply the re-optimized live changes without distributing (the service answers 204)."""
        path = {"plan": _ids.plan_id(plan_id)}
        await self._client._execute(ENDPOINTS["plans.save"].request(path))

    async def optimize_and_wait(self, plan_id: str, **options: Unpack[PollOptions]) -> Operation:
        """Optimize the plan and wait for the finished operation; if the plan is
        already being optimized, wait for that optimization instead. Options:
        ``timeout``, ``poll_interval``, ``max_poll_interval`` (see
        :func:`_workflows.optimize_and_wait`)."""
        client = self._client
        return await optimize_and_wait(self, client.operations, plan_id, clock=client._clock, **options)

    def live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit]:
        """Live-edit a plan that is not writable; on a clean exit the changes are
        re-optimized and redistributed (or saved). Options: ``distribute``,
        ``optimization_type``, ``timeout``, ``poll_interval``, ``max_poll_interval``
        (see :func:`_workflows.live_edit`)::

            async with client.plans.live_edit(plan_id) as edit:
                await edit.update(stop_id, notes="Ring twice")
        """
        client = self._client
        return live_edit(self, client.stops, client.operations, plan_id, clock=client._clock, **options)


def _operation_filter(filter: Mapping[str, FilterValue] | None) -> dict[str, FilterValue] | None:
    """The operation list's filter, checked: ``done`` a bool, ``type`` a known operation type."""
    if filter is None:
        return None
    if not isinstance(filter, Mapping):
        raise ValidationError("filter", f"must be a mapping of name to value, got {type(filter).__name__}")
    checked: dict[str, FilterValue] = {}
    for name, value in filter.items():
        if name == "done":
            if not isinstance(value, bool):
                raise ValidationError("filter[done]", f"must be True or False, got {value!r}")
        elif name == "type":
            if value not in _OPERATION_TYPES:
                names = ", ".join(sorted(_OPERATION_TYPES))
                raise ValidationError("filter[type]", f"must be one of {names}, got {value!r}")
        else:
            names = " and ".join(_OPERATION_FILTERS)
            raise ValidationError("filter", f"the operation list filters on {names} only, got {name!r}")
        checked[name] = value
    return checked


def _stop_path(stop_id: str) -> dict[str, str]:
    plan, stop = _ids.stop_ref(stop_id)
    return {"plan": plan, "stop": stop}


def _checked(value: object, cls: type[M], field: str) -> M:
    if not isinstance(value, cls):
        raise ValidationError(field, f"must be {a_or_an(cls.__name__)}, got {type(value).__name__}")
    return value


class Stops(_Resource):
    """Stops inside a plan (``client.stops``)."""

    __slots__ = ()

    async def create(self, plan_id: str, stop: StopInput) -> Stop:
        """Add one stop to a writable plan."""
        path = {"plan": _ids.plan_id(plan_id)}
        body = unstructure(_checked(stop, StopInput, "stop"))
        return await self._fetch(ENDPOINTS["stops.create"].request(path, json=body), Stop)

    def list(
        self,
        plan_id: str,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Stop]:
        """The plan's stops, lazily. Filter: ``externalId``; ``max_page_size`` 1..10."""
        return self._paginate(
            "stops.list",
            Stop,
            "stops",
            path={"plan": _ids.plan_id(plan_id)},
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, stop_id: str) -> Stop:
        """One stop by its serialized id ``plans/<planId>/stops/<stopId>``."""
        return await self._fetch(ENDPOINTS["stops.get"].request(_stop_path(stop_id)), Stop)

    async def update(self, stop_id: str, update: StopUpdate | None = None, /, **fields: Any) -> Stop:
        """Change the fields given (a :class:`StopUpdate`, or its fields as keywords).
        The location and ``service_client_id`` cannot be changed."""
        path = _stop_path(stop_id)
        body = unstructure(_update_body(StopUpdate, update, fields))
        return await self._fetch(ENDPOINTS["stops.update"].request(path, json=body), Stop)

    async def delete(self, stop_id: str) -> None:
        """Delete a stop and all its data; it cannot be undone."""
        await self._client._execute(ENDPOINTS["stops.delete"].request(_stop_path(stop_id)))

    async def import_batch(self, plan_id: str, stops: Sequence[StopInput]) -> ImportResult:
        """Import 1 to 100 stops in one request. Stops that fail are reported in
        ``failed`` and do not fail the call."""
        return await self._fetch(self._import_request(plan_id, stops), ImportResult)

    def _import_request(self, plan_id: str, stops: Sequence[StopInput]) -> Request:
        path = {"plan": _ids.plan_id(plan_id)}
        items = check_batch(stops, StopInput)
        return ENDPOINTS["stops.import_batch"].request(
            path, json=[unstructure(item) for item in items], weight=len(items)
        )

    async def import_many(
        self,
        plan_id: str,
        stops: Iterable[StopInput] | AsyncIterable[StopInput],
        **options: Unpack[ImportOptions],
    ) -> ImportReport[StopInput]:
        """Import any number of stops into a plan, streamed in batches, each exactly
        once; options as in :class:`_importer.ImportOptions` (see :func:`_importer.run_import`)."""
        target = _PlanStopsTarget(self, _ids.plan_id(plan_id))
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)

    async def live_create(self, plan_id: str, stop: StopInput) -> LiveChange:
        """Add a stop to a plan that is not writable; it is applied by
        ``plans.reoptimize`` and then ``plans.redistribute`` or ``plans.save``."""
        path = {"plan": _ids.plan_id(plan_id)}
        body = unstructure(_checked(stop, StopInput, "stop"))
        return await self._fetch(ENDPOINTS["stops.live_create"].request(path, json=body), LiveChange)

    async def live_update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Any
    ) -> LiveChange:
        """Change a stop of a plan that is not writable (applied like ``live_create``)."""
        path = _stop_path(stop_id)
        body = unstructure(_update_body(StopUpdate, update, fields))
        return await self._fetch(ENDPOINTS["stops.live_update"].request(path, json=body), LiveChange)

    async def live_delete(self, stop_id: str) -> LiveChange:
        """Remove a stop of a plan that is not writable (applied like ``live_create``)."""
        return await self._fetch(ENDPOINTS["stops.live_delete"].request(_stop_path(stop_id)), LiveChange)


class UnassignedStops(_Resource):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``)."""

    __slots__ = ()

    async def create(self, stop: UnassignedStopInput) -> UnassignedStop:
        """Create one unassigned stop."""
        body = unstructure(_checked(stop, UnassignedStopInput, "stop"))
        return await self._fetch(ENDPOINTS["unassigned_stops.create"].request(json=body), UnassignedStop)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[UnassignedStop]:
        """The team's unassigned stops, lazily. ``max_page_size`` 1..20 (default 20)."""
        return self._paginate(
            "unassigned_stops.list",
            UnassignedStop,
            "unassignedStops",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, unassigned_stop_id: str) -> UnassignedStop:
        """One unassigned stop, by ``unassignedStops/<id>`` or ``<id>``."""
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        return await self._fetch(ENDPOINTS["unassigned_stops.get"].request(path), UnassignedStop)

    async def update(
        self, unassigned_stop_id: str, update: UnassignedStopUpdate | None = None, /, **fields: Any
    ) -> UnassignedStop:
        """Change the fields given (an :class:`UnassignedStopUpdate`, or keywords).
        The location and ``service_client_id`` cannot be changed."""
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        body = unstructure(_update_body(UnassignedStopUpdate, update, fields))
        request = ENDPOINTS["unassigned_stops.update"].request(path, json=body)
        return await self._fetch(request, UnassignedStop)

    async def delete(self, unassigned_stop_id: str) -> None:
        """Delete an unassigned stop; it cannot be undone."""
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        await self._client._execute(ENDPOINTS["unassigned_stops.delete"].request(path))

    async def import_batch(
        self, stops: Sequence[UnassignedStopInput], *, depot: str | None = None
    ) -> ImportResult:
        """Import 1 to 100 unassigned stops in one request.

        The contract does not show this call; it follows the public API
        documentation: ``POST /unassignedStops:import`` with the body
        ``{"unassignedStops": [...], "depot": "depots/<id>"}``. The depot is
        given once for the whole batch (it biases geocoding), so the stops must
        not carry their own; without one the team's main depot is used.
        """
        return await self._fetch(self._import_request(stops, depot), ImportResult)

    def _import_request(self, stops: Sequence[UnassignedStopInput], depot: str | None) -> Request:
        items = check_batch(stops, UnassignedStopInput)
        for index, item in enumerate(items):
            check_no_depot(item, f"stops[{index}]")
        body: dict[str, Any] = {"unassignedStops": [unstructure(item) for item in items]}
        if depot is not None:
            body["depot"] = _ids.depot_ref(depot)
        return ENDPOINTS["unassigned_stops.import_batch"].request(json=body, weight=len(items))

    async def import_many(
        self,
        stops: Iterable[UnassignedStopInput] | AsyncIterable[UnassignedStopInput],
        *,
        depot: str | None = None,
        **options: Unpack[ImportOptions],
    ) -> ImportReport[UnassignedStopInput]:
        """Import any number of unassigned stops, streamed in batches, each exactly
        once; options as in :class:`_importer.ImportOptions`. The ``depot``
        (``depots/<id>``; None: the team's main depot) is shared by every stop,
        so the stops themselves must not set one (see :class:`_UnassignedStopsTarget`)."""
        target = _UnassignedStopsTarget(self, _ids.depot_ref(depot) if depot is not None else None)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)


class Operations(_Resource):
    """Long-running optimizations (``client.operations``)."""

    __slots__ = ()

    async def get(self, operation_id: str) -> Operation:
        """One operation, by ``operations/<id>`` or ``<id>``; poll it until ``done``."""
        path = {"operation": _ids.operation_id(operation_id)}
        return await self._fetch(ENDPOINTS["operations.get"].request(path), Operation)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Operation]:
        """The team's operations, lazily (read category, one request per page).

        The contract does not show this call; it follows the public API
        documentation: ``GET /operations`` with ``filter[done]`` (``True`` or
        ``False``, sent as ``"true"``/``"false"``) and ``filter[type]``
        (``"plan_optimization"``), ``max_page_size`` 1..20 (the service's
        default is 20); the answer is ``{operations, nextPageToken}``. Other
        filter names are refused. The documentation gives no order, so do not
        rely on one::

            running = client.operations.list(filter={"done": False, "type": "plan_optimization"})
            async for operation in running:
                print(operation.metadata.target_plan_id)
        """
        return self._paginate(
            "operations.list",
            Operation,
            "operations",
            filter=_operation_filter(filter),
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def wait(self, operation: Operation | str, **options: Unpack[PollOptions]) -> Operation:
        """Poll one operation until it is finished. Options: ``timeout``,
        ``poll_interval``, ``max_poll_interval`` (see :func:`_operations.wait`)."""
        return await wait(self, operation, clock=self._client._clock, **options)

    def wait_many(
        self, operations: Iterable[Operation | str], **options: Unpack[WaitManyOptions]
    ) -> AsyncGenerator[Operation, None]:
        """Yield operations as they finish, from one shared poll loop. Options:
        ``read_share``, ``raise_on_failure``, ``timeout``, ``poll_interval``,
        ``max_poll_interval`` (see :func:`_operations.wait_many`)."""
        client = self._client
        return wait_many(self, operations, clock=client._clock, limits=client.rate_limits, **options)


class Depots(_Resource):
    """The team's depots, read only (``client.depots``)."""

    __slots__ = ()

    def list(self, *, max_page_size: int | None = None, page_token: str | None = None) -> Paginator[Depot]:
        """Every depot, lazily. ``max_page_size`` 1..20 (public API documentation)."""
        return self._paginate(
            "depots.list", Depot, "depots", max_page_size=max_page_size, page_token=page_token
        )

    async def get(self, depot_id: str) -> Depot:
        """One depot, by ``depots/<id>`` or ``<id>``."""
        path = {"depot": _ids.depot_id(depot_id)}
        return await self._fetch(ENDPOINTS["depots.get"].request(path), Depot)


class CustomStopProperties(_Resource):
    """The team's custom stop property definitions, read only."""

    __slots__ = ()

    def list(self) -> Paginator[CustomStopProperty]:
        """Every definition (at most 3 per team; one page)."""
        return self._paginate("custom_stop_properties.list", CustomStopProperty, "customStopProperties")


_SERIALIZED_ID_RULE: Final = (
    "must be plans/<id>, plans/<id>/stops/<id>, unassignedStops/<id>, operations/<id> or depots/<id>"
)


async def get_by_serialized_id(
    client: _Client, serialized_id: str
) -> Plan | Stop | UnassignedStop | Operation | Depot:
    """Fetch any resource by its serialized id, as the matching model
    (contract, General conventions: GET ``{base_url}/<serialized id>``)."""
    given: object = serialized_id
    parts = given.split("/") if isinstance(given, str) else []
    match parts:
        case ["plans", _]:
            return await client.plans.get(serialized_id)
        case ["plans", _, "stops", _]:
            return await client.stops.get(serialized_id)
        case ["unassignedStops", _]:
            return await client.unassigned_stops.get(serialized_id)
        case ["operations", _]:
            return await client.operations.get(serialized_id)
        case ["depots", _]:
            return await client.depots.get(serialized_id)
    raise ValidationError("serialized_id", f"{_SERIALIZED_ID_RULE}, got {serialized_id!r}")


# Import targets: where the bulk importer (``_importer.run_import``) sends its batches.


async def _send_tracked(resource: _Resource, request: Request, on_sent: Callable[[], None]) -> ImportResult:
    """Send ``request`` as ``_fetch`` does, calling ``on_sent`` when it is handed to the transport.

    The importer tells a batch that never left (it waited for capacity when the
    import was cancelled, the client was closed, the rate-limit backend failed)
    from one that may have reached the service. A client without the
    scheduler seam (a test double) counts every request as sent.
    """
    client = resource._client
    scheduler = getattr(client, "_scheduler", None)
    transport = getattr(client, "_transport", None)
    if scheduler is None:
        on_sent()
        return await resource._fetch(request, ImportResult)
    if transport is None:
        raise RoutePlanningError("the client is not open (it was closed): the batch was not sent")
    send = transport.send

    async def marked(attempt: Request) -> Any:
        on_sent()
        return await send(attempt)

    response = await scheduler.run(request, marked)
    data = decode(request, response, base_url=getattr(client, "base_url", ""))
    if not isinstance(data, dict):
        raise RoutePlanningError(f"{request.describe()}: expected a JSON object, got {type(data).__name__}")
    try:
        return structure(data, ImportResult)
    except (KeyError, TypeError, ValueError) as exc:
        raise RoutePlanningError(
            f"{request.describe()}: the answer does not have the shape of ImportResult: {exc!r}"
        ) from exc


_LIST_PAGE = 10
"""Stops per page of the plan's stop list (its largest page, public API documentation)."""


@attrs.frozen
class _PlanStopsTarget:
    """The stops of one plan, as a bulk import target; the key is ``recipient.external_id``."""

    item_type: ClassVar[type[StopInput]] = StopInput
    key_field: ClassVar[str] = "recipient.external_id"
    stops: Stops
    plan_id: str

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    def check(self, item: StopInput, field: str) -> None:
        """Every valid :class:`StopInput` is accepted."""

    def key(self, item: StopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[StopInput], on_sent: Callable[[], None]) -> ImportResult:
        return await _send_tracked(self.stops, self.stops._import_request(self.plan_id, batch), on_sent)

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in self.stops.list(self.plan_id, filter={"externalId": external_id}):
            yield stop.id, stop.recipient.external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        async for page in self.stops.list(self.plan_id, max_page_size=_LIST_PAGE).pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items]

    async def delete(self, item_id: str) -> None:
        await self.stops.delete(item_id)


@attrs.frozen
class _UnassignedStopsTarget:
    """The team's unassigned stops, imported with one depot for every batch.

    The contract does not show this import; it follows the public API
    documentation: ``POST /unassignedStops:import`` with ``{unassignedStops,
    depot}``. Reconciliation uses ``GET /unassignedStops`` with
    ``filter[externalId]``: a found stop counts only when it carries the external
    id (and, when ``depot`` is given, belongs to that depot); should the service
    ignore the filter, the importer notices and reports the batch ``unknown``
    instead of guessing.
    """

    item_type: ClassVar[type[UnassignedStopInput]] = UnassignedStopInput
    id_prefix: ClassVar[str] = "unassignedStops/"
    key_field: ClassVar[str] = "recipient.external_id"
    unassigned_stops: UnassignedStops
    depot: str | None

    def check(self, item: UnassignedStopInput, field: str) -> None:
        check_no_depot(item, field)

    def key(self, item: UnassignedStopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[UnassignedStopInput], on_sent: Callable[[], None]) -> ImportResult:
        request = self.unassigned_stops._import_request(batch, self.depot)
        return await _send_tracked(self.unassigned_stops, request, on_sent)

    def _mine(self, stop: UnassignedStop) -> bool:
        return self.depot is None or not stop.depot or stop.depot == self.depot

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in self.unassigned_stops.list(filter={"externalId": external_id}):
            if self._mine(stop):
                yield stop.id, stop.recipient.external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        async for page in self.unassigned_stops.list().pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items if self._mine(stop)]

    async def delete(self, item_id: str) -> None:
        await self.unassigned_stops.delete(item_id)
