"""The team's drivers (``client.drivers``): list, create, change, remove, import.

The same calls, the shared :class:`Driver` and :class:`DriverInput` in every
version; only the endpoint table and converter differ (the version's ``_table``).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from typing import TypeVar, Unpack

from route_planning_async._checks import _ids
from route_planning_async._client import ClientCalls, Namespace, checked, update_body
from route_planning_async._client._filters import DRIVER_NOT_UPDATABLE, driver_filter
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import ValidationError
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._import_targets import DRIVER_ROWS, DriversTarget
from route_planning_async._inputs import DriverInput, DriverUpdate, DriverUpdateFields, check_driver_batch
from route_planning_async._models import Driver, DriverImportResult
from route_planning_async._pagination import FilterValue, Paginator

ClientT = TypeVar("ClientT", bound=ClientCalls)

__all__ = ["DriversNamespace"]


class DriversNamespace(Namespace[ClientT]):
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
                None: the team's main depot; not given: the main depot on a create, unchanged on an update.
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
            max_in_flight (int | None): Batches sent concurrently; None: as many as one window of each
                ``driver_import`` rule admits (at least 2, at most 32). Default None.
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
