"""v1's live edit: the shared block of :func:`~route_planning_async._workflows.live_edit`,
its calls typed by v1's stop inputs."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol, Unpack

from route_planning_async import _workflows
from route_planning_async._checks import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._scheduler import Clock
from route_planning_async.v1._inputs import LiveStopUpdate, LiveStopUpdateFields, StopInput
from route_planning_async.v1._models import LiveChange, Operation, Plan

__all__ = ["LiveEdit", "LiveStopCalls", "live_edit"]


class LiveStopCalls(_workflows.LiveStopCalls[StopInput, LiveChange], Protocol):
    """What a v1 :class:`LiveEdit` calls (``client.stops`` of a v1 client)."""

    async def live_update(
        self, stop_id: str, update: LiveStopUpdate | None = None, /, **fields: Unpack[LiveStopUpdateFields]
    ) -> LiveChange: ...


class LiveEdit(_workflows.LiveEdit[LiveChange, Operation, Plan, StopInput]):
    """One v1 ``client.plans.live_edit`` block: each change is sent at once and kept."""

    def __init__(self, stops: LiveStopCalls, plan_id: str) -> None:
        """Made by ``client.plans.live_edit``.

        Args:
            stops: v1's ``client.stops``.
            plan_id: The plan's bare id.
        """
        super().__init__(stops, plan_id)
        self._stops: LiveStopCalls = stops

    @keywords_documented(keywords_of(LiveStopUpdate, types=LiveStopUpdateFields))
    async def update(
        self, stop_id: str, update: LiveStopUpdate | None = None, /, **fields: Unpack[LiveStopUpdateFields]
    ) -> LiveChange:
        """``stops.live_update`` of one of this plan's stops (a :class:`LiveStopUpdate` or its fields).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
                is collected.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.

        Raises:
            ValidationError: ``stop_id`` is another plan's.
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
    """The shared live edit workflow, with a v1 :class:`LiveEdit` of ``plan_id`` (``plans/<id>``
    or ``<id>``)."""
    return _workflows.live_edit(
        plans, operations, LiveEdit(stops, _ids.plan_id(plan_id)), clock=clock, **options
    )
