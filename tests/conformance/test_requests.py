"""Part 3: every request the client can build validates against the official request schema.

For each version (its calls in :data:`CASES`), Hypothesis builds the input models
from wide values (lengths past every bound, numbers past every range, None and
UNSET): an input whose constructor refuses it is fine (the client raised
``ValidationError`` before sending); every input it accepts is sent through the
client's own method over a scripted transport, and the body that went out must
be valid under the version's request schema.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp

from .versions import VERSIONS, Version

REQUESTS = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12) | st.text(max_size=300)
"""Short strings, and long or unencodable ones (surrogates) past the bounds."""


def _optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.just(rp.UNSET) | st.none() | strategy


def _built(cls: type[Any], **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
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


_NUMBERS = st.integers(-5, 12000) | st.floats(-1e7, 1e7, allow_nan=False)
_ADDRESS = _built(
    rp.AddressInput,
    address_name=_optional(_TEXT),
    address_line_one=_optional(_TEXT),
    address_line_two=_optional(_TEXT),
    city=_optional(_TEXT),
    state=_optional(_TEXT),
    zip=_optional(_TEXT),
    country=_optional(_TEXT),
    latitude=_optional(st.floats(-100, 100)),
    longitude=_optional(st.floats(-200, 200)),
).filter(lambda a: a is not None)
_TIME = st.times() | st.builds(datetime.time, st.integers(0, 23), st.integers(0, 59))
_TIMING = _built(
    rp.TimingInput,
    earliest_attempt_time=_optional(_TIME),
    latest_attempt_time=_optional(_TIME),
    estimated_attempt_duration=_optional(_NUMBERS),
)
_RECIPIENT = _built(
    rp.RecipientInput,
    external_id=_optional(_TEXT),
    email=_optional(_TEXT),
    phone=_optional(_TEXT),
    name=_optional(_TEXT),
)
_ORDER = _built(
    rp.OrderInfoInput,
    products=_optional(st.lists(_TEXT, max_size=102)),
    seller_order_id=_optional(_TEXT),
    seller_name=_optional(_TEXT),
    seller_website=_optional(_TEXT),
)
_WEIGHT = _built(
    rp.WeightInput,
    amount=st.integers(-1, 1_000_001) | st.floats(-1, 1_000_001) | st.decimals(0, 1000, places=2).map(float),
    unit=st.sampled_from([*rp.WeightUnit, "stone"]),
)
_PAYMENT = _built(
    rp.PaymentOnDeliveryInput,
    amount=_optional(st.integers(-1, 2**53 + 1) | st.floats(0, 100)),
    currency=_optional(st.sampled_from([*sorted(rp.PAYMENT_CURRENCIES), "XYZ", "eur"])),
)
_DRIVERS = st.lists(st.sampled_from(["d1", "drivers/d2", "driver-3"]), max_size=4)
_CUSTOM = st.dictionaries(st.text(min_size=0, max_size=55), _TEXT | st.none(), max_size=3)
_COMMON: dict[str, st.SearchStrategy[Any]] = {
    "timing": _optional(_TIMING),
    "recipient": _optional(_RECIPIENT),
    "order_info": _optional(_ORDER),
    "proof_of_attempt_requirements": _optional(
        st.builds(rp.ProofOfAttemptRequirements, enabled=st.none() | st.booleans())
    ),
    "allowed_drivers": _optional(_DRIVERS),
    "activity": _optional(st.sampled_from(["delivery", "pickup", "swap"])),
    "optimization_order": _optional(st.sampled_from(["first", "last", "default", "middle"])),
    "package_count": _optional(_NUMBERS),
    "weight": _optional(_WEIGHT),
    "payment_on_delivery": _optional(_PAYMENT),
    "notes": _optional(_TEXT | st.text(min_size=1990, max_size=2010)),
    "barcodes": _optional(st.lists(_TEXT, max_size=202)),
    "custom_properties": _optional(_CUSTOM),
}
_STOP_INPUT = _built(
    rp.StopInput, address=_ADDRESS, driver=_optional(st.just("d9")), client_id=_optional(_TEXT), **_COMMON
)
_STOP_UPDATE = _built(rp.StopUpdate, **_COMMON)
_UNASSIGNED_INPUT = _built(rp.UnassignedStopInput, address=_ADDRESS, client_id=_optional(_TEXT), **_COMMON)
_UNASSIGNED_UPDATE = _built(rp.UnassignedStopUpdate, depot=_optional(st.just("depot-1")), **_COMMON)

_EMAILS = st.from_regex(r"[a-z][a-z0-9._+-]{0,20}@[a-z][a-z0-9-]{0,10}\.[a-z]{2,6}", fullmatch=True)
_OVERRIDES = _built(
    rp.RouteOverridesInput,
    start_time=_optional(_TIME),
    end_time=_optional(_TIME),
    start_address=_optional(_ADDRESS),
    end_address=_optional(_ADDRESS),
    max_stops=_optional(st.integers(-1, 3000)),
)
_DRIVER_FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "name": _optional(_TEXT),
    "display_name": _optional(_TEXT),
    "depots": _optional(st.lists(st.sampled_from(["depots/main", "north", "bad id!"]), max_size=3)),
    "route_overrides": _optional(_OVERRIDES),
}
_DRIVER_INPUT = _built(
    rp.DriverInput, email=_optional(_EMAILS | _TEXT), phone=_optional(_TEXT), **_DRIVER_FIELDS
)
_DRIVER_UPDATE = _built(rp.DriverUpdate, **_DRIVER_FIELDS)
_DRIVER = {"id": "drivers/d1", "name": "n", "email": None, "phone": None, "active": True, "depots": []}

_STOP = {"id": "plans/p1/stops/s1"}
_IMPORTED = {"success": [], "failed": []}
_PENDING = {"pending": True, "stop": None}
_PLAN = {"id": "plans/p1", "title": "t", "starts": {"day": 1, "month": 1, "year": 2027}}
_DATES = st.dates(datetime.date(1990, 1, 1), datetime.date(2110, 1, 1))

Call = Callable[[rp.RoutePlanningClient, Any], Awaitable[Any]]
Case = tuple[str, st.SearchStrategy[Any], str, str, str, Any, Call]
_V0_2B_CASES: list[Case] = [
    (
        "stops.create",
        _STOP_INPUT,
        "POST",
        "/plans/p1/stops",
        "/plans/{planId}/stops",
        _STOP,
        lambda c, item: c.stops.create("p1", item),
    ),
    (
        "stops.import_batch",
        st.lists(_STOP_INPUT, min_size=1, max_size=3),
        "POST",
        "/plans/p1/stops:import",
        "/plans/{planId}/stops:import",
        _IMPORTED,
        lambda c, items: c.stops.import_batch("p1", items),
    ),
    (
        "stops.update",
        _STOP_UPDATE,
        "PATCH",
        "/plans/p1/stops/s1",
        "/plans/{planId}/stops/{stopId}",
        _STOP,
        lambda c, item: c.stops.update("plans/p1/stops/s1", item),
    ),
    (
        "stops.live_create",
        _STOP_INPUT,
        "POST",
        "/plans/p1/stops:liveCreate",
        "/plans/{planId}/stops:liveCreate",
        _PENDING,
        lambda c, item: c.stops.live_create("p1", item),
    ),
    (
        "stops.live_update",
        _STOP_UPDATE,
        "POST",
        "/plans/p1/stops/s1:liveUpdate",
        "/plans/{planId}/stops/{stopId}:liveUpdate",
        _PENDING,
        lambda c, item: c.stops.live_update("plans/p1/stops/s1", item),
    ),
    (
        "unassigned_stops.create",
        _UNASSIGNED_INPUT,
        "POST",
        "/unassignedStops",
        "/unassignedStops",
        {"id": "unassignedStops/u1"},
        lambda c, item: c.unassigned_stops.create(item),
    ),
    (
        "unassigned_stops.import_batch",
        st.lists(_UNASSIGNED_INPUT, min_size=1, max_size=3),
        "POST",
        "/unassignedStops:import",
        "/unassignedStops:import",
        _IMPORTED,
        lambda c, items: c.unassigned_stops.import_batch(items, depot="depot-1"),
    ),
    (
        "unassigned_stops.update",
        _UNASSIGNED_UPDATE,
        "PATCH",
        "/unassignedStops/u1",
        "/unassignedStops/{unassignedStopId}",
        {"id": "unassignedStops/u1"},
        lambda c, item: c.unassigned_stops.update("u1", item),
    ),
    (
        "stops.live_import_batch",
        st.lists(_STOP_INPUT, min_size=1, max_size=3),
        "POST",
        "/plans/p1/stops:liveImport",
        "/plans/{planId}/stops:liveImport",
        {"success": [], "failed": [], "pending": True},
        lambda c, items: c.stops.live_import_batch("p1", items),
    ),
    (
        "drivers.create",
        _DRIVER_INPUT,
        "POST",
        "/drivers",
        "/drivers",
        _DRIVER,
        lambda c, item: c.drivers.create(item),
    ),
    (
        "drivers.update",
        _DRIVER_UPDATE,
        "PATCH",
        "/drivers/d1",
        "/drivers/{driverId}",
        _DRIVER,
        lambda c, item: c.drivers.update("d1", item),
    ),
    (
        "drivers.import_batch",
        st.lists(_DRIVER_INPUT, min_size=1, max_size=3),
        "POST",
        "/drivers:import",
        "/drivers:import",
        _IMPORTED,
        lambda c, items: c.drivers.import_batch(items),
    ),
    (
        "plans.create",
        st.tuples(_TEXT, _DATES, _DRIVERS),
        "POST",
        "/plans",
        "/plans",
        _PLAN,
        lambda c, v: c.plans.create(title=v[0], starts=v[1], drivers=v[2]),
    ),
    (
        "plans.update",
        st.tuples(_TEXT, _DRIVERS),
        "PATCH",
        "/plans/p1",
        "/plans/{planId}",
        _PLAN,
        lambda c, v: c.plans.update("p1", title=v[0], drivers=v[1]),
    ),
    (
        "plans.reoptimize",
        st.sampled_from([None, *rp.ReoptimizationType, "fastest"]),
        "POST",
        "/plans/p1:reoptimize",
        "/plans/{planId}:reoptimize",
        {"id": "operations/o1"},
        lambda c, v: c.plans.reoptimize("p1", optimization_type=v),
    ),
]


CASES: dict[str, list[Case]] = {"v0.2b": _V0_2B_CASES}
"""Per version: each call (its name, the inputs drawn, the request method and path,
the document's template, the reply, the call)."""


@pytest.mark.parametrize(
    ("version", "name", "inputs", "method", "path", "template", "reply", "call"),
    [
        pytest.param(version, *case, id=f"{version.name} {case[0]}")
        for version in VERSIONS
        for case in CASES[version.name]
    ],
)
def test_every_request_the_client_builds_is_valid(
    version: Version,
    name: str,
    inputs: st.SearchStrategy[Any],
    method: str,
    path: str,
    template: str,
    reply: Any,
    call: Call,
) -> None:
    sent: list[Any] = []

    @REQUESTS
    @given(value=inputs)
    def check(value: Any) -> None:
        if value is None or (isinstance(value, list) and None in value):
            return  # the constructor refused the input: nothing could be sent

        async def run() -> None:
            service = FakeService().on(method, path, answer(reply))
            try:
                async with scripted_client(service) as client:
                    await call(client, value)
            except rp.ValidationError:
                assert service.requests == []  # refused before anything was sent
                return
            sent.append(service.sent[0].body)

        asyncio.run(run())
        if sent:
            body = sent[-1]
            assert version.validation.request_errors(template, method, body) == [], body

    check()
    # The strategies reach inputs the client accepts, not only ones it refuses.
    assert len(sent) >= 3, f"{name}: only {len(sent)} generated inputs were accepted"
