"""Plans (``client.plans``)."""

from __future__ import annotations

import datetime
from collections.abc import (
    Iterable,
    Mapping,
)
from contextlib import AbstractAsyncContextManager
from typing import Unpack

from route_planning_async import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._operations import Polling, PollOptions
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async._validators import UNSET, UnsetType
from route_planning_async._workflows import LiveEditing, LiveEditOptions, optimize_and_wait
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._inputs import (
    PlanInput,
    PlanUpdate,
    reoptimization_body,
)
from route_planning_async.v0_2b._live_edit import LiveEdit, live_edit
from route_planning_async.v0_2b._models import (
    Operation,
    Plan,
)
from route_planning_async.v0_2b.resources._common import _Resource, _update_body


class Plans(_Resource):
    """Plans: create, list, change, optimize, distribute (``client.plans``)."""

    __slots__ = ()

    @keywords_documented(keywords_of(PlanInput))
    async def create(
        self,
        *,
        title: str,
        starts: datetime.date,
        drivers: Iterable[str] = (),
        depot: str | None = None,
    ) -> Plan:
        """Create a plan.

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

    @keywords_documented(keywords_of(PlanUpdate))
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

    @keywords_documented(keywords_of(Polling, defaults=True))
    async def optimize_and_wait(self, plan_id: str, **options: Unpack[PollOptions]) -> Operation:
        """Optimize the plan and wait for the finished operation.

        If the plan is already being optimized, wait for that optimization instead.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The optimization failed.
            OperationCanceledError: It was canceled.
            OperationTimeoutError: It did not finish within ``timeout`` seconds.
        """
        client = self._client
        return await optimize_and_wait(self, client.operations, plan_id, clock=client._clock, **options)

    @keywords_documented(keywords_of(LiveEditing, defaults=True))
    def live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit]:
        """Live-edit a plan that is not writable.

        On a clean exit the changes are re-optimized and redistributed (or saved)::

            async with client.plans.live_edit(plan_id) as edit:
                await edit.update(stop_id, notes="Ring twice")

        The waiting options bound applying the changes (the re-optimization and the
        wait for it): after ``timeout`` seconds :class:`OperationTimeoutError` is
        raised and the changes stay pending; with ``cancel_on_timeout=True`` the
        re-optimization is canceled on the service too, so that it does not apply
        them later on its own.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            An async context manager that gives a :class:`LiveEdit`.
        """
        client = self._client
        return live_edit(self, client.stops, client.operations, plan_id, clock=client._clock, **options)
