"""The resources as v0.2b answers them: plans, stops and unassigned stops (drivers,
depots, custom stop properties and the fields both versions share are in
``route_planning_async/_models/``)."""

from __future__ import annotations

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._models import (
    Driver,
    OrderInfo,
    PlanFields,
    PlanStopFields,
    UnassignedStopFields,
    required_first,
)
from route_planning_async.v0_2b._models._stop_parts import DeliveryInfo, Eta, EtaNullReason

__all__ = ["Plan", "Stop", "UnassignedStop"]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class Plan(PlanFields):
    """A planned day of work for a set of drivers, at a depot.

    Attributes:
        id (PlanId): ``plans/<id>``.
        title (str): 1 to 255 characters.
        starts (datetime.date): The day the plan is for.
        depot (str | None): ``depots/<id>``.
        distributed (bool): True once the routes were sent to the drivers.
        writable (bool): False once optimized: then only the live endpoints change the plan.
        optimization (str | None): A :class:`PlanOptimization` value, or a newer one kept as a string.
        routes (list[str]): ``routes/<id>`` of the plan's routes.
        drivers (list[Driver]): The plan's drivers.
    """

    drivers: list[Driver] = attrs.field(factory=list, metadata=described("The plan's drivers."))


class _ServiceClientId:
    """The former name of ``client_id``, on v0.2b's stops."""

    __slots__ = ()
    client_id: str | None

    @property
    def service_client_id(self) -> str | None:
        """The former name of :attr:`client_id`, kept for existing code."""
        return self.client_id


_ALLOWED_DRIVERS_IDENTIFIERS = described(
    "E-mails or phones of the drivers allowed for the stop; empty means any."
)


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=required_first)
class Stop(PlanStopFields, _ServiceClientId):
    """A stop inside a plan.

    Attributes:
        id (StopId): ``plans/<planId>/stops/<stopId>``.
        address (StopAddress): Where the stop is.
        barcodes (list[str]): Barcodes of its packages.
        timing (TimingData): Time window and duration.
        notes (str | None): Notes for the driver.
        package_count (float | None): Number of packages (a JSON number in the official schema).
        weight (Weight | None): The weight of the load, when the team tracks vehicle capacity.
        payment_on_delivery (PaymentOnDelivery | None): The payment to collect on delivery.
        recipient (Recipient): Who receives the packages.
        activity (str): An :class:`Activity` value: ``delivery`` or ``pickup``.
        proof_of_attempt_requirements (ProofOfAttemptRequirements): Whether proof of attempt is
            collected.
        optimization_order (str): An :class:`OptimizationOrder` value: ``first``, ``last`` or
            ``default``.
        custom_properties (dict[str, str | None] | None): Values keyed by custom stop property id.
        client_id (str | None): Client-portal client id the stop is associated with (v1's ``clientId``;
            v0.2b sends the official ``circuitClientId`` and reads it, the contract's
            ``serviceClientId`` or ``clientId``).
        plan (str): ``plans/<planId>``.
        route (Route | None): The route, once the plan is optimized.
        estimated_travel_duration (float | None): Seconds from the previous stop.
        estimated_travel_distance (float | None): Meters from the previous stop.
        place_in_vehicle (PlaceInVehicle | None): Where the packages sit in the vehicle.
        type (str): A :class:`StopType` value: ``stop``, ``start`` or ``end``.
        package_label (str | None): Label of the package.
        stop_position (int | None): Position in the optimized route (``start`` is 0); not the real
            delivery order.
        tracking_link (str | None): Recipient tracking link, once the route has started.
        web_app_link (str): Link to the stop in the web app.
        allowed_drivers_identifiers (list[str]): E-mails or phones of the drivers allowed for the stop;
            empty means any.
        order_info (OrderInfo): The order behind the stop.
        driver_identifier (str | None): Deprecated: an e-mail or phone of a driver; see
            ``allowed_drivers_identifiers``.
        delivery_info (DeliveryInfo | None): What happened at the attempt.
        eta (Eta | None): Estimated arrival.
        eta_null_reason (EtaNullReason | None): Why ``eta`` is None.
    """

    allowed_drivers_identifiers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS_IDENTIFIERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))
    driver_identifier: str | None = attrs.field(
        default=None,
        metadata=described(
            "Deprecated: an e-mail or phone of a driver; see ``allowed_drivers_identifiers``."
        ),
    )
    delivery_info: DeliveryInfo | None = attrs.field(
        default=None, metadata=described("What happened at the attempt.")
    )
    eta: Eta | None = attrs.field(default=None, metadata=described("Estimated arrival."))
    eta_null_reason: EtaNullReason | None = attrs.field(
        default=None, metadata=described("Why ``eta`` is None.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True, field_transformer=required_first)
class UnassignedStop(UnassignedStopFields, _ServiceClientId):
    """A stop of a depot that is not attached to a plan.

    Attributes:
        id (UnassignedStopId): ``unassignedStops/<id>``.
        address (StopAddress): Where the stop is.
        barcodes (list[str]): Barcodes of its packages.
        timing (TimingData): Time window and duration.
        notes (str | None): Notes for the driver.
        package_count (float | None): Number of packages (a JSON number in the official schema).
        weight (Weight | None): The weight of the load, when the team tracks vehicle capacity.
        payment_on_delivery (PaymentOnDelivery | None): The payment to collect on delivery.
        recipient (Recipient): Who receives the packages.
        activity (str): An :class:`Activity` value: ``delivery`` or ``pickup``.
        proof_of_attempt_requirements (ProofOfAttemptRequirements): Whether proof of attempt is
            collected.
        optimization_order (str): An :class:`OptimizationOrder` value: ``first``, ``last`` or
            ``default``.
        custom_properties (dict[str, str | None] | None): Values keyed by custom stop property id.
        client_id (str | None): Client-portal client id the stop is associated with (v1's ``clientId``;
            v0.2b sends the official ``circuitClientId`` and reads it, the contract's
            ``serviceClientId`` or ``clientId``).
        depot (str): ``depots/<id>``.
        tracking_link (str | None): Recipient tracking link.
        allowed_drivers_identifiers (list[str]): E-mails or phones of the drivers allowed for the stop;
            empty means any.
        order_info (OrderInfo): The order behind the stop.
    """

    allowed_drivers_identifiers: list[str] = attrs.field(factory=list, metadata=_ALLOWED_DRIVERS_IDENTIFIERS)
    order_info: OrderInfo = attrs.field(factory=OrderInfo, metadata=described("The order behind the stop."))
