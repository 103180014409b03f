"""v1 drivers (``client.drivers``)."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from typing import Unpack

from route_planning_async import _ids
from route_planning_async._client import checked
from route_planning_async._client._filters import DRIVER_NOT_UPDATABLE, driver_filter
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import ValidationError
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._inputs import check_driver_batch
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._endpoints import ENDPOINTS
from route_planning_async.v1._import_targets import DRIVER_ROWS, DriversTarget
from route_planning_async.v1._inputs import DriverInput, DriverUpdate, DriverUpdateFields
from route_planning_async.v1._models import Driver, DriverImportResult
from route_planning_async.v1.resources._common import V1Resource, v1_update


class Drivers(V1Resource):
    """v1 drivers of the team (``client.drivers``); create (1 per second) and import
    (2 per minute) have rate-limit categories of their own."""

    __slots__ = ()

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Driver]:
        """The team's drivers, page by page (``GET /drivers``).

        Args:
            filter: ``{"active": True}`` or ``{"active": False}``; None: all of them.
            max_page_size: 1 to 50 a page; None: the service's 50.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Driver`.
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
        """Read one driver (``GET /drivers/<id>``).

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.

        Returns:
            The :class:`Driver`.
        """
        return await self._fetch(ENDPOINTS["drivers.get"].request(_path(driver_id)), Driver)

    async def create(self, driver: DriverInput) -> Driver:
        """Add a driver from a :class:`DriverInput` (driver create category: 1 per second).

        Args:
            driver: The driver.

        Returns:
            The new :class:`Driver`.
        """
        body = unstructure(checked(driver, DriverInput, "driver"))
        return await self._fetch(ENDPOINTS["drivers.create"].request(json=body), Driver)

    @keywords_documented(keywords_of(DriverUpdate, types=DriverUpdateFields))
    async def update(
        self, driver_id: str, update: DriverUpdate | None = None, /, **fields: Unpack[DriverUpdateFields]
    ) -> Driver:
        """Change ``name``, ``display_name``, ``depots`` or ``route_overrides`` (``PATCH``).

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.
            update: A :class:`DriverUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`Driver`.
        """
        for name in fields:
            if name in DRIVER_NOT_UPDATABLE:
                raise ValidationError(name, DRIVER_NOT_UPDATABLE[name])
        body = unstructure(v1_update(DriverUpdate, update, fields))
        return await self._fetch(ENDPOINTS["drivers.update"].request(_path(driver_id), json=body), Driver)

    async def delete(self, driver_id: str) -> None:
        """Remove a driver from the team (204).

        Args:
            driver_id: ``drivers/<id>`` or ``<id>``.
        """
        await self._client._execute(ENDPOINTS["drivers.delete"].request(_path(driver_id)))

    async def import_batch(self, drivers: Sequence[DriverInput]) -> DriverImportResult:
        """Import 1 to 50 drivers in one request (driver import category: 2 per minute).

        Args:
            drivers: The drivers.

        Returns:
            The :class:`DriverImportResult`: the new ids, and the drivers refused with why.
        """
        return await self._fetch(self._import_request(drivers), DriverImportResult)

    def _import_request(self, drivers: Sequence[DriverInput]) -> Request:
        items = check_driver_batch(drivers)
        return ENDPOINTS["drivers.import_batch"].request(json=[unstructure(item) for item in items])

    @options_documented(DRIVER_ROWS)
    async def import_many(
        self, drivers: Iterable[DriverInput] | AsyncIterable[DriverInput], **options: Unpack[ImportOptions]
    ) -> ImportReport[DriverInput]:
        """Import any number of drivers in batches of up to 50, each exactly once (the
        natural key: the e-mail without case, else the phone).

        Args:
            drivers: :class:`DriverInput` objects, an iterable or an async iterable (read lazily).

        Returns:
            An :class:`ImportReport` with ``drivers/<id>`` ids.

        Raises:
            ValidationError: A bad option or row (``drivers[<position>]``), before it is sent.
        """
        client = self._client
        return await run_import(
            DriversTarget(self), drivers, limits=client.rate_limits, clock=client._clock, **options
        )


def _path(driver_id: str) -> dict[str, str]:
    return {"driver": _ids.driver_id(driver_id)}
