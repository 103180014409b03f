"""The bodies of a v0.2b stop: plan stops and unassigned stops, created and updated.

The contract's stop body table holds the same rules for plan stops and
unassigned stops, for create, import, update and the live calls. The fields
every version shares (the unassigned stop's ``depot`` too) are declared once in
``route_planning_async/_inputs/_stops.py``; v0.2b adds its order input and its
proof of attempt model (declared once, :data:`_ORDER_INFO` and :data:`_PROOF`,
in the base of its creates and of its updates), the deprecated ``driver``, and
``allowed_drivers``, whose text differs between a create and an update. The
field transformer puts each body's fields
in the order of the table (:data:`_BODY_ORDER`), the order of its JSON keys.
``driver``'s converter takes what the field stores, so its one definition
(:data:`_DRIVER`) is shared.
"""

from __future__ import annotations

from typing import Final

import attrs

from route_planning_async._checks._validators import (
    UNSET,
    UnsetType,
    absent,
    driver_reference,
    fail,
    instance_of,
)
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs import (
    CHANGED_STOP_DEPOT,
    NEW_STOP_DEPOT,
    NewStop,
    StopChangeFields,
    StopChanges,
    allowed_drivers,
    in_body_order,
)
from route_planning_async.v0_2b._inputs._nested import OrderInfoInput
from route_planning_async.v0_2b._models import ProofOfAttemptRequirements

__all__ = [
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
    "proof_of_attempt_requirements",
    "driver",
    "allowed_drivers",
    "activity",
    "optimization_order",
    "package_count",
    "weight",
    "payment_on_delivery",
    "notes",
    "client_id",
    "barcodes",
    "custom_properties",
)
"""The order of a stop body's fields, and so of its JSON keys (the contract's stop body table)."""

_DRIVER: Final = attrs.field(
    default=UNSET,
    converter=driver_reference,
    metadata=described("Deprecated: one ``drivers/<id>``; mutually exclusive with ``allowed_drivers``."),
)


def _not_both_drivers(instance: StopInput | StopUpdate) -> None:
    # Contract, stop body table: driver and allowedDrivers are mutually exclusive.
    if not absent(instance.driver) and not absent(instance.allowed_drivers):
        fail("driver", "driver and allowed_drivers are mutually exclusive; give only one")


_ORDER_INFO: Final = attrs.field(
    default=UNSET, validator=instance_of(OrderInfoInput), metadata=described("The order behind the stop.")
)
_PROOF: Final = attrs.field(
    default=UNSET,
    validator=instance_of(ProofOfAttemptRequirements),
    metadata=described("Whether proof of attempt is collected."),
)


@attrs.frozen(kw_only=True)
class _NewStop(NewStop):
    """A v0.2b stop create: the shared fields, v0.2b's order and proof of attempt."""

    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = _PROOF


@attrs.frozen(kw_only=True)
class _StopChanges(StopChanges):
    """A v0.2b stop update: the shared fields, v0.2b's order and proof of attempt."""

    order_info: OrderInfoInput | UnsetType | None = _ORDER_INFO
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = _PROOF


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER))
class StopInput(_NewStop):
    """The body of a stop create, batch import entry or live create.

    Keyword Args:
        address (AddressInput): Where the stop is (required).
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
            ``allowed_drivers``.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop; on
            creation they join the plan.
        activity (str | None): ``delivery`` (the service's default) or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        client_id (str | None): Client-portal client id, 1 to 100 characters; set on create and import
            only, never updated.
        barcodes (list[str]): At most 200, each 1 to 255 characters.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """

    driver: str | UnsetType | None = _DRIVER
    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=allowed_drivers,
        metadata=described(
            "At most 100 ``drivers/<id>`` allowed for the stop; on creation they join the plan."
        ),
    )

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=in_body_order(_BODY_ORDER))
class StopUpdate(_StopChanges):
    """The body of a stop PATCH or live update: only the fields given are changed.

    A stop's location and ``client_id`` cannot be updated (contract,
    Stops rule 2): delete the stop and create a new one.

    Keyword Args:
        timing (TimingInput | None): Time window and duration.
        recipient (RecipientInput | None): Who receives the packages.
        order_info (OrderInfoInput | None): The order behind the stop.
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        driver (str | None): Deprecated: one ``drivers/<id>``; mutually exclusive with
            ``allowed_drivers``.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>``; an update does not add them to
            the plan.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
    """

    driver: str | UnsetType | None = _DRIVER
    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=allowed_drivers,
        metadata=described("At most 100 ``drivers/<id>``; an update does not add them to the plan."),
    )

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


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
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` (the service's default) or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
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
        proof_of_attempt_requirements (ProofOfAttemptRequirements | None): Whether proof of attempt is
            collected.
        allowed_drivers (list[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
        activity (str | None): ``delivery`` or ``pickup``.
        optimization_order (str | None): ``first``, ``last`` or ``default``.
        package_count (float | None): 1 to 10000 (a number in the official schema).
        weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
        payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
        notes (str | None): 1 to 2000 characters.
        barcodes (list[str]): At most 200, each 1 to 255 characters; replaces the whole list.
        custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
            keyed by custom stop property id.
        depot (str | None): ``depots/<id>``; None means the team's main depot.
    """

    depot: str | UnsetType | None = CHANGED_STOP_DEPOT


class _StopChangeFields(StopChangeFields, total=False):
    """The keywords of every v0.2b stop update."""

    order_info: OrderInfoInput | None
    proof_of_attempt_requirements: ProofOfAttemptRequirements | None


class StopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`StopUpdate` as keyword arguments (``update(stop_id, notes=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    driver: str | None


class UnassignedStopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`UnassignedStopUpdate` as keyword arguments, as :class:`StopUpdateFields`."""

    depot: str | None
