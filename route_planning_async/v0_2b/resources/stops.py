"""Stops inside a plan (``client.stops``)."""

from __future__ import annotations

from collections.abc import (
    AsyncIterable,
    Iterable,
    Mapping,
    Sequence,
)
from typing import Unpack

from route_planning_async import _ids
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._import import (
    ImportOptions,
    ImportReport,
    options_documented,
    run_import,
)
from route_planning_async._import_targets import live_import, split_live_options
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async._workflows import LiveEditing
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._import_targets import (
    PLAN_STOP_ROWS,
    LiveImport,
    LiveImportOptions,
    live_plan_stops_target,
    plan_stops_target,
)
from route_planning_async.v0_2b._inputs import (
    StopInput,
    StopUpdate,
    StopUpdateFields,
    check_batch,
)
from route_planning_async.v0_2b._live_edit import live_edit
from route_planning_async.v0_2b._models import (
    ImportResult,
    LiveChange,
    LiveImportResult,
    Stop,
)
from route_planning_async.v0_2b.resources._common import _checked, _Resource, _stop_path, _update_body


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

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> Stop:
        """Change the fields given; the location and ``client_id`` cannot be changed.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

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

    @options_documented(PLAN_STOP_ROWS)
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

        Returns:
            An :class:`ImportReport`: one outcome per input stop.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        target = plan_stops_target(self, _ids.plan_id(plan_id))
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

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def live_update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> LiveChange:
        """Change a stop of a plan that is not writable (applied like ``live_create``).

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

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

    @options_documented(PLAN_STOP_ROWS, keywords_of(LiveEditing, defaults=True))
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
        reconciled: it is reported ``unknown``. Its stops may wait in the
        session all the same, so when rows are ``unknown`` and no answer said
        ``pending`` the plan is read: unless it is writable or ``optimized``
        (its session holds nothing), the session is applied. When the plan
        cannot be read, ``pending`` is True and nothing is applied.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            stops: :class:`StopInput` objects, an iterable or an async iterable (read lazily).

        Returns:
            A :class:`LiveImport`: the import's report and the live edit that applied it.

        Raises:
            ValidationError: An option or an input row is invalid (naming ``stops[<position>]``),
                before anything is sent for that row.
        """
        edit_options, import_options = split_live_options(options)
        checked = _ids.plan_id(plan_id)
        client = self._client
        target = live_plan_stops_target(self, client.plans, checked)
        context = live_edit(
            client.plans, self, client.operations, checked, clock=client._clock, **edit_options
        )
        report, pending, edit = await live_import(
            target,
            context,
            stops,
            pending_marker=LiveChange(pending=True),
            limits=client.rate_limits,
            clock=client._clock,
            **import_options,
        )
        return LiveImport(report=report, pending=pending, edit=edit)
