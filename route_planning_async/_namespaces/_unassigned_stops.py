"""Stops of a depot in no plan yet (``client.unassigned_stops``): the calls every version sends alike.

A version's ``UnassignedStops`` names its model and input as the type parameters
(``UnassignedStopsNamespace[Client, UnassignedStop, UnassignedStopInput]``) and
adds its update.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar, Unpack

from route_planning_async._checks import _ids
from route_planning_async._client import Namespace, checked
from route_planning_async._core import Request
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async._import_targets import (
    UNASSIGNED_STOP_ROWS,
    UnassignedStopsTarget,
)
from route_planning_async._inputs import check_batch, check_no_depot
from route_planning_async._models import ImportResult
from route_planning_async._namespaces._client import NamespaceClient
from route_planning_async._pagination import FilterValue, Paginator

ClientT = TypeVar("ClientT", bound=NamespaceClient)
ModelT = TypeVar("ModelT")
InputT = TypeVar("InputT")

__all__ = ["UnassignedStopsNamespace"]


class UnassignedStopsNamespace(Namespace[ClientT], Generic[ClientT, ModelT, InputT]):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``); a version adds
    its update."""

    __slots__ = ()

    _typed = ("_model", "_input")
    _model: type[ModelT]
    _input: type[InputT]

    async def create(self, stop: InputT) -> ModelT:
        """Create one unassigned stop.

        Args:
            stop: The stop, an :class:`UnassignedStopInput`.

        Returns:
            The created :class:`UnassignedStop`.
        """
        body = self._table.unstructure(checked(stop, self._input, "stop"))
        return await self._fetch(self._endpoint("unassigned_stops.create").request(json=body), self._model)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[ModelT]:
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
            self._model,
            "unassignedStops",
            filter=filter,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, unassigned_stop_id: str) -> ModelT:
        """One unassigned stop.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.

        Returns:
            The :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        return await self._fetch(self._endpoint("unassigned_stops.get").request(path), self._model)

    async def delete(self, unassigned_stop_id: str) -> None:
        """Delete an unassigned stop; it cannot be undone.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        await self._client._execute(self._endpoint("unassigned_stops.delete").request(path))

    async def import_batch(self, stops: Sequence[InputT], *, depot: str | None = None) -> ImportResult:
        """Import 1 to 100 unassigned stops in one request.

        The public API documentation's ``POST /unassignedStops:import`` with the
        body ``{"unassignedStops": [...], "depot": "depots/<id>"}``.

        Args:
            stops: 1 to 100 :class:`UnassignedStopInput`, none of which sets a depot.
            depot: ``depots/<id>``, given once for the whole batch (it biases
                geocoding); None: the team's main depot.

        Returns:
            The :class:`ImportResult`.
        """
        return await self._fetch(self._import_request(stops, depot), ImportResult)

    def _import_request(self, stops: Sequence[InputT], depot: str | None) -> Request:
        items = check_batch(stops, self._input)
        for index, item in enumerate(items):
            check_no_depot(item, f"stops[{index}]")
        body: dict[str, Any] = {"unassignedStops": [self._table.unstructure(item) for item in items]}
        if depot is not None:
            body["depot"] = _ids.depot_ref(depot)
        return self._endpoint("unassigned_stops.import_batch").request(json=body, weight=len(items))

    @options_documented(UNASSIGNED_STOP_ROWS)
    async def import_many(
        self,
        stops: Iterable[InputT] | AsyncIterable[InputT],
        *,
        depot: str | None = None,
        **options: Unpack[ImportOptions],
    ) -> ImportReport[InputT]:
        """Import any number of unassigned stops, streamed in batches, each exactly once.

        Args:
            stops: :class:`UnassignedStopInput` objects, an iterable or an async
                iterable (read lazily); none of them sets a depot.
            depot: ``depots/<id>``, shared by every stop; None: the team's main depot.

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the ids of the created stops (packed, a few bytes each); False keeps only
                counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its stops have no key
                (recipient.external_id) to look them up by; they may be duplicated. Default False.
            batch_size (int | None): How many stops one request carries, 1 to 100 (and at most a weighted
                rule's amount); None: 100. Default None.
            max_in_flight (int | None): Batches sent concurrently; None: as many as one window of each
                ``batch_import`` rule admits (at least 2, at most 32). Default None.
            max_resends (int): How many times the stops of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                stops; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401, or
                another error every batch would get, stops it at once. Default 3.
            skip_existing (bool): Read the keys (recipient.external_id) already in the collection once,
                paging through it, and send only the rows whose key is not there: they are reported
                ``skipped``. Resumes an interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (recipient.external_id); such
                rows are then imported as if they had no key (no lookup, no skip). Otherwise the import
                raises :class:`~route_planning_async.ValidationError` naming both positions before anything
                is sent. Default False.
            dedupe (bool): Delete the extra stops that the late-commit check finds (a key stored twice),
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
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        depot_ref = _ids.depot_ref(depot) if depot is not None else None
        target = UnassignedStopsTarget(self, depot_ref, self._input, check_no_depot)
        client = self._client
        return await run_import(target, stops, limits=client.rate_limits, clock=client._clock, **options)
