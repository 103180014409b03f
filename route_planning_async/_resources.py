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
import re
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
from typing import Any, ClassVar, Final, Protocol, TypeVar, Unpack, cast

import attrs

from route_planning_async import _ids
from route_planning_async._converter import structure, unstructure
from route_planning_async._core import Request, Response, encode_body
from route_planning_async._endpoints import ENDPOINTS
from route_planning_async._errors import RoutePlanningError, ValidationError
from route_planning_async._import_report import FailedBatch, ImportReport, RejectedStop
from route_planning_async._importer import ImportOptions, ImportTarget, run_import, stop_key
from route_planning_async._inputs import (
    MAX_DRIVER_IMPORT_BATCH,
    DriverInput,
    DriverUpdate,
    DriverUpdateFields,
    PlanInput,
    PlanUpdate,
    StopInput,
    StopUpdate,
    StopUpdateFields,
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
    check_batch,
    check_driver_batch,
    check_no_depot,
    reoptimization_body,
)
from route_planning_async._limits import Category, RateLimits
from route_planning_async._models import (
    CustomStopProperty,
    Depot,
    Driver,
    DriverImportResult,
    ImportFailure,
    ImportResult,
    LiveChange,
    LiveImportResult,
    Operation,
    Plan,
    Route,
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
    "Drivers",
    "LiveImport",
    "LiveImportOptions",
    "Operations",
    "Plans",
    "Routes",
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
    "client_id": "cannot be updated (it is set on create and import only)",
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
    def drivers(self) -> Drivers: ...
    @property
    def routes(self) -> Routes: ...
    @property
    def rate_limits(self) -> RateLimits: ...
    @property
    def _clock(self) -> Clock: ...
    async def _execute(self, request: Request, *, on_sent: Callable[[], None] | None = None) -> Any: ...
    async def _send(self, request: Request) -> Response: ...


class _Resource:
    """A namespace bound to one client."""

    __slots__ = ("_client",)

    def __init__(self, client: _Client) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"

    async def _fetch(self, request: Request, model: type[M], on_sent: Callable[[], None] | None = None) -> M:
        """Send ``request`` and decode its answer as ``model`` (``on_sent``: see ``_execute``)."""
        data = await self._client._execute(request, on_sent=on_sent)
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
        """Create a plan.

        Args:
            title: The plan's title.
            starts: The day the plan starts.
            drivers: ``drivers/<id>`` (or bare ids), at most 50 after duplicates are dropped;
                none by default.
            depot: ``depots/<id>``; None: the team's main depot.

        Returns:
            The created :class:`Plan`.
        """
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
        """The team's plans, lazily.

        Args:
            filter: Filters by name, e.g. ``title`` or ``startsGte`` (a date); None: every plan.
            max_page_size: Items per page (1..20); None: the service's default (10).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "plans.list",
            Plan,
            "plans",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, plan_id: str) -> Plan:
        """One plan by id.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The :class:`Plan`.
        """
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
        """Change the fields given; a plan that is not writable is changed through the
        live endpoints instead.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            update: A :class:`PlanUpdate` with the fields to change; or give them as keywords.
            title: The new title.
            starts: The new start day.
            drivers: ``drivers/<id>`` (or bare ids); replaces the whole list.
            depot: ``depots/<id>``; None: the team's main depot.

        Returns:
            The changed :class:`Plan`.
        """
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
        """Delete a plan and all of its routes; it cannot be undone.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        await self._client._execute(ENDPOINTS["plans.delete"].request(path))

    async def optimize(self, plan_id: str) -> Operation:
        """Start optimizing the plan; poll the returned operation until ``done``.

        Small plans may come back already done. ``optimize_and_wait`` does both.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The optimization's :class:`Operation`.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.optimize"].request(path), Operation)

    async def distribute(self, plan_id: str) -> Plan:
        """Send the optimized plan's routes to its drivers.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The distributed :class:`Plan`.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.distribute"].request(path), Plan)

    async def reoptimize(self, plan_id: str, *, optimization_type: str | None = None) -> Operation:
        """Re-optimize after live changes.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            optimization_type: A :class:`ReoptimizationType` value; None: the service's
                default (``reorder_changed_stops``).

        Returns:
            The re-optimization's :class:`Operation`.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        body = reoptimization_body(optimization_type)
        request = ENDPOINTS["plans.reoptimize"].request(path, json=body)
        return await self._fetch(request, Operation)

    async def redistribute(self, plan_id: str) -> Plan:
        """Apply the re-optimized live changes and send the routes to the drivers.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The :class:`Plan`.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        return await self._fetch(ENDPOINTS["plans.redistribute"].request(path), Plan)

    async def save(self, plan_id: str) -> None:
        """Apply the re-optimized live changes without distributing (the service answers 204).

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        await self._client._execute(ENDPOINTS["plans.save"].request(path))

    async def optimize_and_wait(self, plan_id: str, **options: Unpack[PollOptions]) -> Operation:
        """Optimize the plan and wait for the finished operation.

        If the plan is already being optimized, wait for that optimization instead.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
            poll_interval (float): Seconds before the first poll (default 1.0); it grows after each poll.
            max_poll_interval (float): The cap of the growing delay (default 15.0).
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``). Default False: the operation goes on.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The optimization failed.
            OperationCanceledError: It was canceled.
            OperationTimeoutError: It did not finish within ``timeout`` seconds.
        """
        client = self._client
        return await optimize_and_wait(self, client.operations, plan_id, clock=client._clock, **options)

    def live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit]:
        """Live-edit a plan that is not writable.

        On a clean exit the changes are re-optimized and redistributed (or saved)::

            async with client.plans.live_edit(plan_id) as edit:
                await edit.update(stop_id, notes="Ring twice")

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Keyword Args:
            distribute (bool): ``:redistribute`` after the re-optimization (True, the default), or
                ``:save``.
            optimization_type (str | None): A :class:`ReoptimizationType` value; None: the service's default
                (``reorder_changed_stops``).
            timeout (float | None): Seconds for applying the changes (the re-optimization and the wait for
                it); :class:`OperationTimeoutError` after that, the changes still pending. None waits for
                ever.
            poll_interval (float): Seconds before the first poll (default 1.0); it grows after each poll.
            max_poll_interval (float): The cap of the growing delay (default 15.0).
            cancel_on_timeout (bool): On that timeout, also cancel the re-optimization on the service, so it
                does not apply the changes later on its own. Default False.

        Returns:
            An async context manager that gives a :class:`LiveEdit`.
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
        """Add one stop to a writable plan.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stop: The stop, a :class:`StopInput`.

        Returns:
            The created :class:`Stop`.
        """
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
        """The plan's stops, lazily.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            filter: ``{"externalId": ...}``; None: every stop.
            max_page_size: Items per page (1..10); None: the service's default.
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
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
        """One stop.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.

        Returns:
            The :class:`Stop`.
        """
        return await self._fetch(ENDPOINTS["stops.get"].request(_stop_path(stop_id)), Stop)

    async def update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> Stop:
        """Change the fields given; the location and ``client_id`` cannot be changed.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
                collected.
            driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
                ``allowed_drivers``.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>``; an update does not add
                them to the plan.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.

        Returns:
            The changed :class:`Stop`.
        """
        path = _stop_path(stop_id)
        body = unstructure(_update_body(StopUpdate, update, fields))
        return await self._fetch(ENDPOINTS["stops.update"].request(path, json=body), Stop)

    async def delete(self, stop_id: str) -> None:
        """Delete a stop and all its data; it cannot be undone.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
        """
        await self._client._execute(ENDPOINTS["stops.delete"].request(_stop_path(stop_id)))

    async def import_batch(self, plan_id: str, stops: Sequence[StopInput]) -> ImportResult:
        """Import 1 to 100 stops in one request.

        Stops that fail are reported in ``failed`` and do not fail the call.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: 1 to 100 :class:`StopInput`.

        Returns:
            The :class:`ImportResult`.
        """
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
        """Import any number of stops into a plan, streamed in batches, each exactly once.

        A batch whose outcome is ambiguous (no answer, a 5xx) is looked up by
        ``recipient.external_id`` before it is sent again.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the id of every created stop (packed, a few bytes per stop); False keeps
                only counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no
                external id to look them up by; they may be duplicated. Default False.
            batch_size (int): Stops per request, 1 to 100 (and at most a weighted rule's amount). Default
                100.
            max_in_flight (int | None): Batches sent concurrently; None: enough to fill one window of the
                batch import request rule (at least 2, at most 32).
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401 or a
                ``plan_not_writable`` stops it at once. Default 3.
            skip_existing (bool): Read the keys (``recipient.external_id``) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (``recipient.external_id``); such
                rows are then imported as if they had no key (no lookup, no skip). Default False: the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
                keeping the one the report names. Default False (they are only reported in
                :attr:`ImportReport.duplicates`).
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        target = _PlanStopsTarget(self, _ids.plan_id(plan_id))
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)

    async def live_create(self, plan_id: str, stop: StopInput) -> LiveChange:
        """Add a stop to a plan that is not writable.

        It is applied by ``plans.reoptimize`` and then ``plans.redistribute`` or ``plans.save``.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stop: The stop, a :class:`StopInput`.

        Returns:
            The :class:`LiveChange`.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        body = unstructure(_checked(stop, StopInput, "stop"))
        return await self._fetch(ENDPOINTS["stops.live_create"].request(path, json=body), LiveChange)

    async def live_update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> LiveChange:
        """Change a stop of a plan that is not writable (applied like ``live_create``).

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
                collected.
            driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
                ``allowed_drivers``.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>``; an update does not add
                them to the plan.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.

        Returns:
            The :class:`LiveChange`.
        """
        path = _stop_path(stop_id)
        body = unstructure(_update_body(StopUpdate, update, fields))
        return await self._fetch(ENDPOINTS["stops.live_update"].request(path, json=body), LiveChange)

    async def live_delete(self, stop_id: str) -> LiveChange:
        """Remove a stop of a plan that is not writable (applied like ``live_create``).

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.

        Returns:
            The :class:`LiveChange`.
        """
        return await self._fetch(ENDPOINTS["stops.live_delete"].request(_stop_path(stop_id)), LiveChange)

    async def live_import_batch(self, plan_id: str, stops: Sequence[StopInput]) -> LiveImportResult:
        """Import 1 to 100 stops into a live plan in one request (batch import category).

        Not in the contract; the public API documentation's ``POST
        /plans/<id>/stops:liveImport``. When the plan is not writable the stops
        join an editing session (``pending`` is True) and are applied like
        ``live_create``: ``plans.reoptimize``, then ``plans.redistribute`` or
        ``plans.save``. Stops that fail are reported in ``failed``.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: 1 to 100 :class:`StopInput`.

        Returns:
            The :class:`LiveImportResult`.
        """
        return await self._fetch(self._live_import_request(plan_id, stops), LiveImportResult)

    def _live_import_request(self, plan_id: str, stops: Sequence[StopInput]) -> Request:
        path = {"plan": _ids.plan_id(plan_id)}
        items = check_batch(stops, StopInput)
        return ENDPOINTS["stops.live_import_batch"].request(
            path, json=[unstructure(item) for item in items], weight=len(items)
        )

    async def live_import_many(
        self,
        plan_id: str,
        stops: Iterable[StopInput] | AsyncIterable[StopInput],
        **options: Unpack[LiveImportOptions],
    ) -> LiveImport:
        """Import any number of stops into a live plan, then apply them as ``live_edit`` does.

        The stops go through the bulk importer (batches of ``live_import_batch``,
        exactly once by ``recipient.external_id``). When an answer says the stops
        are ``pending`` (the plan was not writable and they joined its editing
        session), the import is applied once it has ended: ``:reoptimize``, wait,
        then ``:redistribute`` (or ``:save`` with ``distribute=False``). When the
        import raises, nothing is applied (the editing session keeps what was
        sent, as with ``live_edit``).

        Stops pending in an editing session are not listed by the service, so a
        batch of a plan that is not writable whose answer was lost cannot be
        reconciled: it is reported ``unknown``.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the id of every created stop (packed, a few bytes per stop); False keeps
                only counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no
                external id to look them up by; they may be duplicated. Default False.
            batch_size (int): Stops per request, 1 to 100 (and at most a weighted rule's amount). Default
                100.
            max_in_flight (int | None): Batches sent concurrently; None: enough to fill one window of the
                batch import request rule (at least 2, at most 32).
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401 or a
                ``plan_not_writable`` stops it at once. Default 3.
            skip_existing (bool): Read the keys (``recipient.external_id``) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (``recipient.external_id``); such
                rows are then imported as if they had no key (no lookup, no skip). Default False: the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
                keeping the one the report names. Default False (they are only reported in
                :attr:`ImportReport.duplicates`).
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.
            distribute (bool): ``:redistribute`` after the re-optimization (True, the default), or
                ``:save``.
            optimization_type (str | None): A :class:`ReoptimizationType` value; None: the service's default
                (``reorder_changed_stops``).
            timeout (float | None): Seconds for applying the changes (the re-optimization and the wait for
                it); :class:`OperationTimeoutError` after that, the changes still pending. None waits for
                ever.
            poll_interval (float): Seconds before the first poll (default 1.0); it grows after each poll.
            max_poll_interval (float): The cap of the growing delay (default 15.0).
            cancel_on_timeout (bool): On that timeout, also cancel the re-optimization on the service, so it
                does not apply the changes later on its own. Default False.

        Returns:
            A :class:`LiveImport`: the import's report and the live edit that applied it.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        live_keys = LiveEditOptions.__optional_keys__
        edit_options = cast(LiveEditOptions, {k: v for k, v in options.items() if k in live_keys})
        import_options = cast(ImportOptions, {k: v for k, v in options.items() if k not in live_keys})
        checked = _ids.plan_id(plan_id)
        client = self._client
        target = _LivePlanStopsTarget(self, client.plans, checked)
        context = live_edit(
            client.plans, self, client.operations, checked, clock=client._clock, **edit_options
        )
        async with context as edit:
            report = await run_import(
                target, stops, limits=client.rate_limits, clock=client._clock, **import_options
            )
            if target.pending:
                # The importer's batches are not live calls; one marker makes
                # the live edit apply the editing session on exit.
                edit.changes.append(LiveChange(pending=True))
        return LiveImport(report=report, pending=bool(target.pending), edit=edit)


class UnassignedStops(_Resource):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``)."""

    __slots__ = ()

    async def create(self, stop: UnassignedStopInput) -> UnassignedStop:
        """Create one unassigned stop.

        Args:
            stop: The stop, an :class:`UnassignedStopInput`.

        Returns:
            The created :class:`UnassignedStop`.
        """
        body = unstructure(_checked(stop, UnassignedStopInput, "stop"))
        return await self._fetch(ENDPOINTS["unassigned_stops.create"].request(json=body), UnassignedStop)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[UnassignedStop]:
        """The team's unassigned stops, lazily.

        Args:
            filter: Filters by name; None: every unassigned stop.
            max_page_size: Items per page (1..20); None: the service's default (20).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "unassigned_stops.list",
            UnassignedStop,
            "unassignedStops",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, unassigned_stop_id: str) -> UnassignedStop:
        """One unassigned stop.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.

        Returns:
            The :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        return await self._fetch(ENDPOINTS["unassigned_stops.get"].request(path), UnassignedStop)

    async def update(
        self,
        unassigned_stop_id: str,
        update: UnassignedStopUpdate | None = None,
        /,
        **fields: Unpack[UnassignedStopUpdateFields],
    ) -> UnassignedStop:
        """Change the fields given; the location and ``client_id`` cannot be changed.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
            update: An :class:`UnassignedStopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
                collected.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>``.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.
            depot (str | None): ``depots/<id>``; None means the team's main depot.

        Returns:
            The changed :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        body = unstructure(_update_body(UnassignedStopUpdate, update, fields))
        request = ENDPOINTS["unassigned_stops.update"].request(path, json=body)
        return await self._fetch(request, UnassignedStop)

    async def delete(self, unassigned_stop_id: str) -> None:
        """Delete an unassigned stop; it cannot be undone.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        await self._client._execute(ENDPOINTS["unassigned_stops.delete"].request(path))

    async def import_batch(
        self, stops: Sequence[UnassignedStopInput], *, depot: str | None = None
    ) -> ImportResult:
        """Import 1 to 100 unassigned stops in one request.

        The contract does not show this call; it follows the public API
        documentation: ``POST /unassignedStops:import`` with the body
        ``{"unassignedStops": [...], "depot": "depots/<id>"}``.

        Args:
            stops: 1 to 100 :class:`UnassignedStopInput`, none of which sets a depot.
            depot: ``depots/<id>``, given once for the whole batch (it biases
                geocoding); None: the team's main depot.

        Returns:
            The :class:`ImportResult`.
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
        """Import any number of unassigned stops, streamed in batches, each exactly once.

        Args:
            stops: :class:`UnassignedStopInput` objects, an iterable or an async
                iterable (read lazily); none of them sets a depot.
            depot: ``depots/<id>``, shared by every stop; None: the team's main depot.

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the id of every created stop (packed, a few bytes per stop); False keeps
                only counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no
                external id to look them up by; they may be duplicated. Default False.
            batch_size (int): Stops per request, 1 to 100 (and at most a weighted rule's amount). Default
                100.
            max_in_flight (int | None): Batches sent concurrently; None: enough to fill one window of the
                batch import request rule (at least 2, at most 32).
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401 or a
                ``plan_not_writable`` stops it at once. Default 3.
            skip_existing (bool): Read the keys (``recipient.external_id``) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (``recipient.external_id``); such
                rows are then imported as if they had no key (no lookup, no skip). Default False: the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
                keeping the one the report names. Default False (they are only reported in
                :attr:`ImportReport.duplicates`).
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        target = _UnassignedStopsTarget(self, _ids.depot_ref(depot) if depot is not None else None)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)


class Operations(_Resource):
    """Long-running optimizations (``client.operations``)."""

    __slots__ = ()

    async def get(self, operation_id: str) -> Operation:
        """One operation; poll it until ``done``.

        Args:
            operation_id: ``operations/<id>`` or ``<id>``.

        Returns:
            The :class:`Operation`.
        """
        path = {"operation": _ids.operation_id(operation_id)}
        return await self._fetch(ENDPOINTS["operations.get"].request(path), Operation)

    async def cancel(self, operation_id: Operation | str) -> Operation:
        """Cancel an operation that is not done yet.

        Not in the contract; the public API documentation's ``POST
        /operations/<id>:cancel`` (write category).

        Args:
            operation_id: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Returns:
            The :class:`Operation`, ``metadata.canceled`` set.

        Raises:
            ConflictError: The operation is already done (409 ``operation_already_done``).
        """
        given = operation_id.id if isinstance(operation_id, Operation) else operation_id
        path = {"operation": _ids.operation_id(given)}
        return await self._fetch(ENDPOINTS["operations.cancel"].request(path), Operation)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Operation]:
        """The team's operations, lazily (read category, one request per page).

        The contract does not show this call; it follows the public API
        documentation: ``GET /operations``; the answer is ``{operations,
        nextPageToken}``. The documentation gives no order, so do not rely on one::

            running = client.operations.list(filter={"done": False, "type": "plan_optimization"})
            async for operation in running:
                print(operation.metadata.target_plan_id)

        Args:
            filter: ``done`` (``True`` or ``False``, sent as ``"true"``/``"false"``)
                and ``type`` (``"plan_optimization"``); other names are refused.
            max_page_size: Items per page (1..20); None: the service's default (20).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
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
        """Poll one operation until it is finished.

        The delay between polls starts at ``poll_interval`` and grows up to ``max_poll_interval``.

        Args:
            operation: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
            poll_interval (float): Seconds before the first poll (default 1.0); it grows after each poll.
            max_poll_interval (float): The cap of the growing delay (default 15.0).
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``). Default False: the operation goes on.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The result is a failure (``code``, ``message``).
            OperationCanceledError: ``metadata.canceled`` is set.
            OperationTimeoutError: It was not finished after ``timeout`` seconds.
        """
        return await wait(self, operation, clock=self._client._clock, **options)

    def wait_many(
        self, operations: Iterable[Operation | str], **options: Unpack[WaitManyOptions]
    ) -> AsyncGenerator[Operation, None]:
        """Yield operations as they finish, from one shared poll loop.

        The loop polls the unfinished operations in turn, within ``read_share`` of
        the read category's rate, so waiting on many leaves room for other reads.

        Args:
            operations: :class:`Operation` objects or their ids.

        Keyword Args:
            read_share (float): The share (0 < share <= 1) of the read category's rate the poll loop may
                use. Default 0.5.
            raise_on_failure (bool): Raise at the first failed or canceled operation instead of yielding it.
                Default False.
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
            poll_interval (float): Seconds before the first poll (default 1.0); it grows after each poll.
            max_poll_interval (float): The cap of the growing delay (default 15.0).
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``). Default False: the operation goes on.

        Yields:
            Each operation once it is finished, in the order they finish.

        Raises:
            OperationTimeoutError: Some operation was not finished after ``timeout`` seconds.
            OptimizationFailedError: With ``raise_on_failure=True``, at the first failed operation.
            OperationCanceledError: With ``raise_on_failure=True``, at the first canceled operation.
        """
        client = self._client
        return wait_many(self, operations, clock=client._clock, limits=client.rate_limits, **options)


class Depots(_Resource):
    """The team's depots, read only (``client.depots``)."""

    __slots__ = ()

    def list(self, *, max_page_size: int | None = None, page_token: str | None = None) -> Paginator[Depot]:
        """Every depot, lazily.

        Args:
            max_page_size: Items per page (1..20, public API documentation); None: the service's default.
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "depots.list", Depot, "depots", max_page_size=max_page_size, page_token=page_token
        )

    async def get(self, depot_id: str) -> Depot:
        """One depot.

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.

        Returns:
            The :class:`Depot`.
        """
        path = {"depot": _ids.depot_id(depot_id)}
        return await self._fetch(ENDPOINTS["depots.get"].request(path), Depot)


class CustomStopProperties(_Resource):
    """The team's custom stop property definitions, read only."""

    __slots__ = ()

    def list(self) -> Paginator[CustomStopProperty]:
        """Every definition (at most 3 per team; one page)."""
        return self._paginate("custom_stop_properties.list", CustomStopProperty, "customStopProperties")

    async def get(self, custom_stop_property_id: str) -> CustomStopProperty:
        """One definition by its id.

        Public API documentation, ``GET /team/customStopProperties/<id>``.

        Args:
            custom_stop_property_id: The definition's id.

        Returns:
            The :class:`CustomStopProperty`.
        """
        path = {"custom_stop_property": _ids.custom_stop_property_id(custom_stop_property_id)}
        return await self._fetch(ENDPOINTS["custom_stop_properties.get"].request(path), CustomStopProperty)


# Fields a driver update can never carry, and why (public API documentation,
# PATCH /drivers/<id>: name, displayName, depots and routeOverrides only).
_DRIVER_NOT_UPDATABLE: Final = {
    "email": "a driver's e-mail cannot be changed (it is set on create and import only)",
    "phone": "a driver's phone cannot be changed (it is set on create and import only)",
    "active": "the API has no call that pauses or resumes a driver",
}


def _driver_filter(filter: Mapping[str, FilterValue] | None) -> dict[str, FilterValue] | None:
    """The driver list's filter, checked: ``active`` True or False, nothing else."""
    if filter is None:
        return None
    if not isinstance(filter, Mapping):
        raise ValidationError("filter", f"must be a mapping of name to value, got {type(filter).__name__}")
    for name, value in filter.items():
        if name != "active":
            raise ValidationError("filter", f"the driver list filters on active only, got {name!r}")
        if not isinstance(value, bool):
            raise ValidationError("filter[active]", f"must be True or False, got {value!r}")
    return dict(filter)


class Drivers(_Resource):
    """The team's drivers (``client.drivers``).

    Not in the contract; the public API documentation's ``/drivers`` paths.
    Driver create has a rate-limit category of its own (1 per second) and so
    has driver import (2 per minute); see :class:`Category`.
    """

    __slots__ = ()

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Driver]:
        """The team's drivers, lazily.

        Args:
            filter: ``{"active": True}`` or ``{"active": False}``; None: every driver.
            max_page_size: Items per page (1..50); None: the service's default (50).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "drivers.list",
            Driver,
            "drivers",
            filter=_driver_filter(filter),
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, driver_id: str) -> Driver:
        """One driver.

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.

        Returns:
            The :class:`Driver`.
        """
        path = {"driver": _ids.driver_id(driver_id)}
        return await self._fetch(ENDPOINTS["drivers.get"].request(path), Driver)

    async def create(self, driver: DriverInput) -> Driver:
        """Add one driver to the team (driver create category: 1 per second).

        For several drivers prefer ``import_batch`` or ``import_many``.

        Args:
            driver: The driver, a :class:`DriverInput`.

        Returns:
            The created :class:`Driver`.
        """
        body = unstructure(_checked(driver, DriverInput, "driver"))
        return await self._fetch(ENDPOINTS["drivers.create"].request(json=body), Driver)

    async def update(
        self, driver_id: str, update: DriverUpdate | None = None, /, **fields: Unpack[DriverUpdateFields]
    ) -> Driver:
        """Change the fields given: ``name``, ``display_name``, ``depots``, ``route_overrides``.

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.
            update: A :class:`DriverUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            name (str | None): Full name, 1 to 255 characters.
            display_name (str | None): Name shown in the apps, 1 to 255 characters.
            depots (Sequence[str] | None): 1 to 50 ``depots/<id>``; None: the team's main depot.
            route_overrides (RouteOverridesInput | None): Settings that override the route defaults for this
                driver.

        Returns:
            The changed :class:`Driver`.
        """
        path = {"driver": _ids.driver_id(driver_id)}
        for name in fields:
            if name in _DRIVER_NOT_UPDATABLE:
                raise ValidationError(name, _DRIVER_NOT_UPDATABLE[name])
        body = unstructure(_update_body(DriverUpdate, update, fields))
        return await self._fetch(ENDPOINTS["drivers.update"].request(path, json=body), Driver)

    async def delete(self, driver_id: str) -> None:
        """Remove a driver from the team (the service answers 204).

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.
        """
        path = {"driver": _ids.driver_id(driver_id)}
        await self._client._execute(ENDPOINTS["drivers.delete"].request(path))

    async def import_batch(self, drivers: Sequence[DriverInput]) -> DriverImportResult:
        """Import 1 to 50 drivers in one request (driver import category: 2 per minute).

        Drivers that fail are reported in ``failed`` and do not fail the call.

        Args:
            drivers: 1 to 50 :class:`DriverInput`.

        Returns:
            The :class:`DriverImportResult`.
        """
        return await self._fetch(self._import_request(drivers), DriverImportResult)

    def _import_request(self, drivers: Sequence[DriverInput]) -> Request:
        items = check_driver_batch(drivers)
        return ENDPOINTS["drivers.import_batch"].request(json=[unstructure(item) for item in items])

    async def import_many(
        self,
        drivers: Iterable[DriverInput] | AsyncIterable[DriverInput],
        **options: Unpack[ImportOptions],
    ) -> ImportReport[Any]:
        """Import any number of drivers, in batches of up to 50, each exactly once.

        The bulk importer of the stops, with the driver's e-mail, else its phone,
        as the natural key: after an ambiguous failure the team's drivers are
        listed and a driver that carries the key counts as created. Where the
        options below speak of stops, read drivers: ``batch_size`` is 1..50
        (default 50) and ``max_in_flight`` defaults to the driver import rule's
        amount (2 per minute). Validation errors of a stream name the row as
        ``stops[<position>]`` (the engine's naming).

        Args:
            drivers: :class:`DriverInput` objects, an iterable or an async iterable (read lazily).

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the id of every created stop (packed, a few bytes per stop); False keeps
                only counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no
                external id to look them up by; they may be duplicated. Default False.
            batch_size (int): Stops per request, 1 to 100 (and at most a weighted rule's amount). Default
                100.
            max_in_flight (int | None): Batches sent concurrently; None: enough to fill one window of the
                batch import request rule (at least 2, at most 32).
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401 or a
                ``plan_not_writable`` stops it at once. Default 3.
            skip_existing (bool): Read the keys (``recipient.external_id``) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (``recipient.external_id``); such
                rows are then imported as if they had no key (no lookup, no skip). Default False: the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
                keeping the one the report names. Default False (they are only reported in
                :attr:`ImportReport.duplicates`).
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.

        Returns:
            An :class:`ImportReport` of the given :class:`DriverInput` objects
            (typed ``ImportReport[Any]``), with ``drivers/<id>`` ids. While the
            import runs, the report an ``on_progress`` callback sees holds the
            engine's rows (``row.driver`` is the input); the counts are final either way.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        size: object = options.get("batch_size", MAX_DRIVER_IMPORT_BATCH)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_DRIVER_IMPORT_BATCH:
            raise ValidationError("batch_size", f"must be 1 to {MAX_DRIVER_IMPORT_BATCH}, got {size!r}")
        settings = options.copy()
        settings["batch_size"] = size
        if settings.get("max_in_flight") is None:
            rules = self._client.rate_limits.for_category(Category.DRIVER_IMPORT)
            amounts = [rule.amount for rule in rules if rule.per == "request"]
            settings["max_in_flight"] = max(2, min(amounts, default=2))
        target = _DriversTarget(self)
        rows: Iterable[_DriverRow] | AsyncIterable[_DriverRow]
        if isinstance(drivers, Sequence):
            rows = [_DriverRow.of(item, f"drivers[{index}]") for index, item in enumerate(drivers)]
        elif isinstance(drivers, AsyncIterable):
            rows = _driver_rows_async(drivers)
        else:
            rows = (_DriverRow.of(item, "driver") for item in drivers)
        client = self._client
        report = await run_import(
            # The engine's rows are typed as stop inputs; a _DriverRow has the
            # attributes it reads of them (see _DriverRow).
            cast("ImportTarget[Any]", target),
            rows,
            limits=client.rate_limits,
            clock=client._clock,
            **settings,
        )
        return _unwrapped(report)


class Routes(_Resource):
    """Routes of optimized plans, read only (``client.routes``); a plan's
    ``routes`` ids and a stop's ``route.id`` resolve here."""

    __slots__ = ()

    async def get(self, route_id: str) -> Route:
        """One route (public API documentation, ``GET /routes/<id>``).

        Args:
            route_id: ``routes/<id>`` or ``<id>``.

        Returns:
            The :class:`Route`.

        Raises:
            PermissionDeniedError: 403 ``route_inaccessible``, for a route older than the team may read.
        """
        path = {"route": _ids.route_id(route_id)}
        return await self._fetch(ENDPOINTS["routes.get"].request(path), Route)


class Raw(_Resource):
    """Any endpoint, answered as the HTTP response itself (``client.raw``).

    For what the models do not show: the status and headers of an answer, a
    field this version does not model, an endpoint newer than the library.
    Requests still pass the scheduler (limits, queues, retries of 429s, 5xx
    and lost connections), in the category of the endpoint table that matches
    the method and path; a path the table does not know needs ``category=``.
    The answer is returned whatever its status: nothing is raised for an
    error status or decoded.
    """

    __slots__ = ()

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, str] | Sequence[tuple[str, str]] = (),
        json: object = UNSET,
        category: Category | str | None = None,
        weight: int | None = None,
    ) -> Response:
        """Send one request and return the service's final answer.

        Args:
            method: ``GET``, ``POST``, ``PATCH`` or ``DELETE``.
            path: Below the base URL, e.g. ``/plans/p1`` or a serialized id
                (``plans/p1/stops/s1``); the scheduler's category is looked up from it.
            query: Query parameters, as a mapping or pairs.
            json: A JSON body (any JSON-encodable value); none when not given.
            category: The rate-limit category, for a path the endpoint table
                does not know (it must agree with the table's otherwise).
            weight: The request's weight for weighted rules: by default the number of
                items of a batch import's body (its list, or the list it holds), else 1.

        Returns:
            The :class:`Response`, whatever its status.

        Raises:
            ValidationError: For a bad method, path, category or weight.
        """
        given: object = method
        verb = given.upper() if isinstance(given, str) else given
        if verb not in ("GET", "POST", "PATCH", "DELETE"):
            raise ValidationError("method", f"must be GET, POST, PATCH or DELETE, got {method!r}")
        relative = _raw_path(path)
        known = _category_of(verb, relative)
        chosen = known
        if category is not None:
            try:
                chosen = Category(category)
            except ValueError:
                raise ValidationError("category", f"is not a rate-limit category: {category!r}") from None
            if known is not None and chosen is not known:
                where = f"{verb} {relative} is in {known.value!r}"
                raise ValidationError("category", f"{where}, not {chosen.value!r}")
        if chosen is None:
            unknown = f"{verb} {relative} is not in the endpoint table"
            raise ValidationError("category", f"{unknown}: give category=")
        amount: object = weight if weight is not None else _weight_of(json, chosen)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise ValidationError("weight", f"must be a positive int, got {weight!r}")
        pairs = tuple(query.items()) if isinstance(query, Mapping) else tuple(query)
        body = None if isinstance(json, UnsetType) else encode_body(json)
        return await self._client._send(Request(verb, relative, chosen, pairs, body, amount))

    async def get(self, path: str, *, query: Mapping[str, str] | Sequence[tuple[str, str]] = ()) -> Response:
        """``request("GET", path, query=query)``: e.g. the headers of ``plans/p1``.

        Args:
            path: Below the base URL, e.g. ``/plans/p1`` or a serialized id.
            query: Query parameters, as a mapping or pairs.

        Returns:
            The :class:`Response`, whatever its status.
        """
        return await self.request("GET", path, query=query)


def _weight_of(body: object, category: Category) -> int:
    """A raw request's weight: the items of a batch import (``[...]`` or ``{"unassignedStops": [...]}``)."""
    if category is not Category.BATCH_IMPORT:
        return 1
    if isinstance(body, list):
        return max(len(body), 1)
    if isinstance(body, dict):
        lists = [value for value in body.values() if isinstance(value, list)]
        if len(lists) == 1:
            return max(len(lists[0]), 1)
    return 1


_RAW_PATH = re.compile(r"/?[A-Za-z0-9_:./-]+")


def _raw_path(path: object) -> str:
    """``path`` as a path below the base URL, starting with ``/``; nothing that leaves it."""
    if not isinstance(path, str) or not _RAW_PATH.fullmatch(path) or ".." in path or "//" in path:
        raise ValidationError(
            "path", f"must be a path below the base URL (letters, digits, '-', '_', ':', '/'), got {path!r}"
        )
    return path if path.startswith("/") else f"/{path}"


def _category_of(method: str, path: str) -> Category | None:
    """The category of the endpoint of the table that ``method path`` is, if any."""
    for pattern, endpoint in _ENDPOINT_PATTERNS:
        if endpoint.method == method and pattern.fullmatch(path):
            return endpoint.category
    return None


_ENDPOINT_PATTERNS = [
    (re.compile(re.sub(r"\\\{\w+\\\}", "[A-Za-z0-9_-]+", re.escape(endpoint.template))), endpoint)
    for endpoint in ENDPOINTS.values()
]


_SERIALIZED_ID_RULE: Final = (
    "must be plans/<id>, plans/<id>/stops/<id>, unassignedStops/<id>, operations/<id>, depots/<id>, "
    "routes/<id> or drivers/<id>"
)


async def get_by_serialized_id(
    client: _Client, serialized_id: str
) -> Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver:
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
        case ["routes", _]:
            return await client.routes.get(serialized_id)
        case ["drivers", _]:
            return await client.drivers.get(serialized_id)
    raise ValidationError("serialized_id", f"{_SERIALIZED_ID_RULE}, got {serialized_id!r}")


# Import targets: where the bulk importer (``_importer.run_import``) sends its batches.


_LIST_PAGE = 10
"""Stops per page of the plan's stop list (its largest page, public API documentation)."""

_DRIVER_PAGE = 50
"""Drivers per page of the team's driver list (its largest page)."""


@attrs.frozen
class _PlanStopsTarget:
    """The stops of one plan, as a bulk import target; the key is ``recipient.external_id``."""

    item_type: ClassVar[type[StopInput]] = StopInput
    key_field: ClassVar[str] = "recipient.external_id"
    rows_name: ClassVar[str] = "stops"
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
        return await self.stops._fetch(self.stops._import_request(self.plan_id, batch), ImportResult, on_sent)

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
    rows_name: ClassVar[str] = "stops"
    unassigned_stops: UnassignedStops
    depot: str | None

    def check(self, item: UnassignedStopInput, field: str) -> None:
        check_no_depot(item, field)

    def key(self, item: UnassignedStopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[UnassignedStopInput], on_sent: Callable[[], None]) -> ImportResult:
        request = self.unassigned_stops._import_request(batch, self.depot)
        return await self.unassigned_stops._fetch(request, ImportResult, on_sent)

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


class LiveImportOptions(ImportOptions, LiveEditOptions, total=False):
    """The options of ``stops.live_import_many``: the bulk importer's
    (:class:`_importer.ImportOptions`) and how the editing session is applied
    (:class:`_workflows.LiveEditOptions`: ``distribute``, ``optimization_type``,
    ``timeout``, ``poll_interval``, ``max_poll_interval``, ``cancel_on_timeout``)."""


@attrs.frozen
class LiveImport:
    """What ``stops.live_import_many`` did."""

    report: ImportReport[StopInput]
    """One outcome per input stop."""
    pending: bool
    """Whether the stops joined an editing session (the plan was not writable),
    which was then applied."""
    edit: LiveEdit
    """The live edit that applied the session: ``edit.operation`` (the
    re-optimization) and ``edit.plan`` (after ``:redistribute``) once applied."""


@attrs.frozen
class _LivePlanStopsTarget:
    """The stops of a live plan, imported with ``:liveImport``.

    Each answer's ``pending`` is remembered: once one is true, the import has
    started (or joined) an editing session that ``live_import_many`` applies at
    the end. Reconciliation lists the plan's stops like :class:`_PlanStopsTarget`;
    the stops pending in an editing session are not listed, so for a plan that
    is not writable the lookup refuses (the batch is then ``unknown``) instead
    of resending stops that may be waiting in the session.
    """

    item_type: ClassVar[type[StopInput]] = StopInput
    key_field: ClassVar[str] = "recipient.external_id"
    rows_name: ClassVar[str] = "stops"
    stops: Stops
    plans: Plans
    plan_id: str
    answers: list[bool] = attrs.field(factory=list)
    """``pending`` of every answer so far (a list, so the frozen target can record)."""

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    @property
    def pending(self) -> bool:
        return any(self.answers)

    def check(self, item: StopInput, field: str) -> None:
        """Every valid :class:`StopInput` is accepted."""

    def key(self, item: StopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[StopInput], on_sent: Callable[[], None]) -> ImportResult:
        request = self.stops._live_import_request(self.plan_id, batch)
        result = await self.stops._fetch(request, LiveImportResult, on_sent)
        self.answers.append(result.pending)
        return ImportResult(success=result.success, failed=result.failed)

    async def _in_session(self) -> bool:
        """Whether the plan is in an editing session, whose pending stops are not listed."""
        return not (await self.plans.get(self.plan_id)).writable

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        if await self._in_session():
            # The importer reads a LookupError as "cannot reconcile": the batch is unknown.
            raise LookupError("stops pending in the plan's editing session are not listed")
        async for stop in self.stops.list(self.plan_id, filter={"externalId": external_id}):
            yield stop.id, stop.recipient.external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        if await self._in_session():
            raise RoutePlanningError(
                f"plans/{self.plan_id} is in an editing session, whose pending stops are not listed: "
                "its existing stops cannot be read (skip_existing) until the session is applied"
            )
        async for page in self.stops.list(self.plan_id, max_page_size=_LIST_PAGE).pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items]

    async def delete(self, item_id: str) -> None:
        # A live plan's stop goes through the editing session the import joined.
        await self.stops.live_delete(item_id)


def driver_key(driver: DriverInput) -> str | None:
    """The natural key of a driver: its e-mail, else its phone; None without either."""
    for value in (driver.email, driver.phone):
        if isinstance(value, str) and value:
            return value
    return None


@attrs.frozen
class _NaturalKey:
    """What the importer engine reads as ``row.recipient``: the row's key."""

    external_id: str | None


def _identity(driver: Mapping[str, Any]) -> dict[str, Any]:
    """A driver's identifying fields, in the address keys the engine compares
    when a failure comes back without a key (see :class:`_DriverRow`)."""
    return {
        "addressName": driver.get("name"),
        "addressLineOne": driver.get("displayName"),
        "addressLineTwo": driver.get("email"),
        "city": driver.get("phone"),
    }


@attrs.frozen
class _DriverRow:
    """One input driver, in the stop-shaped form the importer engine reads.

    The engine (``_importer.py``) takes the natural key from
    ``row.recipient.external_id`` and matches a failure's echo by its
    ``recipient.externalId``, else by its ``address``. A driver has neither, so
    the row answers its e-mail or phone as ``recipient.external_id`` and its
    identifying fields as ``address``; :class:`_DriversTarget` shapes the
    answer's echoes the same way. ``drivers.import_many`` unwraps the rows
    again, so its report holds the caller's own :class:`DriverInput` objects.
    """

    driver: DriverInput

    @classmethod
    def of(cls, item: object, field: str) -> _DriverRow:
        if not isinstance(item, DriverInput):
            raise ValidationError(field, f"must be a DriverInput, got {type(item).__name__}")
        return cls(item)

    @property
    def recipient(self) -> _NaturalKey:
        return _NaturalKey(driver_key(self.driver))

    @property
    def address(self) -> dict[str, Any]:
        return _identity(unstructure(self.driver))


async def _driver_rows_async(drivers: AsyncIterable[DriverInput]) -> AsyncIterator[_DriverRow]:
    async for item in drivers:
        yield _DriverRow.of(item, "driver")


def _unwrapped(report: ImportReport[Any]) -> ImportReport[Any]:
    """The report with the caller's :class:`DriverInput` objects in place of the rows."""
    report.rejected_stops[:] = [
        RejectedStop(r.position, r.stop.driver, r.message) for r in report.rejected_stops
    ]
    report.failed_batches[:] = [
        FailedBatch(f.outcome, f.positions, tuple(row.driver for row in f.stops), f.error)
        for f in report.failed_batches
    ]
    return report


@attrs.define
class _DriversTarget:
    """The team's drivers, as a bulk import target (``drivers.import_many``).

    The importer engine is written for stops: its rows carry ``recipient`` and
    ``address`` and its answers echo ``stop``. This target adapts a driver
    import to it: rows are :class:`_DriverRow`, and each answer of ``POST
    /drivers:import`` becomes an :class:`ImportResult` whose failures echo the
    driver's key and identifying fields in the shape the engine matches.

    Exactly once: the driver list has no filter by e-mail or phone (public API
    documentation: ``filter[active]`` only), so a lookup lists the team and
    takes a driver whose e-mail or phone is the key as that input's driver. The
    importer shares one listing (:meth:`existing`) between the keys of a batch
    where that is cheaper; a single key's lookup (:meth:`find`) lists afresh, so
    the late-commit check sees drivers created after the reconciliation.
    """

    item_type: ClassVar[type[_DriverRow]] = _DriverRow
    id_prefix: ClassVar[str] = "drivers/"
    key_field: ClassVar[str] = "email"
    rows_name: ClassVar[str] = "drivers"
    drivers: Drivers

    def check(self, item: _DriverRow, field: str) -> None:
        """Every valid :class:`DriverInput` is accepted."""

    def key(self, item: _DriverRow) -> str | None:
        return driver_key(item.driver)

    async def send(self, batch: list[_DriverRow], on_sent: Callable[[], None]) -> ImportResult:
        request = self.drivers._import_request([row.driver for row in batch])
        result = await self.drivers._fetch(request, DriverImportResult, on_sent)
        failed = [
            ImportFailure(
                message=failure.message,
                stop={
                    "recipient": {"externalId": _echo_key(failure.driver)},
                    "address": _identity(failure.driver),
                },
            )
            for failure in result.failed
        ]
        return ImportResult(success=result.success, failed=failed)

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for driver in self.drivers.list(max_page_size=_DRIVER_PAGE):
            if external_id in (driver.email, driver.phone):
                yield driver.id, external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        # A driver answers to its e-mail and to its phone (an input's key is either).
        async for page in self.drivers.list(max_page_size=_DRIVER_PAGE).pages():
            yield [(driver.id, key) for driver in page.items for key in {driver.email, driver.phone} if key]

    async def delete(self, item_id: str) -> None:
        await self.drivers.delete(item_id)


def _echo_key(echo: Mapping[str, Any]) -> str | None:
    for name in ("email", "phone"):
        value = echo.get(name)
        if isinstance(value, str) and value:
            return value
    return None
