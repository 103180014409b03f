"""v1 unassigned stops (``client.unassigned_stops``)."""

from __future__ import annotations

from typing import Unpack

from route_planning_async._checks import _ids
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._namespaces import UnassignedStopsNamespace
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._inputs import (
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnassignedStopUpdateFields,
)
from route_planning_async.v1._models import UnassignedStop
from route_planning_async.v1.resources._common import TABLE, V1Client


class UnassignedStops(UnassignedStopsNamespace[V1Client, UnassignedStop, UnassignedStopInput]):
    """v1 stops of a depot that are in no plan yet (``client.unassigned_stops``)."""

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
        """Change the fields given; never the address or ``client_id`` (``PATCH``).

        Args:
            unassigned_stop_id: ``unassignedStops/<id>`` or ``<id>``.
            update: An :class:`UnassignedStopUpdate`; or give its fields as keywords (not both).

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
            depot (str | None): ``depots/<id>``; None means the team's main depot.

        Returns:
            The changed :class:`UnassignedStop`.
        """
        body = unstructure(TABLE.update(UnassignedStopUpdate, update, fields))
        request = self._endpoint("unassigned_stops.update").request(_path(unassigned_stop_id), json=body)
        return await self._fetch(request, UnassignedStop)


def _path(unassigned_stop_id: str) -> dict[str, str]:
    return {"unassigned_stop": _ids.unassigned_stop_id(unassigned_stop_id)}
