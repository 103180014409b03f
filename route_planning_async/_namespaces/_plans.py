"""Plans (``client.plans``): the calls every version sends alike.

A version's ``Plans`` names its plan and operation models as the type
parameters (``PlansNamespace[Client, Plan, Operation]``) and adds what is its own:
plan create and update, and its live edit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar, Unpack

from route_planning_async._client import Namespace, plan_path
from route_planning_async._client._filters import PLAN_FILTERS
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._inputs import reoptimization_body
from route_planning_async._namespaces._client import NamespaceClient
from route_planning_async._operations import Polling, PollOptions
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async._workflows import (
    PlanState,
    optimize_and_wait,
)

ClientT = TypeVar("ClientT", bound=NamespaceClient)
OperationT = TypeVar("OperationT")
PlanT = TypeVar("PlanT", bound=PlanState)

__all__ = ["PlansNamespace"]


class PlansNamespace(Namespace[ClientT], Generic[ClientT, PlanT, OperationT]):
    """Plans: list, read, delete, optimize, distribute (``client.plans``); a version adds
    create, update and its live edit."""

    __slots__ = ()

    _typed = ("_model", "_operation")
    _model: type[PlanT]
    _operation: type[OperationT]

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[PlanT]:
        """The team's plans, lazily.

        Args:
            filter: ``title`` (1 to 255 characters), ``startsGte`` and ``startsLte`` (a
                ``datetime.date`` or ``YYYY-MM-DD``), or their snake case names; no other;
                None: every plan.
            max_page_size: Items per page (1..20); None: the service's default (10).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "plans.list",
            self._model,
            "plans",
            filter=filter,
            filters=PLAN_FILTERS,
            max_page_size=max_page_size,
            page_token=page_token,
        )

    async def get(self, plan_id: str) -> PlanT:
        """One plan by id.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The :class:`Plan`.
        """
        return await self._fetch(self._endpoint("plans.get").request(plan_path(plan_id)), self._model)

    async def delete(self, plan_id: str) -> None:
        """Delete a plan and all of its routes; it cannot be undone.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        """
        await self._client._execute(self._endpoint("plans.delete").request(plan_path(plan_id)))

    async def optimize(self, plan_id: str) -> OperationT:
        """Start optimizing the plan; poll the returned operation until ``done``.

        Small plans may come back already done. ``optimize_and_wait`` does both.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The optimization's :class:`Operation`.
        """
        return await self._fetch(
            self._endpoint("plans.optimize").request(plan_path(plan_id)), self._operation
        )

    async def distribute(self, plan_id: str) -> PlanT:
        """Send the optimized plan's routes to its drivers.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The distributed :class:`Plan`.
        """
        return await self._fetch(self._endpoint("plans.distribute").request(plan_path(plan_id)), self._model)

    async def reoptimize(self, plan_id: str, *, optimization_type: str | None = None) -> OperationT:
        """Re-optimize after live changes.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
            optimization_type: A :class:`ReoptimizationType` value; None: the service's
                default (``reorder_changed_stops``).

        Returns:
            The re-optimization's :class:`Operation`.
        """
        body = reoptimization_body(optimization_type)
        request = self._endpoint("plans.reoptimize").request(plan_path(plan_id), json=body)
        return await self._fetch(request, self._operation)

    async def redistribute(self, plan_id: str) -> PlanT:
        """Apply the re-optimized live changes and send the routes to the drivers.

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.

        Returns:
            The :class:`Plan`.
        """
        return await self._fetch(
            self._endpoint("plans.redistribute").request(plan_path(plan_id)), self._model
        )

    async def save(self, plan_id: str) -> None:
        """Apply the re-optimized live changes without distributing (the service answers 204).

        Args:
            plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        """
        await self._client._execute(self._endpoint("plans.save").request(plan_path(plan_id)))

    @keywords_documented(keywords_of(Polling, defaults=True))
    async def optimize_and_wait(self, plan_id: str, **options: Unpack[PollOptions]) -> OperationT:
        """Optimize the plan and wait for the finished operation.

        If the plan is already being optimized, wait for that optimization instead.

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

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The optimization failed.
            OperationCanceledError: It was canceled.
            OperationTimeoutError: It did not finish within ``timeout`` seconds.
        """
        client = self._client
        finished: OperationT = await optimize_and_wait(
            self, client.operations, plan_id, clock=client._clock, **client._with_polling(options)
        )
        return finished
