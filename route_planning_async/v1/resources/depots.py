"""v1 depots (``client.depots``): read, create, change, delete, the main depot, import."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Sequence
from typing import Unpack

from route_planning_async._checks import _ids
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

        Keyword Args:
            name (str): 1 to 2048 characters.
            route_overrides (DepotRouteOverridesInput): The defaults of the depot's routes; replaces the
                whole object.

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

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the ids of the created depots (packed, a few bytes each); False keeps only
                counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its depots have no key
                (name) to look them up by; they may be duplicated. Default False.
            batch_size (int | None): How many depots one request carries, 1 to 100 (and at most a weighted
                rule's amount); None: 100. Default None.
            max_in_flight (int | None): Batches sent concurrently; None: as many as one window of each
                ``depot_import`` rule admits (at least 2, at most 32). Default None.
            max_resends (int): How many times the depots of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                depots; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401, or
                another error every batch would get, stops it at once. Default 3.
            skip_existing (bool): Read the keys (name) already in the collection once, paging through it,
                and send only the rows whose key is not there: they are reported ``skipped``. Resumes an
                interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (name); such rows are then
                imported as if they had no key (no lookup, no skip). Otherwise the import raises
                :class:`~route_planning_async.ValidationError` naming both positions before anything is
                sent. Default False.
            dedupe (bool): Delete the extra depots that the late-commit check finds (a key stored twice),
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
