"""Response models through the private converter, against JSON built from the contract's shapes."""

from __future__ import annotations

import datetime
from typing import Any

import attrs
import cattrs
import pytest
from cattrs.gen import make_dict_structure_fn
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fixtures import load

import route_planning_async as rp
from route_planning_async._converter import make_model_structure_fn, renames
from route_planning_async._docs import keywords_of
from route_planning_async.v0_2b import _converter, _inputs, _models
from route_planning_async.v0_2b._converter import (
    CONVERTER,
    WIRE_NAMES,
    make_converter,
    structure,
    unstructure,
)

UTC = datetime.UTC
# Property tests draw the same examples on every run.
DETERMINISTIC = settings(derandomize=True, database=None)


ROUND_TRIP = [
    ("plan.json", rp.Plan),
    ("stop.json", rp.Stop),
    ("stop_unoptimized.json", rp.Stop),
    ("unassigned_stop.json", rp.UnassignedStop),
    ("operation_running.json", rp.Operation),
    ("operation_success.json", rp.Operation),
    ("operation_failure.json", rp.Operation),
    ("depot.json", rp.Depot),
    ("custom_stop_property.json", rp.CustomStopProperty),
    ("import_result.json", rp.ImportResult),
    ("live_change.json", rp.LiveChange),
]


@pytest.mark.parametrize(("name", "model"), ROUND_TRIP, ids=[name for name, _ in ROUND_TRIP])
def test_round_trip_is_lossless(name: str, model: type[Any]) -> None:
    data = load(name)
    value = structure(data, model)
    assert isinstance(value, model)
    assert unstructure(value) == data
    # And back again: structuring the unstructured form gives an equal model.
    assert structure(unstructure(value), model) == value


def test_plan_fields_are_typed() -> None:
    plan = structure(load("plan.json"), rp.Plan)
    assert plan.id == "plans/p1"
    assert plan.starts == datetime.date(2026, 11, 23)
    assert plan.optimization == rp.PlanOptimization.CREATING
    assert [d.id for d in plan.drivers] == ["drivers/d1", "drivers/d2"]
    ada = plan.drivers[0]
    assert ada.display_name == "Ada L."
    assert ada.route_overrides.start_time == datetime.time(8, 0)
    assert ada.route_overrides.end_time == datetime.time(17, 30)
    assert isinstance(ada.route_overrides.start_address, rp.StopAddress)
    assert ada.route_overrides.start_address.place_types == ["street_address"]
    assert ada.route_overrides.end_address is None
    assert ada.route_overrides.max_stops == 40
    assert plan.drivers[1].active is False
    assert plan.routes == ["routes/r1"]


def test_stop_fields_are_typed() -> None:
    stop = structure(load("stop.json"), rp.Stop)
    assert stop.address.latitude == pytest.approx(39.7817)
    assert stop.timing.earliest_attempt_time == datetime.time(9, 0)
    assert stop.timing.latest_attempt_time == datetime.time(12, 45)
    assert stop.timing.estimated_attempt_duration == 120
    assert stop.order_info.seller_order_id == "SO-9"
    assert stop.place_in_vehicle == rp.PlaceInVehicle(x="left", y="front", z="floor")
    assert stop.recipient.external_id == "cust-42"
    assert stop.optimization_order == rp.OptimizationOrder.FIRST
    assert stop.proof_of_attempt_requirements.enabled is True
    assert stop.custom_properties == {
        "6f1c7a7e-0000-4000-8000-000000000001": "fragile",
        "6f1c7a7e-0000-4000-8000-000000000002": None,
    }
    assert stop.stop_position == 3
    assert stop.service_client_id == "client-7"
    assert stop.route is not None
    assert stop.route.stop_count == 12
    assert stop.route.state is not None
    assert stop.route.state.distributed_at == datetime.datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
    assert stop.route.state.completed_at is None
    assert stop.delivery_info is not None
    assert stop.delivery_info.state == rp.DeliveryState.DELIVERED_TO_RECIPIENT
    assert stop.delivery_info.attempted_location == rp.AttemptedLocation(latitude=39.78, longitude=-89.65)


def test_epoch_seconds_become_aware_utc_datetimes() -> None:
    stop = structure(load("stop.json"), rp.Stop)
    assert stop.eta is not None
    arrival = stop.eta.estimated_arrival_at
    assert arrival.tzinfo is UTC
    assert arrival == datetime.datetime.fromtimestamp(1795429800, UTC)
    assert stop.route is not None
    assert stop.route.state is not None
    notified = stop.route.state.notified_recipients_at
    assert notified is not None
    assert notified.microsecond == 500000
    assert unstructure(stop)["route"]["state"]["notifiedRecipientsAt"] == 1795421000.5


def test_unoptimized_stop_has_nulls_and_eta_reason() -> None:
    stop = structure(load("stop_unoptimized.json"), rp.Stop)
    assert stop.route is None
    assert stop.eta is None
    assert stop.eta_null_reason == rp.EtaNullReason(
        reason="not_optimized", message="The plan is not optimized", url=None
    )
    assert stop.delivery_info is None
    assert stop.custom_properties is None
    assert stop.type == rp.StopType.START
    assert stop.activity == rp.Activity.PICKUP
    assert stop.address.address == ""


def test_operation_result_is_told_apart_by_its_keys() -> None:
    running = structure(load("operation_running.json"), rp.Operation)
    assert running.done is False
    assert running.result is None
    assert running.metadata.finished_at is None
    assert running.metadata.started_at == datetime.datetime.fromtimestamp(1795420000, UTC)

    success = structure(load("operation_success.json"), rp.Operation)
    assert isinstance(success.result, rp.OptimizationSuccess)
    assert success.result.num_optimized_stops == 41
    assert success.result.skipped_stops == [
        rp.SkippedStop(id="plans/p1/stops/s9", reason="impossible_time_window")
    ]
    assert success.metadata.started_by == "api"

    failure = structure(load("operation_failure.json"), rp.Operation)
    assert failure.result == rp.OptimizationFailure(
        code="no_drivers_available", message="Plan has no drivers."
    )


def test_operation_without_result_key_decodes_as_none() -> None:
    data = load("operation_running.json")
    del data["result"]
    assert structure(data, rp.Operation).result is None


def test_unknown_fields_are_ignored_and_unknown_enum_values_kept() -> None:
    data = load("stop_future.json")
    stop = structure(data, rp.Stop)
    assert stop.activity == "swap"
    assert stop.type == "waypoint"
    assert stop.optimization_order == "middle"
    assert stop.delivery_info is not None
    assert stop.delivery_info.state == "failed_payment_not_received"
    assert stop.place_in_vehicle is not None
    assert stop.place_in_vehicle.x == "center"
    assert not hasattr(stop, "load_class")
    out = unstructure(stop)
    assert "loadClass" not in out
    assert "plusCode" not in out["address"]
    # Official fields are known now: kept through a round trip.
    assert out["weight"] == data["weight"]
    assert out["circuitClientId"] == data["circuitClientId"]
    # Everything known survives.
    assert out["activity"] == "swap"
    assert out["deliveryInfo"]["state"] == "failed_payment_not_received"
    assert out["barcodes"] == data["barcodes"]


def test_unknown_operation_values_are_kept() -> None:
    op = structure(load("operation_future.json"), rp.Operation)
    assert op.type == "route_rebalancing"
    assert op.metadata.canceled is True
    assert op.metadata.started_by == "scheduler"
    assert isinstance(op.result, rp.OptimizationSuccess)
    assert op.result.skipped_stops[0].reason == "teleport_required"


def test_missing_optional_fields_take_the_contract_defaults() -> None:
    stop = structure({"id": "plans/p/stops/s"}, rp.Stop)
    assert stop.barcodes == []
    assert stop.driver_identifier is None
    assert stop.allowed_drivers_identifiers == []
    assert stop.activity == "delivery"
    assert stop.optimization_order == "default"
    assert stop.address == rp.StopAddress()
    assert stop.address.address == ""
    assert stop.timing == rp.TimingData()
    assert stop.proof_of_attempt_requirements.enabled is None
    plan = structure({"id": "plans/p", "title": "t", "starts": {"day": 1, "month": 2, "year": 2027}}, rp.Plan)
    assert plan.drivers == []
    assert plan.depot is None
    info = structure({}, rp.DeliveryInfo)
    assert info.state == "unattempted"
    assert info.succeeded is False


def test_import_failures_from_plan_and_unassigned_imports() -> None:
    result = structure(load("import_result.json"), rp.ImportResult)
    assert result.success == ["plans/p1/stops/s1", "plans/p1/stops/s2"]
    assert result.failed[0].message == "Address could not be geocoded"
    assert result.failed[0].stop["recipient"]["externalId"] == "cust-3"

    unassigned = structure(load("unassigned_import_result.json"), rp.ImportResult)
    assert unassigned.success == ["unassignedStops/u1"]
    assert unassigned.failed[0].message == "Address could not be geocoded"
    assert unassigned.failed[0].stop["address"]["addressLineOne"] == "Nowhere 0"


def test_live_change_with_and_without_stop() -> None:
    change = structure(load("live_change.json"), rp.LiveChange)
    assert change.pending is True
    assert change.stop is not None
    assert change.stop.id == "plans/p1/stops/s2"
    deleted = structure(load("live_delete.json"), rp.LiveChange)
    assert deleted == rp.LiveChange(pending=True, stop=None)


def test_models_are_slotted_so_a_misspelt_attribute_raises() -> None:
    plan = structure(load("plan.json"), rp.Plan)
    with pytest.raises(AttributeError):
        plan.titel = "changed"  # type: ignore[attr-defined]


def _cattrs_reference() -> cattrs.Converter:
    """The library's converter, but with cattrs' own generated functions for the models."""
    reference = make_converter()
    reference.register_structure_hook_factory(
        lambda cl: cl in _converter.CODEC.models,
        lambda cl: make_dict_structure_fn(cl, reference, **renames(cl, WIRE_NAMES)),
    )
    return reference


REFERENCE = _cattrs_reference()


def _drop_keys(data: st.DataObject, value: Any) -> Any:
    """``value`` with any of the keys of any of its objects left out."""
    if isinstance(value, dict):
        return {k: _drop_keys(data, v) for k, v in value.items() if data.draw(st.booleans(), label=k)}
    if isinstance(value, list):
        return [_drop_keys(data, item) for item in value]
    return value


@DETERMINISTIC
@given(data=st.data(), case=st.sampled_from(ROUND_TRIP))
def test_compiled_functions_decode_as_cattrs_own_do(data: st.DataObject, case: tuple[str, type[Any]]) -> None:
    # Any keys missing, at any depth: the same model (defaults filled in), or a
    # DecodeError naming the missing key where cattrs raises a KeyError.
    name, model = case
    answer = _drop_keys(data, load(name))
    try:
        expected = REFERENCE.structure(answer, model)
    except (KeyError, rp.DecodeError):
        with pytest.raises(rp.DecodeError):
            structure(answer, model)
    else:
        assert structure(answer, model) == expected


def test_a_missing_required_key_raises_decode_error() -> None:
    with pytest.raises(rp.DecodeError, match="id") as info:
        structure({"plan": "plans/p1"}, rp.Stop)
    assert (info.value.path, info.value.value) == ("id", None)


PLAN = {"id": "plans/p1", "title": "t", "starts": {"day": 1, "month": 2, "year": 2030}}


@pytest.mark.parametrize(
    ("answer", "path", "message"),
    [
        ({**PLAN, "id": 5}, "id", "expected a string, got a number"),
        ({**PLAN, "drivers": [{"id": 3}]}, "drivers[0].id", "expected a string, got a number"),
        ({**PLAN, "title": ["t"]}, "title", "expected a string, got an array"),
        ({**PLAN, "writable": "yes"}, "writable", "expected a boolean, got a string"),
        ({**PLAN, "routes": "routes/r1"}, "routes", "expected an array of strings, got a string"),
        ({**PLAN, "routes": ["routes/r1", 2]}, "routes[1]", "expected a string, got a number"),
        ({**PLAN, "id": None}, "id", "null is not allowed here"),
    ],
)
def test_a_value_of_the_wrong_json_type_is_a_decode_error(
    answer: dict[str, Any], path: str, message: str
) -> None:
    # The models check what JSON delivers: an id sent as a number is not made a string.
    with pytest.raises(rp.DecodeError, match=message) as info:
        structure(answer, rp.Plan)
    assert info.value.path == path


def test_numbers_are_checked_and_a_whole_float_is_an_int() -> None:
    stop = {"id": "plans/p1/stops/s1", "stopPosition": 3.0, "packageCount": 2}
    decoded = structure(stop, rp.Stop)
    assert (decoded.stop_position, type(decoded.stop_position)) == (3, int)
    assert (decoded.package_count, type(decoded.package_count)) == (2, int)
    # The schema types counts as numbers: a fraction is kept as sent, a string is refused.
    assert structure({**stop, "stopPosition": 2.5}, rp.Stop).stop_position == 2.5
    for key in ("stopPosition", "packageCount"):
        with pytest.raises(rp.DecodeError, match="expected a number, got a string") as info:
            structure({**stop, key: "3"}, rp.Stop)
        assert info.value.path == key
        with pytest.raises(rp.DecodeError, match="expected a number, got a boolean"):
            structure({**stop, key: True}, rp.Stop)


def test_a_null_for_a_field_with_a_default_is_its_default() -> None:
    plan = structure({**PLAN, "routes": None, "writable": None}, rp.Plan)
    default = structure(PLAN, rp.Plan)
    assert (plan.routes, plan.writable) == (default.routes, default.writable)


def test_a_list_of_models_names_the_item_that_cannot_be_decoded() -> None:
    answer = {"id": "plans/p1", "title": "t", "starts": {"day": 1, "month": 2, "year": 2030}}
    with pytest.raises(rp.DecodeError) as info:
        structure({**answer, "drivers": [{"id": "drivers/d1"}, 7]}, rp.Plan)
    assert (info.value.path, info.value.value) == ("drivers[1]", 7)
    with pytest.raises(rp.DecodeError, match="expected an array") as info:
        structure({**answer, "drivers": {}}, rp.Plan)
    assert info.value.path == "drivers"


def test_compiled_functions_refuse_classes_whose_init_does_more_than_assign() -> None:
    @attrs.define
    class Checked:
        count: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.define(slots=False)
    class NotSlotted:
        count: int = 0

    with pytest.raises(TypeError, match="plain"):
        make_model_structure_fn(Checked, CONVERTER, WIRE_NAMES)
    with pytest.raises(TypeError, match="slotted"):
        make_model_structure_fn(NotSlotted, CONVERTER, WIRE_NAMES)


def test_date_and_time_conversions() -> None:
    assert structure({"day": 29, "month": 2, "year": 2028}, datetime.date) == datetime.date(2028, 2, 29)
    assert unstructure(datetime.date(2026, 1, 5)) == {"day": 5, "month": 1, "year": 2026}
    assert structure({"hour": 23, "minute": 59}, datetime.time) == datetime.time(23, 59)
    assert unstructure(datetime.time(7, 5)) == {"hour": 7, "minute": 5}
    # An aware datetime in another zone is the same instant in epoch seconds.
    cet = datetime.timezone(datetime.timedelta(hours=1))
    assert unstructure(datetime.datetime(1970, 1, 1, 1, 0, 10, tzinfo=cet)) == 10
    assert structure(10, datetime.datetime) == datetime.datetime(1970, 1, 1, 0, 0, 10, tzinfo=UTC)


@DETERMINISTIC
@given(st.integers(min_value=0, max_value=4_102_444_800))
def test_epoch_seconds_round_trip(seconds: int) -> None:
    value = structure(seconds, datetime.datetime)
    assert value.tzinfo is UTC
    assert unstructure(value) == seconds


@DETERMINISTIC
@given(st.dates(min_value=datetime.date(1, 1, 1), max_value=datetime.date(9999, 12, 31)))
def test_dates_round_trip(day: datetime.date) -> None:
    assert structure(unstructure(day), datetime.date) == day


@DETERMINISTIC
@given(st.times().map(lambda t: t.replace(second=0, microsecond=0)))
def test_times_of_day_round_trip(moment: datetime.time) -> None:
    assert structure(unstructure(moment), datetime.time) == moment


def test_converter_is_private() -> None:
    assert CONVERTER is not cattrs.global_converter
    assert make_converter() is not make_converter()
    # The global converter knows nothing of the API's date shape.
    assert cattrs.global_converter.unstructure(datetime.date(2026, 1, 1)) == datetime.date(2026, 1, 1)


def test_models_decode_through_generated_functions() -> None:
    # Code compiled per class (no reflection per object) keeps pages cheap.
    hook = CONVERTER.get_structure_hook(rp.Stop)
    assert hook.__name__ == "structure_Stop"
    assert CONVERTER.get_structure_hook(rp.Plan).__name__ == "structure_Plan"


def test_structure_list_decodes_a_page() -> None:
    page = [load("stop.json"), load("stop_unoptimized.json")]
    stops = _converter.structure_list(page, rp.Stop)
    assert [s.id for s in stops] == ["plans/p1/stops/s1", "plans/p1/stops/s2"]


def test_delivery_states_match_the_contract() -> None:
    # Both official schemas (v0.2b's and v1's) add one state the contract does not name.
    official = {"failed_payment_not_received"}
    contract = {
        "unattempted", "delivered_to_recipient", "delivered_to_third_party", "delivered_to_mailbox",
        "delivered_to_safe_place", "delivered_to_pickup_point", "delivered_other", "picked_up_from_customer",
        "picked_up_unmanned", "picked_up_from_locker", "picked_up_other", "failed_not_home",
        "failed_cant_find_address", "failed_no_parking", "failed_no_time", "failed_package_not_available",
        "failed_missing_required_proof", "failed_other",
    }  # fmt: skip
    assert {state.value for state in rp.DeliveryState} == contract | official


@pytest.mark.parametrize("module", [_models, _inputs], ids=["models", "inputs"])
def test_every_attrs_field_has_a_docstring(module: Any) -> None:
    # A field's text is its described() metadata, written once, and its class's
    # docstring lists it (Keyword Args of an input, Attributes of a model).
    missing = []
    for name in module.__all__:
        cls = getattr(module, name)
        if not attrs.has(cls):
            continue
        described = {keyword.name for keyword in keywords_of(cls)}
        missing += [f"{name}.{field.name}" for field in attrs.fields(cls) if field.name not in described]
        missing += [f"{name}.{field}" for field in described if f"    {field} (" not in (cls.__doc__ or "")]
    assert missing == []


def test_every_model_is_exported() -> None:
    for name in _models.__all__:
        assert getattr(rp, name) is getattr(_models, name)
        assert name in rp.__all__


def test_every_input_and_the_pagination_types_are_exported() -> None:
    public_inputs = [
        name for name in _inputs.__all__ if not name.startswith(("MAX_", "PLAN_")) and name[0].isupper()
    ]
    for name in [*public_inputs, "UNSET", "Page", "Paginator"]:
        assert name in rp.__all__, name
        assert getattr(rp, name) is not None
    assert rp.__all__ == sorted(rp.__all__, key=lambda n: (not n.isupper(), n))


# Official schema fields ---------------------------------------------------------


@pytest.mark.parametrize("key", ["circuitClientId", "serviceClientId", "clientId"])
def test_the_client_id_is_read_under_every_name_and_written_under_the_official_one(key: str) -> None:
    stop = structure({"id": "plans/p/stops/s", key: "client-1"}, rp.Stop)
    assert stop.client_id == stop.service_client_id == "client-1"
    out = unstructure(stop)
    assert out["circuitClientId"] == "client-1"
    assert "serviceClientId" not in out
    unassigned = structure({"id": "unassignedStops/u", key: "client-2"}, rp.UnassignedStop)
    assert unassigned.client_id == "client-2"


def test_the_official_name_wins_when_an_answer_has_two() -> None:
    stop = structure({"id": "plans/p/stops/s", "serviceClientId": "old", "circuitClientId": "new"}, rp.Stop)
    assert stop.client_id == "new"


def test_weight_payment_and_time_at_stop_are_decoded() -> None:
    stop = structure(load("stop.json"), rp.Stop)
    assert stop.weight == rp.Weight(amount=12.5, unit=rp.WeightUnit.KILOGRAM)
    assert stop.payment_on_delivery == rp.PaymentOnDelivery(amount=1250, currency="EUR")
    info = stop.delivery_info
    assert info is not None
    assert info.time_at_stop_info is not None
    assert info.arrived_at == info.time_at_stop_info.arrived_at
    assert info.time_at_stop_info.departed_at is not None
    assert info.time_at_stop_info.is_estimated is False
    reason = {"reason": "subscription_not_supported", "message": "Upgrade", "url": None}
    bare = structure({"timeAtStopInfoNullReason": reason}, rp.DeliveryInfo)
    assert bare.time_at_stop_info_null_reason == rp.TimeAtStopInfoNullReason(**reason)
    unassigned = structure({"id": "unassignedStops/u", "trackingLink": "https://t.test/u"}, rp.UnassignedStop)
    assert unassigned.tracking_link == "https://t.test/u"
