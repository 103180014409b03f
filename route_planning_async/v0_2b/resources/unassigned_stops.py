"""Unassigned stops (``client.unassigned_stops``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

from route_planning_async._checks import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._namespaces import UnassignedStopsNamespace
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import (
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
)
from route_planning_async.v0_2b._models import (
    UnassignedStop,
)
from route_planning_async.v0_2b.resources._common import TABLE, _Client

if TYPE_CHECKING:
    pass


class UnassignedStops(UnassignedStopsNamespace[_Client, UnassignedStop, UnassignedStopInput]):
    """Stops of a depot that belong to no plan (``client.unassigned_stops``)."""

    __slots__ = ()

    _table = TABLE

    @keywords_documented(keywords_of(UnassignedStopUpdate, types=UnassignedStopUpdateFields))
    async def update(
        self,
        unassigned_stop_id: str,
        update: UnassignedStopUpdate | None = None,
        /,
        **fields: Unpack[UnassignedStopUpdateFields],
    ) -> UnassignedStop:
        """Change the fields given; the location and ``client_id`` cannot be changed.

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
            update: An :class:`UnassignedStopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
                collected.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.
            depot (str | None): ``depots/<id>``; None means the team's main depot.

        Returns:
            The changed :class:`UnassignedStop`.
        """
        path = {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
        body = unstructure(TABLE.update(UnassignedStopUpdate, update, fields))
        request = self._endpoint("unassigned_stops.update").request(path, json=body)
        return await self._fetch(request, UnassignedStop)
