"""Drivers (``client.drivers``)."""

from __future__ import annotations

from collections.abc import (
    AsyncIterable,
    Iterable,
    Mapping,
    Sequence,
)
from typing import TYPE_CHECKING, Any, Final, Unpack, cast

from route_planning_async import _ids
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import ValidationError
from route_planning_async._import import (
    ImportOptions,
    ImportReport,
    ImportTarget,
    run_import,
)
from route_planning_async._limits import Category
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._import_targets import (
    _driver_rows_async,
    _DriverRow,
    _DriversTarget,
    _unwrapped,
)
from route_planning_async.v0_2b._inputs import (
    MAX_DRIVER_IMPORT_BATCH,
    DriverInput,
    DriverUpdate,
    DriverUpdateFields,
    check_driver_batch,
)
from route_planning_async.v0_2b._models import (
    Driver,
    DriverImportResult,
)
from route_planning_async.v0_2b.resources._common import _checked, _Resource, _update_body

if TYPE_CHECKING:
    pass

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

    @keywords_documented(keywords_of(DriverUpdate, types=DriverUpdateFields))
    async def update(
        self, driver_id: str, update: DriverUpdate | None = None, /, **fields: Unpack[DriverUpdateFields]
    ) -> Driver:
        """Change the fields given: ``name``, ``display_name``, ``depots``, ``route_overrides``.

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.
            update: A :class:`DriverUpdate`; or give its fields as keywords (not both).

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
