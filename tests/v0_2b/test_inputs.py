"""Client-side validation: every documented rule fails with ValidationError(field, rule), and nothing is sent.

"Nothing is sent" is checked at the client's one seam, ``_send``: every
request (and so every rate-limit admission) passes through it, and the
recording client below records what reached it.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import route_planning_async as rp
from route_planning_async import ValidationError
from route_planning_async._core import Request, Response
from route_planning_async.v0_2b import _inputs as rp_inputs
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import PLAN_YEAR_RANGE, check_no_depot, reoptimization_body

# Property tests draw the same examples on every run.
DETERMINISTIC = settings(derandomize=True, database=None)

BASE_URL = "https://api.example.test/public/v0.2b"
STOP_ID = "plans/p1/stops/s1"
ADDRESS = rp.AddressInput(address_line_one="1 Main St", city="Springfield")


class RecordingClient(rp.RoutePlanningClient):
    """A client whose seam records requests instead of sending them."""

    def __init__(self) -> None:
        super().__init__("secret-key", base_url=BASE_URL)
        self.requests: list[Request] = []

    def _send(
        self, request: Request, *, on_sent: Callable[[], None] | None = None
    ) -> Coroutine[Any, Any, Response]:
        # Every call's one way out (reads await it directly, the rest through _execute).
        self.requests.append(request)
        return _pending()


async def _pending() -> Response:
    return Response(200, {"Content-Type": "application/json"}, b'{"pending": true}')


@pytest.fixture
def client() -> RecordingClient:
    return RecordingClient()


def stop(**fields: Any) -> rp.StopInput:
    return rp.StopInput(address=ADDRESS, **fields)


def raises(field: str, rule_part: str) -> Any:
    """Context manager: a ValidationError for ``field`` whose rule mentions ``rule_part``."""
    return _Raises(field, rule_part)


class _Raises:
    def __init__(self, field: str, rule_part: str) -> None:
        self.field = field
        self.rule_part = rule_part
        self._cm = pytest.raises(ValidationError)

    def __enter__(self) -> None:
        self._info = self._cm.__enter__()

    def __exit__(self, *exc: Any) -> bool:
        handled = self._cm.__exit__(*exc)
        error = self._info.value
        assert error.field == self.field, str(error)
        assert self.rule_part in error.rule, str(error)
        assert str(error).startswith(f"{self.field}: ")
        return bool(handled)


# Plans -----------------------------------------------------------------------

DAY = datetime.date(2026, 11, 23)


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kwargs", "field", "rule"),
    [
        ({"title": ""}, "title", "1 to 255 characters"),
        ({"title": "x" * 256}, "title", "1 to 255 characters"),
        ({"title": 7}, "title", "must be a string"),
        (
            {"starts": datetime.date(PLAN_YEAR_RANGE[0] - 1, 12, 31)},
            "starts",
            "year must be from 2000 to 2100",
        ),
        ({"starts": datetime.date(PLAN_YEAR_RANGE[1] + 1, 1, 1)}, "starts", "year must be from 2000 to 2100"),
        ({"starts": datetime.datetime(2026, 1, 1, 9, 0)}, "starts", "not a datetime"),
        ({"starts": "2026-01-01"}, "starts", "must be a datetime.date"),
        ({"drivers": [f"drivers/d{i}" for i in range(51)]}, "drivers", "at most 50 drivers"),
        ({"drivers": ["drivers/ok", "drivers/not ok"]}, "drivers[1]", "1 to 50 letters"),
        ({"drivers": ["depots/x"]}, "drivers[0]", "1 to 50 letters"),
        ({"drivers": "drivers/d1"}, "drivers", "must be a list"),
        ({"depot": "depots/"}, "depot", "1 to 50 letters"),
        ({"depot": "depots/a/b"}, "depot", "1 to 50 letters"),
    ],
)
async def test_plan_create_rules(
    client: RecordingClient, kwargs: dict[str, Any], field: str, rule: str
) -> None:
    arguments: dict[str, Any] = {"title": "Monday", "starts": DAY, **kwargs}
    with raises(field, rule):
        await client.plans.create(**arguments)
    assert client.requests == []


def test_plan_drivers_are_deduplicated_before_the_limit() -> None:
    many = [f"d{i % 50}" for i in range(120)]
    plan = rp.PlanInput(title="t", starts=DAY, drivers=many)
    assert plan.drivers == [f"drivers/d{i}" for i in range(50)]


def test_plan_references_accept_bare_ids() -> None:
    plan = rp.PlanInput(title="t", starts=DAY, drivers=["d1", "drivers/d1", "d2"], depot="main")
    assert unstructure(plan) == {
        "title": "t",
        "starts": {"day": 23, "month": 11, "year": 2026},
        "drivers": ["drivers/d1", "drivers/d2"],
        "depot": "depots/main",
    }


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kwargs", "field", "rule"),
    [
        ({"title": ""}, "title", "1 to 255 characters"),
        ({"starts": datetime.date(1999, 1, 1)}, "starts", "year must be"),
        ({"drivers": [f"d{i}" for i in range(51)]}, "drivers", "at most 50"),
        ({"depot": "main depot"}, "depot", "1 to 50 letters"),
    ],
)
async def test_plan_update_rules(
    client: RecordingClient, kwargs: dict[str, Any], field: str, rule: str
) -> None:
    with raises(field, rule):
        await client.plans.update("plans/p1", **kwargs)
    assert client.requests == []


@DETERMINISTIC
@given(st.integers(min_value=1, max_value=2200))
def test_plan_year_range(year: int) -> None:
    low, high = PLAN_YEAR_RANGE
    if low <= year <= high:
        assert rp.PlanInput(title="t", starts=datetime.date(year, 1, 1)).starts.year == year
    else:
        with raises("starts", "year must be"):
            rp.PlanInput(title="t", starts=datetime.date(year, 1, 1))


@DETERMINISTIC
@given(st.text(max_size=300))
def test_plan_title_length(title: str) -> None:
    if 1 <= len(title) <= 255:
        assert rp.PlanUpdate(title=title).title == title
    else:
        with raises("title", "1 to 255 characters"):
            rp.PlanUpdate(title=title)


# Stops -----------------------------------------------------------------------

STOP_RULES: list[tuple[Callable[[], object], str, str]] = [
    (lambda: stop(allowed_drivers=[f"d{i}" for i in range(101)]), "allowed_drivers", "at most 100"),
    (lambda: stop(allowed_drivers=["drivers/ok", "x y"]), "allowed_drivers[1]", "1 to 50 letters"),
    (lambda: stop(allowed_drivers="drivers/d1"), "allowed_drivers", "must be a list"),
    (lambda: stop(driver="drivers/d1", allowed_drivers=["drivers/d2"]), "driver", "mutually exclusive"),
    (lambda: stop(driver="drivers/"), "driver", "1 to 50 letters"),
    (lambda: stop(barcodes=[f"b{i}" for i in range(201)]), "barcodes", "at most 200 items"),
    (lambda: stop(barcodes=["ok", ""]), "barcodes[1]", "1 to 255 characters"),
    (lambda: stop(barcodes=["x" * 256]), "barcodes[0]", "1 to 255 characters"),
    (lambda: stop(barcodes=[1]), "barcodes[0]", "must be a string"),
    (lambda: stop(barcodes="ABC"), "barcodes", "must be a list of strings"),
    (lambda: stop(package_count=0), "package_count", "from 1 to 10000"),
    (lambda: stop(package_count=10001), "package_count", "from 1 to 10000"),
    (lambda: stop(package_count=True), "package_count", "must be a number"),
    (lambda: stop(package_count="3"), "package_count", "must be a number"),
    (lambda: stop(notes=""), "notes", "1 to 2000 characters"),
    (lambda: stop(notes="n" * 2001), "notes", "1 to 2000 characters"),
    (lambda: stop(client_id=""), "client_id", "1 to 100 characters"),
    (lambda: stop(client_id="c" * 101), "client_id", "1 to 100 characters"),
    (lambda: stop(custom_properties={"prop": 5}), "custom_properties['prop']", "must be a string or None"),
    (lambda: stop(custom_properties={"prop": ""}), "custom_properties['prop']", "1 to 255 characters"),
    (lambda: stop(custom_properties={"prop": "v" * 256}), "custom_properties['prop']", "1 to 255 characters"),
    (lambda: stop(custom_properties={"p" * 51: "x"}), "custom_properties", "1 to 50 characters"),
    (lambda: stop(weight=5), "weight", "must be a WeightInput"),
    (lambda: stop(payment_on_delivery=5), "payment_on_delivery", "must be a PaymentOnDeliveryInput"),
    (lambda: stop(custom_properties={3: "x"}), "custom_properties", "keys must be"),
    (lambda: stop(custom_properties=["x"]), "custom_properties", "must be a mapping"),
    (lambda: stop(activity="dropoff"), "activity", "must be one of delivery, pickup"),
    (lambda: stop(optimization_order="middle"), "optimization_order", "must be one of default, first, last"),
    (lambda: stop(timing={"estimated_attempt_duration": 5}), "timing", "must be a TimingInput"),
    (lambda: stop(recipient="Bob"), "recipient", "must be a RecipientInput"),
    (lambda: stop(proof_of_attempt_requirements=True), "proof_of_attempt_requirements", "must be a Proof"),
    (lambda: rp.StopInput(address={"city": "x"}), "address", "must be an AddressInput"),  # type: ignore[arg-type]
    (lambda: rp.UnassignedStopInput(address=ADDRESS, depot="depots/a b"), "depot", "1 to 50 letters"),
    (lambda: rp.UnassignedStopUpdate(allowed_drivers=["d"] * 101), "allowed_drivers", "at most 100"),
    (lambda: rp.StopUpdate(driver="d1", allowed_drivers=["d2"]), "driver", "mutually exclusive"),
    (lambda: rp.StopUpdate(barcodes=[""]), "barcodes[0]", "1 to 255 characters"),
    (lambda: rp.StopUpdate(package_count=0), "package_count", "from 1 to 10000"),
    (lambda: rp.UnassignedStopUpdate(notes=""), "notes", "1 to 2000 characters"),
]


@pytest.mark.parametrize(("build", "field", "rule"), STOP_RULES)
def test_stop_body_rules(build: Callable[[], object], field: str, rule: str) -> None:
    with raises(field, rule):
        build()


@pytest.mark.parametrize(
    ("build", "field", "rule"),
    [
        (lambda: rp.AddressInput(), "address", "at least one address field"),
        (lambda: rp.AddressInput(city=None, zip=None), "address", "at least one address field"),
        (lambda: rp.AddressInput(latitude=90.01, longitude=0), "address.latitude", "from -90 to 90"),
        (lambda: rp.AddressInput(latitude=-91, longitude=0), "address.latitude", "from -90 to 90"),
        (lambda: rp.AddressInput(latitude=0, longitude=180.5), "address.longitude", "from -180 to 180"),
        (lambda: rp.AddressInput(latitude=0, longitude=-181), "address.longitude", "from -180 to 180"),
        (lambda: rp.AddressInput(latitude=10.0), "address.longitude", "given together"),
        (lambda: rp.AddressInput(longitude=10.0, city="x"), "address.latitude", "given together"),
        (lambda: rp.AddressInput(latitude=math.nan, longitude=0), "address.latitude", "finite"),
        (lambda: rp.AddressInput(latitude=True, longitude=0), "address.latitude", "must be a number"),
        (lambda: rp.AddressInput(latitude="1.0", longitude=0), "address.latitude", "must be a number"),  # type: ignore[arg-type]
        (lambda: rp.AddressInput(city=3), "address.city", "must be a string"),  # type: ignore[arg-type]
    ],
)
def test_address_rules(build: Callable[[], object], field: str, rule: str) -> None:
    with raises(field, rule):
        build()


@DETERMINISTIC
@given(
    st.floats(min_value=-200, max_value=200, allow_nan=False),
    st.floats(min_value=-200, max_value=200, allow_nan=False),
)
def test_coordinate_ranges(latitude: float, longitude: float) -> None:
    if not -90 <= latitude <= 90:
        with raises("address.latitude", "from -90 to 90"):
            rp.AddressInput(latitude=latitude, longitude=longitude)
    elif not -180 <= longitude <= 180:
        with raises("address.longitude", "from -180 to 180"):
            rp.AddressInput(latitude=latitude, longitude=longitude)
    else:
        address = rp.AddressInput(latitude=latitude, longitude=longitude)
        assert unstructure(address) == {"latitude": latitude, "longitude": longitude}


@DETERMINISTIC
@given(st.integers(min_value=-5, max_value=10_010))
def test_package_count_range(count: int) -> None:
    if 1 <= count <= 10000:
        assert stop(package_count=count).package_count == count
    else:
        with raises("package_count", "from 1 to 10000"):
            stop(package_count=count)


@DETERMINISTIC
@given(st.integers(min_value=0, max_value=2100))
def test_notes_length(length: int) -> None:
    if 1 <= length <= 2000:
        assert rp.StopUpdate(notes="n" * length).notes == "n" * length
    else:
        with raises("notes", "1 to 2000 characters"):
            rp.StopUpdate(notes="n" * length)


@pytest.mark.parametrize(
    ("build", "field", "rule"),
    [
        (
            lambda: rp.TimingInput(earliest_attempt_time=datetime.time(9, 0, 30)),
            "timing.earliest_attempt_time",
            "hour and minute only",
        ),
        (
            lambda: rp.TimingInput(latest_attempt_time=datetime.time(9, 0, tzinfo=datetime.UTC)),
            "timing.latest_attempt_time",
            "hour and minute only",
        ),
        (
            lambda: rp.TimingInput(earliest_attempt_time="09:00"),  # type: ignore[arg-type]
            "timing.earliest_attempt_time",
            "must be a datetime.time",
        ),
        (
            lambda: rp.TimingInput(estimated_attempt_duration=0),
            "timing.estimated_attempt_duration",
            "at least 1",
        ),
        (
            lambda: rp.TimingInput(estimated_attempt_duration=90.5),  # type: ignore[arg-type]
            "timing.estimated_attempt_duration",
            "must be an integer",
        ),
        (
            lambda: rp.TimingInput(estimated_attempt_duration=False),
            "timing.estimated_attempt_duration",
            "must be an integer",
        ),
        (lambda: rp.AddressInput(city="c" * 101), "address.city", "1 to 100 characters"),
        (lambda: rp.AddressInput(country=""), "address.country", "1 to 100 characters"),
        (lambda: rp.AddressInput(address_line_one="a" * 256), "address.address_line_one", "1 to 255"),
        (lambda: rp.RecipientInput(name=""), "recipient.name", "1 to 255 characters"),
        (lambda: rp.RecipientInput(name="n" * 300), "recipient.name", "1 to 255 characters"),
        (lambda: rp.OrderInfoInput(products=[""]), "order_info.products[0]", "1 to 255 characters"),
        (lambda: rp.OrderInfoInput(products=["p"] * 101), "order_info.products", "at most 100 items"),
        (lambda: rp.OrderInfoInput(seller_name=""), "order_info.seller_name", "1 to 255 characters"),
        (lambda: rp.WeightInput(amount=-1, unit="kilogram"), "weight.amount", "from 0 to 999999"),
        (lambda: rp.WeightInput(amount=1_000_000, unit="kilogram"), "weight.amount", "from 0 to 999999"),
        (lambda: rp.WeightInput(amount=1.005, unit="kilogram"), "weight.amount", "multiple of 0.01"),
        (lambda: rp.WeightInput(amount=1, unit="stone"), "weight.unit", "must be one of kilogram"),
        (lambda: rp.WeightInput(amount=1, unit=None), "weight.unit", "must be one of"),  # type: ignore[arg-type]
        (lambda: rp.PaymentOnDeliveryInput(amount=-1), "payment_on_delivery.amount", "at least 0"),
        (lambda: rp.PaymentOnDeliveryInput(amount=12.5), "payment_on_delivery.amount", "an integer"),  # type: ignore[arg-type]
        (lambda: rp.PaymentOnDeliveryInput(currency="XYZ"), "payment_on_delivery.currency", "one of"),
        (lambda: rp.RecipientInput(email=5), "recipient.email", "must be a string"),  # type: ignore[arg-type]
        (lambda: rp.OrderInfoInput(products="Tea"), "order_info.products", "must be a list of strings"),
        (lambda: rp.OrderInfoInput(products=["Tea", 2]), "order_info.products[1]", "must be a string"),  # type: ignore[list-item]
    ],
)
def test_nested_object_rules(build: Callable[[], object], field: str, rule: str) -> None:
    with raises(field, rule):
        build()


def test_enumerations_accept_members_and_strings() -> None:
    with_members = stop(activity=rp.Activity.PICKUP, optimization_order=rp.OptimizationOrder.LAST)
    with_strings = stop(activity="pickup", optimization_order="last")
    assert unstructure(with_members) == unstructure(with_strings)
    assert unstructure(with_strings)["activity"] == "pickup"


def test_client_id_is_create_only_and_sent_as_circuit_client_id() -> None:
    assert not hasattr(rp.StopUpdate(), "client_id")
    assert not hasattr(rp.UnassignedStopUpdate(), "client_id")
    with pytest.raises(TypeError):
        rp.StopUpdate(client_id="c1")  # type: ignore[call-arg]
    assert unstructure(stop(client_id="c1"))["circuitClientId"] == "c1"
    assert "serviceClientId" not in unstructure(stop(client_id="c1"))
    unassigned = rp.UnassignedStopInput(address=ADDRESS, client_id="c2")
    assert unstructure(unassigned)["circuitClientId"] == "c2"


def test_weight_payment_and_null_custom_values_are_sent_in_the_official_shape() -> None:
    body = unstructure(
        stop(
            weight=rp.WeightInput(amount=12.5, unit=rp.WeightUnit.KILOGRAM),
            payment_on_delivery=rp.PaymentOnDeliveryInput(amount=1250, currency="EUR"),
            package_count=2.5,
            custom_properties={"prop": None, "other": "x"},
        )
    )
    assert body["weight"] == {"amount": 12.5, "unit": "kilogram"}
    assert body["paymentOnDelivery"] == {"amount": 1250, "currency": "EUR"}
    assert body["packageCount"] == 2.5
    assert body["customProperties"] == {"prop": None, "other": "x"}
    assert len(stop(barcodes=[f"b{i}" for i in range(200)]).barcodes) == 200


UNENCODABLE = "caf\udce9"  # "café" read as Latin-1 bytes with surrogateescape


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: stop(notes=UNENCODABLE), "notes"),
        (lambda: stop(client_id=UNENCODABLE), "client_id"),
        (lambda: stop(barcodes=["ok", UNENCODABLE]), "barcodes[1]"),
        (lambda: stop(custom_properties={"p": UNENCODABLE}), "custom_properties['p']"),
        (lambda: stop(custom_properties={UNENCODABLE: "x"}), f"custom_properties[{UNENCODABLE!r}]"),
        (lambda: rp.AddressInput(city=UNENCODABLE), "address.city"),
        (lambda: rp.RecipientInput(external_id=UNENCODABLE), "recipient.external_id"),
        (lambda: rp.RecipientInput(name=UNENCODABLE), "recipient.name"),
        (lambda: rp.OrderInfoInput(products=[UNENCODABLE]), "order_info.products[0]"),
        (lambda: rp.OrderInfoInput(seller_website=UNENCODABLE), "order_info.seller_website"),
        (lambda: rp.PlanInput(title=UNENCODABLE, starts=datetime.date(2027, 1, 1)), "title"),
        (lambda: rp.PlanUpdate(title=UNENCODABLE), "title"),
    ],
)
def test_a_string_utf8_cannot_carry_is_refused_naming_the_field(
    build: Callable[[], object], field: str
) -> None:
    with raises(field, "cannot be encoded as UTF-8"):
        build()


STOP_FIELDS = [
    "timing", "recipient", "order_info", "proof_of_attempt_requirements", "allowed_drivers", "activity",
    "optimization_order", "package_count", "weight", "payment_on_delivery", "notes", "barcodes",
    "custom_properties",
]  # fmt: skip


def test_the_stop_classes_share_their_fields_in_their_own_order() -> None:
    # The JSON body lists the fields in this order.
    def names(cls: type) -> list[str]:
        return [field.name for field in attrs.fields(cls)]

    stop_fields = [*STOP_FIELDS[:4], "driver", *STOP_FIELDS[4:]]
    assert names(rp.StopInput) == ["address", *stop_fields[:-2], "client_id", *stop_fields[-2:]]
    assert names(rp.StopUpdate) == stop_fields
    unassigned_input = ["address", "depot", *STOP_FIELDS[:-2], "client_id", *STOP_FIELDS[-2:]]
    assert names(rp.UnassignedStopInput) == unassigned_input
    assert names(rp.UnassignedStopUpdate) == [*STOP_FIELDS, "depot"]
    # A rule broken in one class is reported the same way by all four.
    for cls in (rp.StopInput, rp.StopUpdate, rp.UnassignedStopInput, rp.UnassignedStopUpdate):
        extra = {"address": ADDRESS} if "address" in names(cls) else {}
        with raises("package_count", "must be from 1 to 10000, got 0"):
            cls(package_count=0, **extra)
        with raises("timing", "must be a TimingInput, got str"):
            cls(timing="9am", **extra)


def test_a_stop_of_a_batch_import_may_not_name_its_own_depot() -> None:
    check_no_depot(rp.UnassignedStopInput(address=ADDRESS), "stops[0]")
    for depot in ("d1", None):
        with raises(
            "stops[4].depot", "must not be set on stops of a batch import; pass depot= to the import instead"
        ):
            check_no_depot(rp.UnassignedStopInput(address=ADDRESS, depot=depot), "stops[4]")


def test_the_reoptimization_body() -> None:
    assert reoptimization_body(None) == {}
    assert reoptimization_body("reorder_all_stops") == {"optimizationType": "reorder_all_stops"}
    member = rp.ReoptimizationType.REDISTRIBUTE_STOPS_BETWEEN_DRIVERS
    assert reoptimization_body(member) == {"optimizationType": "redistribute_stops_between_drivers"}
    assert type(reoptimization_body(member)["optimizationType"]) is str
    names = "redistribute_stops_between_drivers, reorder_all_stops, reorder_changed_stops"
    with raises("optimization_type", f"must be one of {names}, got 'fastest'"):
        reoptimization_body("fastest")


# UNSET, None and whole arrays ------------------------------------------------


def test_unset_fields_are_left_out_and_none_is_sent_as_null() -> None:
    assert unstructure(rp.StopUpdate()) == {}
    assert unstructure(rp.PlanUpdate()) == {}
    update = rp.StopUpdate(notes=None, barcodes=[], timing=rp.TimingInput(estimated_attempt_duration=None))
    assert unstructure(update) == {
        "notes": None,
        "barcodes": [],
        "timing": {"estimatedAttemptDuration": None},
    }
    assert repr(rp.UNSET) == "UNSET"
    assert not rp.UNSET


def test_full_stop_input_serializes_to_camel_case() -> None:
    body = rp.StopInput(
        address=rp.AddressInput(
            address_name="Home",
            address_line_one="1 Main St",
            address_line_two="Flat 2",
            city="Springfield",
            state="IL",
            zip="62701",
            country="US",
            latitude=39.78,
            longitude=-89.65,
        ),
        timing=rp.TimingInput(
            earliest_attempt_time=datetime.time(9, 0),
            latest_attempt_time=datetime.time(17, 30),
            estimated_attempt_duration=90,
        ),
        recipient=rp.RecipientInput(external_id="c1", email="a@example.test", phone="+1", name="Ann"),
        order_info=rp.OrderInfoInput(
            products=["Tea"], seller_order_id="o1", seller_name="S", seller_website="https://s.test"
        ),
        proof_of_attempt_requirements=rp.ProofOfAttemptRequirements(enabled=False),
        allowed_drivers=("d1", "drivers/d2"),
        activity="pickup",
        optimization_order="first",
        package_count=3,
        notes="Back door",
        client_id="client-1",
        barcodes=("B1", "B2"),
        custom_properties={"prop-1": "cold"},
    )
    assert unstructure(body) == {
        "address": {
            "addressName": "Home",
            "addressLineOne": "1 Main St",
            "addressLineTwo": "Flat 2",
            "city": "Springfield",
            "state": "IL",
            "zip": "62701",
            "country": "US",
            "latitude": 39.78,
            "longitude": -89.65,
        },
        "timing": {
            "earliestAttemptTime": {"hour": 9, "minute": 0},
            "latestAttemptTime": {"hour": 17, "minute": 30},
            "estimatedAttemptDuration": 90,
        },
        "recipient": {"externalId": "c1", "email": "a@example.test", "phone": "+1", "name": "Ann"},
        "orderInfo": {
            "products": ["Tea"],
            "sellerOrderId": "o1",
            "sellerName": "S",
            "sellerWebsite": "https://s.test",
        },
        "proofOfAttemptRequirements": {"enabled": False},
        "allowedDrivers": ["drivers/d1", "drivers/d2"],
        "activity": "pickup",
        "optimizationOrder": "first",
        "packageCount": 3,
        "notes": "Back door",
        "circuitClientId": "client-1",
        "barcodes": ["B1", "B2"],
        "customProperties": {"prop-1": "cold"},
    }


# Resource calls: rules of requests, checked before anything is sent ----------

Call = Callable[[RecordingClient], Awaitable[object]]


def _collect(make: Callable[[RecordingClient], rp.Paginator[Any]]) -> Call:
    async def call(client: RecordingClient) -> object:
        return await make(client).collect()

    return call


REQUEST_RULES: list[tuple[str, Call, str, str]] = [
    ("import empty", lambda c: c.stops.import_batch("p1", []), "stops", "1 to 100 stops"),
    ("import 101", lambda c: c.stops.import_batch("p1", [stop()] * 101), "stops", "1 to 100 stops"),
    ("import dict", lambda c: c.stops.import_batch("p1", [stop(), {}]), "stops[1]", "must be a StopInput"),  # type: ignore[list-item]
    ("import str", lambda c: c.stops.import_batch("p1", "abc"), "stops", "must be a sequence"),  # type: ignore[arg-type]
    (
        "import_many None",
        lambda c: c.stops.import_many("p1", None),  # type: ignore[arg-type]
        "stops",
        "must be an iterable or async iterable of StopInput, got NoneType",
    ),
    (
        "import_many str",
        lambda c: c.stops.import_many("p1", "abc"),  # type: ignore[arg-type]
        "stops",
        "must be an iterable or async iterable of StopInput, got str",
    ),
    (
        "unassigned import 101",
        lambda c: c.unassigned_stops.import_batch([rp.UnassignedStopInput(address=ADDRESS)] * 101),
        "stops",
        "1 to 100 stops",
    ),
    (
        "unassigned import per-stop depot",
        lambda c: c.unassigned_stops.import_batch(
            [rp.UnassignedStopInput(address=ADDRESS), rp.UnassignedStopInput(address=ADDRESS, depot="d1")]
        ),
        "stops[1].depot",
        "must not be set on stops of a batch import; pass depot= to the import instead",
    ),
    (
        "unassigned import bad depot",
        lambda c: c.unassigned_stops.import_batch([rp.UnassignedStopInput(address=ADDRESS)], depot="a/b"),
        "depot",
        "1 to 50 letters",
    ),
    ("create dict", lambda c: c.stops.create("p1", {"address": {}}), "stop", "must be a StopInput"),  # type: ignore[arg-type]
    ("live create dict", lambda c: c.stops.live_create("p1", "x"), "stop", "must be a StopInput"),  # type: ignore[arg-type]
    (
        "unassigned create wrong type",
        lambda c: c.unassigned_stops.create(stop()),  # type: ignore[arg-type]
        "stop",
        "must be an UnassignedStopInput",
    ),
    (
        "update location",
        lambda c: c.stops.update(STOP_ID, address=ADDRESS),
        "address",
        "location cannot be updated",
    ),
    (
        "update service client id",
        lambda c: c.stops.update(STOP_ID, service_client_id="c1"),
        "service_client_id",
        "cannot be updated",
    ),
    (
        "live update service client id",
        lambda c: c.stops.live_update(STOP_ID, client_id="c1"),
        "client_id",
        "cannot be updated",
    ),
    (
        "unassigned update service client id",
        lambda c: c.unassigned_stops.update("u1", service_client_id="c1"),
        "service_client_id",
        "cannot be updated",
    ),
    ("update unknown field", lambda c: c.stops.update(STOP_ID, colour="red"), "colour", "not a field"),
    (
        "update object and fields",
        lambda c: c.stops.update(STOP_ID, rp.StopUpdate(notes="a"), notes="b"),
        "update",
        "not both",
    ),
    (
        "update wrong object",
        lambda c: c.stops.update(STOP_ID, rp.UnassignedStopUpdate()),  # type: ignore[arg-type]
        "update",
        "must be a StopUpdate",
    ),
    ("update bad notes", lambda c: c.stops.update(STOP_ID, notes=""), "notes", "1 to 2000"),
    (
        "plan update object and fields",
        lambda c: c.plans.update("p1", rp.PlanUpdate(title="a"), title="b"),
        "update",
        "not both",
    ),
    (
        "reoptimize type",
        lambda c: c.plans.reoptimize("p1", optimization_type="fastest"),
        "optimization_type",
        "must be one of",
    ),
    ("plan id", lambda c: c.plans.get("../p1"), "plan_id", "1 to 50 letters"),
    ("plan id too long", lambda c: c.plans.optimize("p" * 51), "plan_id", "1 to 50 letters"),
    ("plan id query", lambda c: c.plans.delete("p1?x=1"), "plan_id", "1 to 50 letters"),
    ("stop id bare", lambda c: c.stops.get("s1"), "stop_id", "plans/<planId>/stops/<stopId>"),
    (
        "stop id wrong",
        lambda c: c.stops.delete("plans/p1/stop/s1"),
        "stop_id",
        "plans/<planId>/stops/<stopId>",
    ),
    ("stop id chars", lambda c: c.stops.live_delete("plans/p1/stops/s#1"), "stop_id", "1 to 50 letters"),
    ("operation id", lambda c: c.operations.get("operations/a b"), "operation_id", "1 to 50 letters"),
    ("unassigned id", lambda c: c.unassigned_stops.get("unassignedStops/"), "unassigned_stop_id", "1 to 50"),
    ("depot id", lambda c: c.depots.get("depots/x/y"), "depot_id", "1 to 50 letters"),
    ("serialized id", lambda c: c.get("vehicles/v1"), "serialized_id", "must be plans/<id>"),
    ("serialized id empty", lambda c: c.get(""), "serialized_id", "must be plans/<id>"),
    (
        "plans page size 0",
        _collect(lambda c: c.plans.list(max_page_size=0)),
        "max_page_size",
        "from 1 to 20",
    ),
    (
        "plans page size 21",
        _collect(lambda c: c.plans.list(max_page_size=21)),
        "max_page_size",
        "from 1 to 20",
    ),
    (
        "stops page size 11",
        _collect(lambda c: c.stops.list("p1", max_page_size=11)),
        "max_page_size",
        "from 1 to 10",
    ),
    (
        "unassigned page size 21",
        _collect(lambda c: c.unassigned_stops.list(max_page_size=21)),
        "max_page_size",
        "from 1 to 20",
    ),
    (
        "depots page size 21",
        _collect(lambda c: c.depots.list(max_page_size=21)),
        "max_page_size",
        "from 1 to 20",
    ),
    (
        "page size not an integer",
        _collect(lambda c: c.plans.list(max_page_size=2.0)),  # type: ignore[arg-type]
        "max_page_size",
        "must be an integer",
    ),
    ("page token empty", _collect(lambda c: c.plans.list(page_token="")), "page_token", "1 to 255"),
    (
        "page token long",
        _collect(lambda c: c.stops.list("p1", page_token="t" * 256)),
        "page_token",
        "1 to 255",
    ),
    (
        "filter name",
        _collect(lambda c: c.plans.list(filter={"title]": "x"})),
        "filter",
        "names must be",
    ),
    (
        "filter datetime",
        _collect(lambda c: c.plans.list(filter={"startsGte": datetime.datetime(2026, 1, 1)})),
        "filter[startsGte]",
        "not a datetime",
    ),
    (
        "filter empty value",
        _collect(lambda c: c.stops.list("p1", filter={"external_id": ""})),
        "filter[externalId]",
        "non-empty string",
    ),
    (
        "filter not a mapping",
        _collect(lambda c: c.unassigned_stops.list(filter=[("a", "b")])),  # type: ignore[arg-type]
        "filter",
        "must be a mapping",
    ),
    (
        "operations page size 0",
        _collect(lambda c: c.operations.list(max_page_size=0)),
        "max_page_size",
        "from 1 to 20",
    ),
    (
        "operations page size 21",
        _collect(lambda c: c.operations.list(max_page_size=21)),
        "max_page_size",
        "from 1 to 20",
    ),
    (
        "operations page token long",
        _collect(lambda c: c.operations.list(page_token="t" * 256)),
        "page_token",
        "1 to 255",
    ),
    (
        "operations filter done string",
        _collect(lambda c: c.operations.list(filter={"done": "false"})),
        "filter[done]",
        "must be True or False",
    ),
    (
        "operations filter done number",
        _collect(lambda c: c.operations.list(filter={"done": 0})),
        "filter[done]",
        "must be True or False",
    ),
    (
        "operations filter type",
        _collect(lambda c: c.operations.list(filter={"type": "plan_import"})),
        "filter[type]",
        "must be one of plan_optimization",
    ),
    (
        "operations filter unknown name",
        _collect(lambda c: c.operations.list(filter={"target_plan_id": "plans/p1"})),
        "filter",
        "filters on done and type only",
    ),
    (
        "operations filter not a mapping",
        _collect(lambda c: c.operations.list(filter=[("done", True)])),  # type: ignore[arg-type]
        "filter",
        "must be a mapping",
    ),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("call", "field", "rule"),
    [case[1:] for case in REQUEST_RULES],
    ids=[case[0] for case in REQUEST_RULES],
)
async def test_request_rules_fail_before_sending(
    client: RecordingClient, call: Call, field: str, rule: str
) -> None:
    with raises(field, rule):
        await call(client)
    assert client.requests == []


UPDATE_RULES: list[tuple[dict[str, Any], str, str]] = [
    ({"allowed_drivers": [f"d{i}" for i in range(101)]}, "allowed_drivers", "at most 100"),
    ({"barcodes": ["x" * 256]}, "barcodes[0]", "1 to 255 characters"),
    ({"barcodes": [f"b{i}" for i in range(201)]}, "barcodes", "at most 200 items"),
    ({"package_count": 10001}, "package_count", "from 1 to 10000"),
    ({"notes": "n" * 2001}, "notes", "1 to 2000 characters"),
    ({"custom_properties": {"prop": 1}}, "custom_properties['prop']", "must be a string"),
    ({"activity": "dropoff"}, "activity", "must be one of"),
    ({"optimization_order": "middle"}, "optimization_order", "must be one of"),
    ({"timing": "9am"}, "timing", "must be a TimingInput"),
    ({"recipient": {"name": "Bob"}}, "recipient", "must be a RecipientInput"),
]

UPDATERS: dict[str, Callable[..., Awaitable[object]]] = {
    "stops.update": lambda c, **f: c.stops.update(STOP_ID, **f),
    "stops.live_update": lambda c, **f: c.stops.live_update(STOP_ID, **f),
    "unassigned_stops.update": lambda c, **f: c.unassigned_stops.update("unassignedStops/u1", **f),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("updater", list(UPDATERS))
@pytest.mark.parametrize(("fields", "field", "rule"), UPDATE_RULES)
async def test_update_rules_fail_in_the_resource_before_sending(
    client: RecordingClient, updater: str, fields: dict[str, Any], field: str, rule: str
) -> None:
    with raises(field, rule):
        await UPDATERS[updater](client, **fields)
    assert client.requests == []


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("fields", "field", "rule"),
    [
        ({"driver": "drivers/d1", "allowed_drivers": ["drivers/d2"]}, "driver", "mutually exclusive"),
        ({"driver": "drivers/"}, "driver", "1 to 50 letters"),
    ],
)
async def test_stop_driver_rules_in_updates(
    client: RecordingClient, fields: dict[str, Any], field: str, rule: str
) -> None:
    with raises(field, rule):
        await client.stops.update(STOP_ID, **fields)
    with raises(field, rule):
        await client.stops.live_update(STOP_ID, **fields)
    # Unassigned stops have no deprecated driver field at all.
    with raises("driver", "not a field of UnassignedStopUpdate"):
        await client.unassigned_stops.update("u1", **fields)
    assert client.requests == []


def test_list_arguments_are_checked_when_the_paginator_is_made(client: RecordingClient) -> None:
    # Not only when iterated: a bad list call fails at once.
    with raises("max_page_size", "from 1 to 10"):
        client.stops.list("p1", max_page_size=50)
    with raises("plan_id", "1 to 50 letters"):
        client.stops.list("bad id")
    with raises("filter[done]", "must be True or False"):
        client.operations.list(filter={"done": "yes"})
    assert client.requests == []


@pytest.mark.asyncio
async def test_operation_list_filter_values_are_sent_as_the_api_spells_them(client: RecordingClient) -> None:
    # The recorder's answer has no "operations" key: an empty last page.
    assert await client.operations.list(filter={"done": True, "type": "plan_optimization"}).collect() == []
    assert await client.operations.list(filter={"done": False}, max_page_size=1).collect() == []
    assert [(r.method, r.path, r.category, r.query) for r in client.requests] == [
        (
            "GET",
            "/operations",
            rp.Category.READ,
            (("filter[done]", "true"), ("filter[type]", "plan_optimization")),
        ),
        ("GET", "/operations", rp.Category.READ, (("maxPageSize", "1"), ("filter[done]", "false"))),
    ]


@pytest.mark.asyncio
async def test_valid_calls_do_reach_the_seam(client: RecordingClient) -> None:
    # The counterpart of the tests above: the recorder does see accepted calls.
    await client.stops.live_delete(STOP_ID)
    await client.stops.live_update(STOP_ID, notes="ok")
    assert [r.path for r in client.requests] == [
        "/plans/p1/stops/s1:liveDelete",
        "/plans/p1/stops/s1:liveUpdate",
    ]


@pytest.mark.parametrize(
    ("fields", "update_class"),
    [
        (rp_inputs.StopUpdateFields, rp.StopUpdate),
        (rp_inputs.UnassignedStopUpdateFields, rp.UnassignedStopUpdate),
        (rp_inputs.DriverUpdateFields, rp.DriverUpdate),
    ],
)
def test_the_typed_keywords_of_an_update_are_the_fields_of_its_class(
    fields: type[Any], update_class: type[Any]
) -> None:
    # update(stop_id, **fields) is typed by the TypedDict and built into the class:
    # a field added to one and not the other would be refused or untyped.
    assert fields.__optional_keys__ == set(attrs.fields_dict(update_class))
