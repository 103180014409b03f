"""Plans (``client.plans``)."""

from __future__ import annotations

import datetime
from collections.abc import (
    Iterable,
)
from contextlib import AbstractAsyncContextManager
from typing import Unpack

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import UNSET, UnsetType
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._namespaces import PlansNamespace
from route_planning_async._workflows import LiveEditing, LiveEditOptions
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import (
    PlanInput,
    PlanUpdate,
)
from route_planning_async.v0_2b._live_edit import LiveEdit, live_edit
from route_planning_async.v0_2b._models import (
    Operation,
    Plan,
)
from route_planning_async.v0_2b.resources._common import TABLE, _Client


class Plans(PlansNamespace[_Client, Plan, Operation]):
    """Plans: create, list, change, optimize, distribute (``client.plans``)."""

    __slots__ = ()

    _table = TABLE

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

        Keyword Args:
            title (str): 1 to 255 characters.
            starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
            drivers (list[str]): ``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50.
            depot (str | None): ``depots/<id>``; None or not given means the team's main depot.

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
        request = self._endpoint("plans.create").request(json=unstructure(body))
        return await self._fetch(request, Plan)

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

        Keyword Args:
            title (str): 1 to 255 characters.
            starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
            drivers (list[str]): ``drivers/<id>`` (bare ids accepted); replaces the plan's whole list.
            depot (str | None): ``depots/<id>``; None means the team's main depot.

        Returns:
            The changed :class:`Plan`.
        """
        path = {"plan": _ids.plan_id(plan_id)}
        given = {
            name: value
            for name, value in (("title", title), ("starts", starts), ("drivers", drivers), ("depot", depot))
            if not isinstance(value, UnsetType)
        }
        body = TABLE.update(PlanUpdate, update, given)
        request = self._endpoint("plans.update").request(path, json=unstructure(body))
        return await self._fetch(request, Plan)

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

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
                Default None.
            poll_interval (float): Seconds before the first poll; the delay grows after each poll. Default
                1.0.
            max_poll_interval (float): The cap of the growing delay between two polls. Default 15.0, or
                ``poll_interval`` when that is longer.
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``); otherwise the operation goes on. Default False.
            distribute (bool): ``:redistribute`` after the re-optimization, or ``:save`` when False. Default
                True.
            optimization_type (str | None): A :class:`ReoptimizationType` value; None: the service's default
                (``reorder_changed_stops``). Default None.

        Returns:
            An async context manager that gives a :class:`LiveEdit`.
        """
        client = self._client
        polling = client._with_polling(options)
        return live_edit(self, client.stops, client.operations, plan_id, clock=client._clock, **polling)
