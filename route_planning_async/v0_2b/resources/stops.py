"""Stops inside a plan (``client.stops``)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Unpack

from route_planning_async._client import stop_path
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._namespaces import StopsNamespace
from route_planning_async._workflows import LiveEditOptions
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import (
    StopInput,
    StopUpdate,
    StopUpdateFields,
)
from route_planning_async.v0_2b._live_edit import LiveEdit, live_edit
from route_planning_async.v0_2b._models import (
    LiveChange,
    Stop,
)
from route_planning_async.v0_2b.resources._common import TABLE, _Client


class Stops(StopsNamespace[_Client, Stop, StopInput, LiveChange]):
    """Stops inside a plan (``client.stops``)."""

    __slots__ = ()

    _table = TABLE

    def _live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit]:
        client = self._client
        polling = client._with_polling(options)
        return live_edit(client.plans, self, client.operations, plan_id, clock=client._clock, **polling)

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> Stop:
        """Change the fields given; the location and ``client_id`` cannot be changed.

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
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
            The changed :class:`Stop`.
        """
        path = stop_path(stop_id)
        body = unstructure(TABLE.update(StopUpdate, update, fields))
        return await self._fetch(self._endpoint("stops.update").request(path, json=body), Stop)

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def live_update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> LiveChange:
        """Change a stop of a plan that is not writable (applied like ``live_create``).

        Args:
            stop_id: The stop's serialized id, ``plans/<planId>/stops/<stopId>``.
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
        """
        path = stop_path(stop_id)
        body = unstructure(TABLE.update(StopUpdate, update, fields))
        return await self._fetch(self._endpoint("stops.live_update").request(path, json=body), LiveChange)
