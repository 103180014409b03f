"""v1's own objects nested in a stop's body: its order (with ``invoiceNumber``) and its
service info. The others are every version's (``route_planning_async/_inputs/_nested.py``)."""

from __future__ import annotations

import datetime
import re
from typing import Any, ClassVar, Final

import attrs

from route_planning_async._checks._validators import UNSET, UnsetType, fail, number, text
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs import MAX_SAFE_INTEGER, OrderInfoFields
from route_planning_async.v1._inputs._limits import MAX_SERVICE_IDENTIFIER

__all__ = ["OrderInfoInput", "ServiceInfoInput"]

_IDENTIFIER: Final = re.compile(r"[a-zA-Z0-9]+")


def _identifier(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    text(1, MAX_SERVICE_IDENTIFIER)(instance, attribute, value)
    if isinstance(value, str) and _IDENTIFIER.fullmatch(value) is None:
        fail("service_info.identifier", f"must be ASCII letters and digits only, got {value!r}")


@fields_documented
@attrs.frozen(kw_only=True)
class OrderInfoInput(OrderInfoFields):
    """The order behind a stop.

    Keyword Args:
        products (list[str]): At most 100 product names, each 1 to 255 characters.
        seller_order_id (str | None): The seller's order id, 1 to 255 characters.
        seller_name (str | None): The seller's name, 1 to 255 characters.
        seller_website (str | None): The seller's website, 1 to 255 characters.
        invoice_number (str | None): The invoice number, 1 to 255 characters.
    """

    invoice_number: str | UnsetType | None = attrs.field(
        default=UNSET, validator=text(1, 255), metadata=described("The invoice number, 1 to 255 characters.")
    )


def _epoch_seconds(value: int | datetime.datetime | UnsetType | None) -> int | UnsetType | None:
    if not isinstance(value, datetime.datetime):
        return value
    field = "service_info.sla_starts_at"
    if value.tzinfo is None or value.utcoffset() is None:
        fail(field, f"must be an aware datetime (with its tzinfo), got {value.isoformat()}")
    if value.microsecond:
        fail(field, f"must be a whole second (value.replace(microsecond=0)), got {value.isoformat()}")
    return int(value.timestamp())


@fields_documented
@attrs.frozen(kw_only=True)
class ServiceInfoInput:
    """The service offering of a stop: which one, and when its SLA starts. On an update,
    ``service_info=None`` clears both.

    Keyword Args:
        identifier (str | None): The identifier of one of the team's service offerings: 1 to 32 ASCII
            letters and digits. None on an update removes the stop's service; not given on a create, the
            stop has none.
        sla_starts_at (int | None): When the SLA starts, in whole seconds since the Unix epoch (more
            than 0), or as an aware ``datetime`` of a whole second (as a stop's ``service_info`` reads
            it back); may be in the past, with or without an identifier.
    """

    _PATH: ClassVar[str] = "service_info."

    identifier: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=_identifier,
        metadata=described(
            """The identifier of one of the team's service offerings: 1 to 32 ASCII letters and
            digits. None on an update removes the stop's service; not given on a create, the stop
            has none."""
        ),
    )
    sla_starts_at: int | UnsetType | None = attrs.field(
        default=UNSET,
        converter=_epoch_seconds,
        validator=number(1, MAX_SAFE_INTEGER, integer=True),
        metadata=described(
            """When the SLA starts, in whole seconds since the Unix epoch (more than 0), or as an
            aware ``datetime`` of a whole second (as a stop's ``service_info`` reads it back); may be
            in the past, with or without an identifier."""
        ),
    )
