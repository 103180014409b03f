"""v0.2b's live edit: the block of :func:`~route_planning_async._workflows.live_edit`,
with the live stop calls typed by v0.2b's stop inputs."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol, Unpack

from route_planning_async import _workflows
from route_planning_async._checks import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._scheduler import Clock
from route_planning_async.v0_2b._inputs import StopInput, StopUpdate, StopUpdateFields
from route_planning_async.v0_2b._models import LiveChange, Operation, Plan

__all__ = ["LiveEdit", "LiveStopCalls", "live_edit"]


class LiveStopCalls(_workflows.LiveStopCalls[StopInput, LiveChange], Protocol):
    """The live stop calls of a :class:`LiveEdit` (``client.stops``)."""

    async def live_update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> LiveChange: ...


class LiveEdit(_workflows.LiveEdit[LiveChange, Operation, Plan, StopInput]):
    """The changes of one ``client.plans.live_edit`` block, sent as they are made."""

    def __init__(self, stops: LiveStopCalls, plan_id: str) -> None:
        """Made by ``client.plans.live_edit``; not meant to be built by hand.

        Args:
            stops: The live stop calls (``client.stops``).
            plan_id: The bare id of the plan being edited.
        """
        super().__init__(stops, plan_id)
        self._stops: LiveStopCalls = stops

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> LiveChange:
        """Change a stop of the plan (``client.stops.live_update``).

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``, of this plan.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
                collected.
            driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
                ``allowed_drivers``.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>``; an update does not add
                them to the plan.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.

        Returns:
            The :class:`LiveChange`.

        Raises:
            ValidationError: The stop is not one of this plan's.
        """
        return self._record(await self._stops.live_update(self._own_stop(stop_id), update, **fields))


def live_edit(
    plans: _workflows.PlanCalls[Plan, Operation],
    stops: LiveStopCalls,
    operations: _workflows.OperationCalls[Operation],
    plan_id: str,
    *,
    clock: Clock,
    **options: Unpack[_workflows.LiveEditOptions],
) -> AbstractAsyncContextManager[LiveEdit]:
    """:func:`~route_planning_async._workflows.live_edit` of the plan, with a v0.2b :class:`LiveEdit`.

    Args:
        plans: The plan calls (``client.plans``).
        stops: The live stop calls (``client.stops``).
        operations: The operation calls (``client.operations``).
        plan_id: The plan, ``plans/<id>`` or a bare ``<id>``.
        clock: The scheduler's clock.
        **options: The options of :class:`~route_planning_async._workflows.LiveEditOptions`.

    Returns:
        The block's async context manager.
    """
    edit = LiveEdit(stops, _ids.plan_id(plan_id))
    return _workflows.live_edit(plans, operations, edit, clock=clock, **options)
