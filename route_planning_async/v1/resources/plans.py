"""v1 plans (``client.plans``)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any, Unpack

from route_planning_async._checks._validators import UNSET, UnsetType
from route_planning_async._client import checked, plan_path
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import ValidationError
from route_planning_async._namespaces import PlansNamespace
from route_planning_async._workflows import LiveEditing, LiveEditOptions
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._inputs import PlanInput, PlanRouteOverridesInput, PlanUpdate
from route_planning_async.v1._live_edit import LiveEdit, live_edit
from route_planning_async.v1._models import Operation, Plan
from route_planning_async.v1.resources._common import TABLE, V1Client


class Plans(PlansNamespace[V1Client, Plan, Operation]):
    """v1 plans: create, list, change, optimize, distribute (``client.plans``).

    A v1 plan carries its drivers as ids (``Plan.drivers``) and its
    ``route_overrides``. Its drivers share its depot: :meth:`update` is refused
    with 412 for a driver of another depot; the v1 document gives :meth:`create`
    no 412 (a plan created with one is stored).
    """

    __slots__ = ()

    _table = TABLE

    @keywords_documented(keywords_of(PlanInput))
    async def create(
        self,
        plan: PlanInput | None = None,
        /,
        *,
        title: str | UnsetType = UNSET,
        starts: datetime.date | UnsetType = UNSET,
        drivers: Iterable[str] | UnsetType = UNSET,
        depot: str | UnsetType | None = UNSET,
        route_overrides: PlanRouteOverridesInput | UnsetType | None = UNSET,
    ) -> Plan:
        """Create a plan (``POST /plans``) from a :class:`PlanInput`, or from its fields as
        keywords as v0.2b's ``plans.create`` takes them (not both).

        Args:
            plan: The plan's title, start date and optional drivers, depot and route overrides.

        Keyword Args:
            title (str): 1 to 255 characters.
            starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
            drivers (list[str]): ``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50.
            depot (str | None): ``depots/<id>``; None or not given means the team's main depot.
            route_overrides (PlanRouteOverridesInput | None): Settings that override the route defaults for
                the plan's routes.

        Returns:
            The new :class:`Plan`.
        """
        given = _given(
            title=title, starts=starts, drivers=drivers, depot=depot, route_overrides=route_overrides
        )
        if plan is None:
            if isinstance(drivers, str | UnsetType) or drivers is None:
                plan = PlanInput(**given)
            else:
                plan = PlanInput(**{**given, "drivers": list(drivers)})
        elif given:
            raise ValidationError("plan", "give a PlanInput or keyword fields, not both")
        body = unstructure(checked(plan, PlanInput, "plan"))
        return await self._fetch(self._endpoint("plans.create").request(json=body), Plan)

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
        route_overrides: PlanRouteOverridesInput | UnsetType | None = UNSET,
    ) -> Plan:
        """Change the fields given (``PATCH /plans/<id>``).

        A driver whose depot is not the plan's is refused with 412
        (:class:`PreconditionFailedError`): change the driver's depots or the plan's first.

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.
            update: A :class:`PlanUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            title (str): 1 to 255 characters.
            starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
            drivers (list[str]): ``drivers/<id>`` (bare ids accepted); replaces the plan's whole list.
            depot (str | None): ``depots/<id>``; None means the team's main depot.
            route_overrides (PlanRouteOverridesInput | None): Settings that override the route defaults for
                the plan's routes.

        Returns:
            The changed :class:`Plan`.
        """
        fields = _given(
            title=title, starts=starts, drivers=drivers, depot=depot, route_overrides=route_overrides
        )
        body = unstructure(TABLE.update(PlanUpdate, update, fields))
        return await self._fetch(self._endpoint("plans.update").request(plan_path(plan_id), json=body), Plan)

    @keywords_documented(keywords_of(LiveEditing, defaults=True))
    def live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit]:
        """A block of live changes to a plan that is not writable, applied on a clean exit
        (re-optimized, then redistributed, or saved with ``distribute=False``)::

            async with client.plans.live_edit(plan_id) as edit:
                await edit.update(stop_id, notes="Ring twice")

        Args:
            plan_id: ``plans/<id>`` or ``<id>``.

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
            An async context manager giving a :class:`LiveEdit`.
        """
        client = self._client
        polling = client._with_polling(options)
        return live_edit(self, client.stops, client.operations, plan_id, clock=client._clock, **polling)


def _given(**fields: object) -> dict[str, Any]:
    """The keyword fields given (not :data:`UNSET`)."""
    return {name: value for name, value in fields.items() if not isinstance(value, UnsetType)}
