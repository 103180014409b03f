"""v1 depots (``client.depots``): read, create, change, delete, the main depot, import."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Sequence
from typing import Unpack

from route_planning_async import _ids
from route_planning_async._client import checked
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._namespaces import DepotsReadNamespace
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._import_targets import DEPOT_ROWS, DepotsTarget
from route_planning_async.v1._inputs import DepotInput, DepotUpdate, DepotUpdateFields, check_depot_batch
from route_planning_async.v1._models import Depot, DepotImportResult
from route_planning_async.v1.resources._common import TABLE, V1Client


class Depots(DepotsReadNamespace[V1Client, Depot]):
    """v1 depots of the team (``client.depots``). Writes are in the write category;
    the import has a category of its own (``depot_import``)."""

    __slots__ = ()

    _table = TABLE

    async def create(self, depot: DepotInput) -> Depot:
        """Create a depot from a :class:`DepotInput` (its name and route overrides).

        Args:
            depot: The depot.

        Returns:
            The new :class:`Depot`.
        """
        body = unstructure(checked(depot, DepotInput, "depot"))
        return await self._fetch(self._endpoint("depots.create").request(json=body), Depot)

    @keywords_documented(keywords_of(DepotUpdate, types=DepotUpdateFields))
    async def update(
        self, depot_id: str, update: DepotUpdate | None = None, /, **fields: Unpack[DepotUpdateFields]
    ) -> Depot:
        """Change a depot's ``name`` or ``route_overrides`` (``PATCH /depots/<id>``).

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.
            update: A :class:`DepotUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`Depot`.
        """
        body = unstructure(TABLE.update(DepotUpdate, update, fields))
        return await self._fetch(self._endpoint("depots.update").request(_path(depot_id), json=body), Depot)

    async def delete(self, depot_id: str) -> None:
        """Delete a depot (204).

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.
        """
        await self._client._execute(self._endpoint("depots.delete").request(_path(depot_id)))

    async def set_main(self, depot_id: str) -> None:
        """Make a depot the team's main depot (``POST /depots/<id>:setMain``, 204).

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.
        """
        await self._client._execute(self._endpoint("depots.set_main").request(_path(depot_id)))

    async def import_batch(self, depots: Sequence[DepotInput]) -> DepotImportResult:
        """Import 1 to 100 depots in one request (``depot_import`` category).

        Args:
            depots: The depots.

        Returns:
            The :class:`DepotImportResult`: the new ids, and the depots refused with why.
        """
        return await self._fetch(self._import_request(depots), DepotImportResult)

    def _import_request(self, depots: Sequence[DepotInput]) -> Request:
        items = check_depot_batch(depots)
        return self._endpoint("depots.import_batch").request(json=[unstructure(item) for item in items])

    @options_documented(DEPOT_ROWS)
    async def import_many(
        self, depots: Iterable[DepotInput] | AsyncIterable[DepotInput], **options: Unpack[ImportOptions]
    ) -> ImportReport[DepotInput]:
        """Import any number of depots in batches of up to 100, each exactly once (the
        natural key: the name; a depot already named so counts as created).

        Args:
            depots: :class:`DepotInput` objects, an iterable or an async iterable (read lazily).

        Returns:
            An :class:`ImportReport` with ``depots/<id>`` ids.

        Raises:
            ValidationError: A bad option or row (``depots[<position>]``), before it is sent.
        """
        client = self._client
        return await run_import(
            DepotsTarget(self), depots, limits=client.rate_limits, clock=client._clock, **options
        )


def _path(depot_id: str) -> dict[str, str]:
    return {"depot": _ids.depot_id(depot_id)}
