"""The namespaces every version has alike: ``client.operations``, ``client.drivers``,
``client.custom_stop_properties``, and the reads of ``client.routes`` and ``client.depots``.

Their calls, models and inputs are the same in v0.2b and v1 (the shared
:class:`Operation`, :class:`Driver`, :class:`CustomStopProperty` and :class:`Route`, the shared
:class:`DriverInput`); only the endpoint table and converter differ, which a
version's namespace names by its ``_table`` (a
:class:`~route_planning_async._client.VersionTable`)::

    class Operations(OperationsNamespace[_Client]):
        _table = TABLE
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterable, Iterable, Mapping, Sequence
from typing import Generic, TypeVar, Unpack

from route_planning_async import _ids
from route_planning_async._client import ClientCalls, TableResource, checked, update_body
from route_planning_async._client._filters import DRIVER_NOT_UPDATABLE, driver_filter, operation_filter
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import ValidationError
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._import_targets import DRIVER_ROWS, DriversTarget
from route_planning_async._inputs import DriverInput, DriverUpdate, DriverUpdateFields, check_driver_batch
from route_planning_async._models import CustomStopProperty, Driver, DriverImportResult, Operation, Route
from route_planning_async._operations import (
    ManyPolling,
    Polling,
    PollOptions,
    WaitManyOptions,
    wait,
    wait_many,
)
from route_planning_async._pagination import FilterValue, Paginator

__all__ = [
    "CustomStopPropertiesNamespace",
    "DepotsReadNamespace",
    "DriversNamespace",
    "OperationsNamespace",
    "RoutesNamespace",
]

ClientT = TypeVar("ClientT", bound=ClientCalls)
ModelT = TypeVar("ModelT")


class OperationsNamespace(TableResource[ClientT]):
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
        return await self._fetch(self._endpoint("operations.get").request(path), Operation)

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
        return await self._fetch(self._endpoint("operations.cancel").request(path), Operation)

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
            filter=operation_filter(filter),
            max_page_size=max_page_size,
            page_token=page_token,
        )

    @keywords_documented(keywords_of(Polling, defaults=True))
    async def wait(self, operation: Operation | str, **options: Unpack[PollOptions]) -> Operation:
        """Poll one operation until it is finished.

        The delay between polls starts at ``poll_interval`` and grows up to ``max_poll_interval``.

        Args:
            operation: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
                Default None.
            poll_interval (float): Seconds before the first poll; the delay grows after each poll. Default
                1.0.
            max_poll_interval (float): The cap of the growing delay between two polls. Default 15.0.
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``); otherwise the operation goes on. Default False.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The result is a failure (``code``, ``message``).
            OperationCanceledError: ``metadata.canceled`` is set.
            OperationTimeoutError: It was not finished after ``timeout`` seconds.
        """
        return await wait(self, operation, clock=self._client._clock, **options)

    @keywords_documented(keywords_of(ManyPolling, defaults=True))
    def wait_many(
        self, operations: Iterable[Operation | str], **options: Unpack[WaitManyOptions]
    ) -> AsyncGenerator[Operation, None]:
        """Yield operations as they finish, from one shared poll loop.

        The loop polls the unfinished operations in turn, within ``read_share`` of
        the read category's rate, so waiting on many leaves room for other reads.

        Args:
            operations: :class:`Operation` objects or their ids.

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
                Default None.
            poll_interval (float): Seconds before the first poll; the delay grows after each poll. Default
                1.0.
            max_poll_interval (float): The cap of the growing delay between two polls. Default 15.0.
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``); otherwise the operation goes on. Default False.
            read_share (float): The share (0 < share <= 1) of the read category's rate the poll loop may
                use. Default 0.5.
            raise_on_failure (bool): Raise at the first failed or canceled operation instead of yielding it.
                Default False.

        Yields:
            Each operation once it is finished, in the order they finish.

        Raises:
            OperationTimeoutError: Some operation was not finished after ``timeout`` seconds.
            OptimizationFailedError: With ``raise_on_failure=True``, at the first failed operation.
            OperationCanceledError: With ``raise_on_failure=True``, at the first canceled operation.
        """
        client = self._client
        return wait_many(self, operations, clock=client._clock, limits=client.rate_limits, **options)


class DriversNamespace(TableResource[ClientT]):
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
            filter=driver_filter(filter),
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
        return await self._fetch(self._endpoint("drivers.get").request(path), Driver)

    async def create(self, driver: DriverInput) -> Driver:
        """Add one driver to the team (driver create category: 1 per second).

        For several drivers prefer ``import_batch`` or ``import_many``.

        Args:
            driver: The driver, a :class:`DriverInput`.

        Returns:
            The created :class:`Driver`.
        """
        body = self._table.unstructure(checked(driver, DriverInput, "driver"))
        return await self._fetch(self._endpoint("drivers.create").request(json=body), Driver)

    @keywords_documented(keywords_of(DriverUpdate, types=DriverUpdateFields))
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
            depots (Sequence[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped);
                None or not given: the team's main depot.
            route_overrides (RouteOverridesInput | None): Settings that override the route defaults for this
                driver.

        Returns:
            The changed :class:`Driver`.
        """
        path = {"driver": _ids.driver_id(driver_id)}
        for name in fields:
            if name in DRIVER_NOT_UPDATABLE:
                raise ValidationError(name, DRIVER_NOT_UPDATABLE[name])
        body = self._table.unstructure(update_body(DriverUpdate, update, fields, DRIVER_NOT_UPDATABLE))
        return await self._fetch(self._endpoint("drivers.update").request(path, json=body), Driver)

    async def delete(self, driver_id: str) -> None:
        """Remove a driver from the team (the service answers 204).

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.
        """
        path = {"driver": _ids.driver_id(driver_id)}
        await self._client._execute(self._endpoint("drivers.delete").request(path))

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
        return self._endpoint("drivers.import_batch").request(
            json=[self._table.unstructure(item) for item in items]
        )

    @options_documented(DRIVER_ROWS)
    async def import_many(
        self,
        drivers: Iterable[DriverInput] | AsyncIterable[DriverInput],
        **options: Unpack[ImportOptions],
    ) -> ImportReport[DriverInput]:
        """Import any number of drivers, in batches of up to 50, each exactly once.

        The bulk importer, with the driver's e-mail (compared without case),
        else its phone, as the natural key: after an ambiguous failure the
        team's drivers are listed and a driver that carries the key counts as
        created.

        Args:
            drivers: :class:`DriverInput` objects, an iterable or an async iterable (read lazily).

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the ids of the created drivers (packed, a few bytes each); False keeps
                only counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its drivers have no
                key (email or phone) to look them up by; they may be duplicated. Default False.
            batch_size (int | None): How many drivers one request carries, 1 to 50 (and at most a weighted
                rule's amount); None: 50. Default None.
            max_in_flight (int | None): Batches sent concurrently; None: enough to fill one window of the
                ``driver_import`` request rule (at least 2, at most 32). Default None.
            max_resends (int): How many times the drivers of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                drivers; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401, or
                another error every batch would get, stops it at once. Default 3.
            skip_existing (bool): Read the keys (email or phone) already in the collection once, paging
                through it, and send only the rows whose key is not there: they are reported ``skipped``.
                Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (email or phone); such rows are
                then imported as if they had no key (no lookup, no skip). Otherwise the import raises
                :class:`~route_planning_async.ValidationError` naming both positions before anything is
                sent. Default False.
            dedupe (bool): Delete the extra drivers that the late-commit check finds (a key stored twice),
                keeping the one the report names; otherwise they are only reported in
                :attr:`ImportReport.duplicates`. Never for a key two rows may share: past a stream's first
                100,000 keyed rows, whose keys are not checked for repeats, duplicates are reported, not
                deleted. Default False.
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.

        Returns:
            An :class:`ImportReport` of the given :class:`DriverInput` objects, with
            ``drivers/<id>`` ids.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``drivers[<position>]``),
                before anything is sent for that row.
        """
        client = self._client
        return await run_import(
            DriversTarget(self), drivers, limits=client.rate_limits, clock=client._clock, **options
        )


class CustomStopPropertiesNamespace(TableResource[ClientT]):
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
        return await self._fetch(
            self._endpoint("custom_stop_properties.get").request(path), CustomStopProperty
        )


class RoutesNamespace(TableResource[ClientT]):
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
        return await self._fetch(self._endpoint("routes.get").request(path), Route)


class DepotsReadNamespace(TableResource[ClientT], Generic[ClientT, ModelT]):
    """The team's depots, read (``client.depots``); v1 adds its writes and import."""

    __slots__ = ()

    _model: type[ModelT]

    def list(self, *, max_page_size: int | None = None, page_token: str | None = None) -> Paginator[ModelT]:
        """Every depot, lazily.

        Args:
            max_page_size: Items per page (1..20, public API documentation); None: the service's default.
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "depots.list", self._model, "depots", max_page_size=max_page_size, page_token=page_token
        )

    async def get(self, depot_id: str) -> ModelT:
        """One depot.

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.

        Returns:
            The :class:`Depot`.
        """
        path = {"depot": _ids.depot_id(depot_id)}
        return await self._fetch(self._endpoint("depots.get").request(path), self._model)
