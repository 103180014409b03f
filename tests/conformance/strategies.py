"""Hypothesis strategies of the request inputs every version shares, for the request
conformance (``test_requests.py`` and each version's cases): values past every
bound, None and UNSET, so that the client's refusals are exercised too."""

from __future__ import annotations

import datetime
from typing import Any

from hypothesis import strategies as st

import route_planning_async as rp

__all__ = [
    "ADDRESS",
    "CUSTOM",
    "DATES",
    "DRIVERS",
    "DRIVER_FIELDS",
    "DRIVER_INPUT",
    "DRIVER_UPDATE",
    "EMAILS",
    "NUMBERS",
    "OVERRIDES",
    "PAYMENT",
    "RECIPIENT",
    "TEXT",
    "TIME",
    "TIMING",
    "WEIGHT",
    "built",
    "optional",
    "order_info",
    "stop_fields",
]

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12) | st.text(max_size=300)
"""Short strings, and long or unencodable ones (surrogates) past the bounds."""


def optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.just(rp.UNSET) | st.none() | strategy


def built(cls: type[Any], **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``cls(**drawn fields)``, or None when the constructor refuses them."""

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        kwargs = {name: draw(strategy) for name, strategy in fields.items()}
        kwargs = {name: value for name, value in kwargs.items() if value is not rp.UNSET}
        try:
            return cls(**kwargs)
        except rp.ValidationError:
            return None

    return build()


NUMBERS = st.integers(-5, 12000) | st.floats(-1e7, 1e7, allow_nan=False)
ADDRESS = built(
    rp.AddressInput,
    address_name=optional(TEXT),
    address_line_one=optional(TEXT),
    address_line_two=optional(TEXT),
    city=optional(TEXT),
    state=optional(TEXT),
    zip=optional(TEXT),
    country=optional(TEXT),
    latitude=optional(st.floats(-100, 100)),
    longitude=optional(st.floats(-200, 200)),
).filter(lambda a: a is not None)
TIME = st.times() | st.builds(datetime.time, st.integers(0, 23), st.integers(0, 59))
TIMING = built(
    rp.TimingInput,
    earliest_attempt_time=optional(TIME),
    latest_attempt_time=optional(TIME),
    estimated_attempt_duration=optional(NUMBERS),
)
RECIPIENT = built(
    rp.RecipientInput,
    external_id=optional(TEXT),
    email=optional(TEXT),
    phone=optional(TEXT),
    name=optional(TEXT),
)
WEIGHT = built(
    rp.WeightInput,
    amount=st.integers(-1, 1_000_001) | st.floats(-1, 1_000_001) | st.decimals(0, 1000, places=2).map(float),
    unit=st.sampled_from([*rp.WeightUnit, "stone"]),
)
PAYMENT = built(
    rp.PaymentOnDeliveryInput,
    amount=optional(st.integers(-1, 2**53 + 1) | st.floats(0, 100)),
    currency=optional(st.sampled_from([*sorted(rp.PAYMENT_CURRENCIES), "XYZ", "eur"])),
)
DRIVERS = st.lists(st.sampled_from(["d1", "drivers/d2", "driver-3"]), max_size=4)
CUSTOM = st.dictionaries(st.text(min_size=0, max_size=55), TEXT | st.none(), max_size=3)
EMAILS = st.from_regex(r"[a-z][a-z0-9._+-]{0,20}@[a-z][a-z0-9-]{0,10}\.[a-z]{2,6}", fullmatch=True)
OVERRIDES = built(
    rp.RouteOverridesInput,
    start_time=optional(TIME),
    end_time=optional(TIME),
    start_address=optional(ADDRESS),
    end_address=optional(ADDRESS),
    max_stops=optional(st.integers(-1, 3000)),
)
DRIVER_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "name": optional(TEXT),
    "display_name": optional(TEXT),
    "depots": optional(st.lists(st.sampled_from(["depots/main", "north", "bad id!"]), max_size=3)),
    "route_overrides": optional(OVERRIDES),
}
DRIVER_INPUT = built(rp.DriverInput, email=optional(EMAILS | TEXT), phone=optional(TEXT), **DRIVER_FIELDS)
DRIVER_UPDATE = built(rp.DriverUpdate, **DRIVER_FIELDS)
DATES = st.dates(datetime.date(1990, 1, 1), datetime.date(2110, 1, 1))


def order_info(cl: type[Any], **extra: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A version's order input (``cl``), its own fields (``extra``) drawn too."""
    return built(
        cl,
        products=optional(st.lists(TEXT, max_size=102)),
        seller_order_id=optional(TEXT),
        seller_name=optional(TEXT),
        seller_website=optional(TEXT),
        **extra,
    )


def stop_fields(order_info: st.SearchStrategy[Any], proof: type[Any]) -> dict[str, st.SearchStrategy[Any]]:
    """The fields every version's stop inputs and updates take, with the version's
    order input and proof of attempt class."""
    return {
        "timing": optional(TIMING),
        "recipient": optional(RECIPIENT),
        "order_info": optional(order_info),
        "proof_of_attempt_requirements": optional(st.builds(proof, enabled=st.none() | st.booleans())),
        "allowed_drivers": optional(DRIVERS),
        "activity": optional(st.sampled_from(["delivery", "pickup", "swap"])),
        "optimization_order": optional(st.sampled_from(["first", "last", "default", "middle"])),
        "package_count": optional(NUMBERS),
        "weight": optional(WEIGHT),
        "payment_on_delivery": optional(PAYMENT),
        "notes": optional(TEXT | st.text(min_size=1990, max_size=2010)),
        "barcodes": optional(st.lists(TEXT, max_size=202)),
        "custom_properties": optional(CUSTOM),
    }
