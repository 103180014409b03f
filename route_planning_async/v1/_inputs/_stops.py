"""The bodies of a v1 stop: plan stops and unassigned stops, created and updated.

The fields every version shares are declared once in
``route_planning_async/_inputs/_stops.py``. v1 adds its order input (with
``invoice_number``) and its proof of attempt input (declared once,
:data:`_ORDER_INFO` and :data:`_PROOF`, in the base of its creates and of its
updates), and the fields only some bodies take: ``service_info`` on a plan
stop's create, import, live create and update (not on a live update, nor on an
unassigned stop) and ``depot`` on an unassigned stop. v1 has no ``driver``:
``allowed_drivers`` replaces it. The client id goes on the wire as ``clientId``.
"""

from __future__ import annotations

from typing import Final

import attrs

from route_planning_async._checks._validators import UNSET, UnsetType, instance_of
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs import (
    CHANGED_STOP_DEPOT,
    NEW_STOP_DEPOT,
    NewStop,
    ProofOfAttemptRequirementsInput,
    StopChangeFields,
    StopChanges,
    allowed_drivers,
    in_body_order,
)
from route_planning_async.v1._inputs._nested import OrderInfoInput, ServiceInfoInput

__all__ = [
    "LiveStopUpdate",
    "LiveStopUpdateFields",
    "StopInput",
    "StopUpdate",
    "StopUpdateFields",
    "UnassignedStopInput",
    "UnassignedStopUpdate",
    "UnassignedStopUpdateFields",
]

_BODY_ORDER: Final = (
    "address",
    "depot",
    "timing",
    "recipient",
    "order_info",
    "payment_on_delivery",
    "proof_of_attempt_requirements",
    "allowed_drivers",
    "activity",
    "optimization_order",
    "package_count",
    "weight",
    "notes",
    "client_id",
    "barcodes",
    "custom_properties",
    "service_info",
)
"""The order of a stop body's fields, and so of its JSON keys (the v1 schema's)."""

_ORDER_INFO: Final = attrs.field(
    default=UNSET, validator=instance_of(OrderInfoInput), metadata=described("The order behind the stop.")
)
_PROOF: Final = attrs.field(
    default=UNSET,
    validator=instance_of(ProofOfAttemptRequirementsInput),
    metadata=described("Whether proof of attempt is collected."),
)
_SERVICE_INFO: Final = attrs.field(
    default=UNSET,
    validator=instance_of(ServiceInfoInput),
    metadata=described("The stop's service offering and SLA start; None on an update clears both."),
)


@attrs.frozen(kw_only=True)
class _NewStop(NewStop):
    """A v1 stop create: the shared fields, v1's order and proof of attempt."""

    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    proof_of_attempt_requirements: ProofOfAttemptRequirementsInput | UnsetType | None = _PROOF


@attrs.frozen(kw_only=True)
class _StopChanges(StopChanges):
    """A v1 stop update: the shared fields, v1's order and proof of attempt."""

    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    proof_of_attempt_requirements: ProofOfAttemptRequirementsInput | UnsetType | None = _PROOF


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER))
class StopInput(_NewStop):
    """The body of a plan stop create, batch import entry, live create or live import entry.

    Keyword Args:
        address (AddressInput): Where the stop is (required).
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
            is collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` (bare ids accepted) allowed for
            the stop; each must already be a driver of the plan (else the service answers 412).
        activity (str | None): ``delivery`` (the service's default) or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        notes (str | None): 1 to 2000 characters.
        client_id (str | None): Client-portal client id, 1 to 100 characters; set on create and import
            only, never updated.
        barcodes (list[str]): At most 200, each 1 to 255 characters.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
        service_info (ServiceInfoInput | None): The stop's service offering and SLA start; None on an
            update clears both.
    """

    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=allowed_drivers,
        metadata=described(
            """At most 100 ``drivers/<id>`` (bare ids accepted) allowed for the stop; each must
            already be a driver of the plan (else the service answers 412)."""
        ),
    )
    service_info: ServiceInfoInput | UnsetType | None = _SERVICE_INFO


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER))
class StopUpdate(_StopChanges):
    """The body of a plan stop PATCH: only the fields given are changed.

    A stop's location and ``client_id`` cannot be updated: delete the stop and
    create a new one.

    Keyword Args:
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
            is collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
        service_info (ServiceInfoInput | None): The stop's service offering and SLA start; None on an
            update clears both.
    """

    service_info: ServiceInfoInput | UnsetType | None = _SERVICE_INFO


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER))
class LiveStopUpdate(_StopChanges):
    """The body of a live stop update (``:liveUpdate``): as :class:`StopUpdate`, without
    ``service_info`` (service fields are not supported on live stops).

    Keyword Args:
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
            is collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER))
class UnassignedStopInput(_NewStop):
    """The body of an unassigned stop create, or an entry of its batch import.

    Keyword Args:
        address (AddressInput): Where the stop is (required).
        depot (str | None): ``depots/<id>``; None or not given means the team's main depot. Not allowed
            in a batch import, where the depot is given once for the whole batch.
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
            is collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` (the service's default) or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        notes (str | None): 1 to 2000 characters.
        client_id (str | None): Client-portal client id, 1 to 100 characters; set on create and import
            only, never updated.
        barcodes (list[str]): At most 200, each 1 to 255 characters.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """

    depot: str | UnsetType | None = NEW_STOP_DEPOT


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER, "depot"))
class UnassignedStopUpdate(_StopChanges):
    """The body of an unassigned stop PATCH: only the fields given are changed.

    The location and ``client_id`` cannot be updated.

    Keyword Args:
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
            is collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
        depot (str | None): ``depots/<id>``; None means the team's main depot.
    """

    depot: str | UnsetType | None = CHANGED_STOP_DEPOT


class _StopChangeFields(StopChangeFields, total=False):
    """The keywords of every v1 stop update."""

    order_info: OrderInfoInput | None
    proof_of_attempt_requirements: ProofOfAttemptRequirementsInput | None


class LiveStopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`LiveStopUpdate` as keyword arguments (``live_update(stop_id, notes=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""


class StopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`StopUpdate` as keyword arguments (``update(stop_id, notes=...)``),
    as :class:`LiveStopUpdateFields`."""

    service_info: ServiceInfoInput | None


class UnassignedStopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`UnassignedStopUpdate` as keyword arguments, as :class:`StopUpdateFields`."""

    depot: str | None
