"""The fields of a stop body that every API version shares, declared once.

A version's stop bodies (``v0_2b/_inputs/_stops.py``, ``v1/_inputs/_stops.py``)
are these bases plus what is its own: the version's order and proof of attempt
inputs (each declared once as an ``attrs.field`` and given to the version's
create base and update base), and the fields only it has (v0.2b's ``driver``,
v1's ``serviceInfo``). :class:`StopBody` holds the fields of every stop body,
:class:`NewStop` what a create or import adds (the required address, the
default activity, the client id) and :class:`StopChanges` what an update says
differently. A field transformer (:func:`in_body_order`) puts each body's fields
in the order of the version's body table, the order of its JSON keys.

The fields with a converter keep their ``attrs.field(...)`` call in a class
body: a type checker's attrs support reads a field's required-ness and its
converter's argument type (a tuple of barcodes is accepted, a list is stored)
only there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypedDict

import attrs

from route_planning_async._checks._validators import (
    UNSET,
    UnsetType,
    custom_property_values,
    depot_reference,
    driver_list,
    instance_of,
    number,
    one_of,
    string_list,
    text,
)
from route_planning_async._docs import described
from route_planning_async._inputs._limits import MAX_ALLOWED_DRIVERS, MAX_BARCODES
from route_planning_async._inputs._nested import (
    AddressInput,
    PaymentOnDeliveryInput,
    RecipientInput,
    TimingInput,
    WeightInput,
)

__all__ = [
    "ACTIVITIES",
    "CHANGED_STOP_DEPOT",
    "NEW_STOP_DEPOT",
    "OPTIMIZATION_ORDERS",
    "NewStop",
    "StopBody",
    "StopChangeFields",
    "StopChanges",
    "allowed_drivers",
    "in_body_order",
]

ACTIVITIES: Final = frozenset({"delivery", "pickup"})
"""The values of a stop's ``activity``."""
OPTIMIZATION_ORDERS: Final = frozenset({"first", "last", "default"})
"""The values of a stop's ``optimizationOrder``."""


def _barcodes(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return string_list("barcodes", value, max_items=MAX_BARCODES, item_min=1, item_max=255)


def allowed_drivers(value: Iterable[str] | UnsetType | None) -> list[str] | UnsetType | None:
    """The ``allowed_drivers`` field: at most 100 ``drivers/<id>`` (bare ids accepted)."""
    if value is None or isinstance(value, UnsetType):
        return value
    return driver_list("allowed_drivers", value, max_items=MAX_ALLOWED_DRIVERS, dedupe=False)


NEW_STOP_DEPOT: Final = attrs.field(
    default=UNSET,
    converter=depot_reference,
    metadata=described(
        """``depots/<id>``; None or not given means the team's main depot. Not allowed in a
        batch import, where the depot is given once for the whole batch."""
    ),
)
"""The ``depot`` of an unassigned stop create (its converter takes what the field stores,
so the one definition serves every version's class)."""
CHANGED_STOP_DEPOT: Final = attrs.field(
    default=UNSET,
    converter=depot_reference,
    metadata=described("``depots/<id>``; None means the team's main depot."),
)
"""The ``depot`` of an unassigned stop update."""


def in_body_order(
    order: Sequence[str], *last: str
) -> Callable[[type, list[attrs.Attribute[Any]]], list[attrs.Attribute[Any]]]:
    """A field transformer: a class's fields in ``order`` (a version's body table), those named
    in ``last`` at the end (without it, attrs lists the fields a class inherits first, then its own)."""

    def transform(cls: type, fields: list[attrs.Attribute[Any]]) -> list[attrs.Attribute[Any]]:
        return sorted(fields, key=lambda field: (field.name in last, order.index(field.name)))

    return transform


@attrs.frozen(kw_only=True)
class StopBody:
    """The fields of every stop body in every version."""

    timing: TimingInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(TimingInput), metadata=described("Time window and duration.")
    )
    recipient: RecipientInput | UnsetType | None = attrs.field(
        default=UNSET, validator=instance_of(RecipientInput), metadata=described("Who receives the packages.")
    )
    allowed_drivers: list[str] | UnsetType | None = attrs.field(
        default=UNSET,
        converter=allowed_drivers,
        metadata=described("At most 100 ``drivers/<id>`` allowed for the stop."),
    )
    optimization_order: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(OPTIMIZATION_ORDERS),
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
class NewStop(StopBody):
    """The fields of a stop create or import: where the stop is, what is done there, and its client."""

    address: AddressInput = attrs.field(
        validator=instance_of(AddressInput, nullable=False),
        metadata=described("Where the stop is (required)."),
    )
    activity: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(ACTIVITIES),
        metadata=described("``delivery`` (the service's default) or ``pickup``."),
    )
    client_id: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=text(1, 100),
        metadata=described(
            """Client-portal client id, 1 to 100 characters; set on create and import only,
            never updated."""
        ),
    )


@attrs.frozen(kw_only=True)
class StopChanges(StopBody):
    """The fields of a stop update whose texts differ from a create's: an update sets no
    default, and a list given replaces the stop's whole list."""

    activity: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=one_of(ACTIVITIES),
        metadata=described("``delivery`` or ``pickup``."),
    )
    barcodes: list[str] | UnsetType = attrs.field(
        default=UNSET,
        converter=_barcodes,
        metadata=described("At most 200, each 1 to 255 characters; replaces the whole list."),
    )


class StopChangeFields(TypedDict, total=False):
    """The keywords of every stop update in every version (the fields of :class:`StopChanges`);
    a version adds its order and proof of attempt inputs and its own fields."""

    timing: TimingInput | None
    recipient: RecipientInput | None
    allowed_drivers: Iterable[str] | None
    activity: str | None
    optimization_order: str | None
    package_count: float | None
    weight: WeightInput | None
    payment_on_delivery: PaymentOnDeliveryInput | None
    notes: str | None
    barcodes: Sequence[str]
    custom_properties: dict[str, str | None] | None
