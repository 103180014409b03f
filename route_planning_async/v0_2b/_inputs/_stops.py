"""The bodies of a stop: plan stops and unassigned stops, created and updated.

The contract's stop body table holds the same rules for plan stops and
unassigned stops, for create, import, update and the live calls. So each field
is declared once, with its check and its text, in the class that every stop
body shares (:class:`_StopBody`); what a create adds or says (the required
address, the default activity, the client id) is declared once in
:class:`_NewStop`, and what an update says differently once in
:class:`_StopChanges`. A field whose text differs between the bodies that take
it (``allowed_drivers``, ``depot``) is declared again in each. A field
transformer puts each body's fields in the order of the table
(:data:`_BODY_ORDER`), the order of its JSON keys.

The fields with a converter keep their ``attrs.field(...)`` call in a class
body: a type checker's attrs support reads a field's required-ness and its
converter's argument type (a tuple of barcodes is accepted, a list is stored)
only there. ``driver``'s converter takes what the field stores, so its one
definition (:data:`_DRIVER`) is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypedDict

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._validators import (
    UNSET,
    UnsetType,
    absent,
    custom_property_values,
    depot_reference,
    driver_list,
    driver_reference,
    fail,
    instance_of,
    number,
    one_of,
    string_list,
    text,
)
from route_planning_async.v0_2b._inputs._limits import MAX_ALLOWED_DRIVERS, MAX_BARCODES
from route_planning_async.v0_2b._inputs._nested import (
    AddressInput,
    OrderInfoInput,
    PaymentOnDeliveryInput,
    RecipientInput,
    TimingInput,
    WeightInput,
)
from route_planning_async.v0_2b._models import Activity, OptimizationOrder, ProofOfAttemptRequirements

__all__ = [
    "StopInput",
    "StopUpdate",
    "StopUpdateFields",
    "UnassignedStopInput",
    "UnassignedStopUpdate",
    "UnassignedStopUpdateFields",
]

_ACTIVITIES: Final = frozenset(Activity)
_OPTIMIZATION_ORDERS: Final = frozenset(OptimizationOrder)


def _barcodes(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return string_list("barcodes", value, max_items=MAX_BARCODES, item_min=1, item_max=255)


def _allowed_drivers(value: Iterable[str] | UnsetType | None) -> list[str] | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    return driver_list("allowed_drivers", value, max_items=MAX_ALLOWED_DRIVERS, dedupe=False)


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


def _in_body_order(*last: str) -> Callable[[type, list[attrs.Attribute[Any]]], list[attrs.Attribute[Any]]]:
    """A field transformer: a class's fields in :data:`_BODY_ORDER`, those named in ``last`` at the end
    (without it, attrs lists the fields a class inherits first, then its own)."""

    def transform(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
        return sorted(fields, key=lambda field: (field.name in last, _BODY_ORDER.index(field.name)))

    return transform


_DRIVER: Final = attrs.field(
    default=UNSET,
    converter=driver_reference,
    metadata=described("Deprecated: one ``drivers/<id>``; mutually exclusive with ``allowed_drivers``."),
)


def _not_both_drivers(instance: StopInput | StopUpdate) -> None:
    # Contract, stop body table: driver and allowedDrivers are mutually exclusive.
    if not absent(instance.driver) and not absent(instance.allowed_drivers):
        fail("driver", "driver and allowed_drivers are mutually exclusive; give only one")


@attrs.frozen(kw_only=True)
class _StopBody:
    """The fields of every stop body."""

    timing: TimingInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(TimingInput), metadata=described("Time window and duration.")
    )
    recipient: RecipientInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(RecipientInput), metadata=described("Who receives the packages.")
    )
    order_info: OrderInfoInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(OrderInfoInput), metadata=described("The order behind the stop.")
    )
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(ProofOfAttemptRequirements),
        metadata=described("Whether proof of attempt is collected."),
    )
    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=_allowed_drivers,
        metadata=described("At most 100 ``drivers/<id>`` allowed for the stop."),
    )
    optimization_order: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(_OPTIMIZATION_ORDERS),
        metadata=described("``first``, ``last`` or ``default``."),
    )
    package_count: float | UnsetType | None = attrs.field(
        default=UNSET,
        validator=number(1, 10000),
        metadata=described("1 to 10000 (a number in the official schema)."),
    )
    weight: WeightInput | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(WeightInput),
        metadata=described("The weight of the load (needs vehicle capacity on the team)."),
    )
    payment_on_delivery: PaymentOnDeliveryInput | UnsetType | None = attrs.field(
        default=UNSET,
        validator=instance_of(PaymentOnDeliveryInput),
        metadata=described("The payment to collect on delivery."),
    )
    notes: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 2000), metadata=described("1 to 2000 characters.")
    )
    barcodes: list[str] | UnsetType = attrs.field(
        default=UNSET, converter=_barcodes, metadata=described("At most 200, each 1 to 255 characters.")
    )
    custom_properties: dict[str, str | None] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=custom_property_values,
        metadata=described(
            "Values (1 to 255 characters, or None to clear) keyed by custom stop property id."
        ),
    )


@attrs.frozen(kw_only=True)
class _NewStop(_StopBody):
    """The fields of a stop create or import: where the stop is, what is done there, and its client."""

    address: AddressInput = attrs.field(
        validator=instance_of(AddressInput, nullable=False),
        metadata=described("Where the stop is (required)."),
    )
    activity: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(_ACTIVITIES),
        metadata=described("``delivery`` (the service's default) or ``pickup``."),
    )
    client_id: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 100),
        metadata=described(
            """Client-portal client id, 1 to 100 characters (wire ``circuitClientId``); set on
            create and import only, never updated."""
        ),
    )


@attrs.frozen(kw_only=True)
class _StopChanges(_StopBody):
    """The fields of a stop update whose texts differ from a create's: an update sets no
    default, and a list given replaces the stop's whole list."""

    activity: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(_ACTIVITIES),
        metadata=described("``delivery`` or ``pickup``."),
    )
    barcodes: list[str] | UnsetType = attrs.field(
        default=UNSET,
        converter=_barcodes,
        metadata=described("At most 200, each 1 to 255 characters; replaces the whole list."),
    )


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=_in_body_order())
class StopInput(_NewStop):
    """The body of a stop create, batch import entry or live create."""

    driver: str | UnsetType | None = _DRIVER
    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=_allowed_drivers,
        metadata=described(
            "At most 100 ``drivers/<id>`` allowed for the stop; on creation they join the plan."
        ),
    )

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=_in_body_order())
class StopUpdate(_StopChanges):
    """The body of a stop PATCH or live update: only the fields given are changed.

    A stop's location and ``client_id`` cannot be updated (contract,
    Stops rule 2): delete the stop and create a new one.
    """

    driver: str | UnsetType | None = _DRIVER
    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=_allowed_drivers,
        metadata=described("At most 100 ``drivers/<id>``; an update does not add them to the plan."),
    )

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=_in_body_order())
class UnassignedStopInput(_NewStop):
    """The body of an unassigned stop create, or an entry of its batch import."""

    depot: str | UnsetType | None = attrs.field(
        default=UNSET,
        converter=depot_reference,
        metadata=described(
            """``depots/<id>``; None or not given means the team's main depot. Not allowed in a
            batch import, where the depot is given once for the whole batch."""
        ),
    )


@fields_documented
@attrs.frozen(kw_only=True, field_transformer=_in_body_order("depot"))
class UnassignedStopUpdate(_StopChanges):
    """The body of an unassigned stop PATCH: only the fields given are changed.

    The location and ``client_id`` cannot be updated.
    """

    depot: str | UnsetType | None = attrs.field(
        default=UNSET,
        converter=depot_reference,
        metadata=described("``depots/<id>``; None means the team's main depot."),
    )


class _StopChangeFields(TypedDict, total=False):
    """The keywords of every stop update (the fields of :class:`_StopChanges`)."""

    timing: TimingInput | None
    recipient: RecipientInput | None
    order_info: OrderInfoInput | None
    proof_of_attempt_requirements: ProofOfAttemptRequirements | None
    allowed_drivers: Iterable[str] | None
    activity: str | None
    optimization_order: str | None
    package_count: float | None
    weight: WeightInput | None
    payment_on_delivery: PaymentOnDeliveryInput | None
    notes: str | None
    barcodes: Sequence[str]
    custom_properties: dict[str, str | None] | None


class StopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`StopUpdate` as keyword arguments (``update(stop_id, notes=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    driver: str | None


class UnassignedStopUpdateFields(_StopChangeFields, total=False):
    """The fields of :class:`UnassignedStopUpdate` as keyword arguments, as :class:`StopUpdateFields`."""

    depot: str | None
