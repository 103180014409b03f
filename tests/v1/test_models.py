"""v1's response models: real-looking v1 answers decode, keep every field when encoded
again, and tolerate what a newer service may add.

Each sample answer below is first checked against the official v1 document
(``tests/emulator/openapi.py``), so the samples are answers the service may give.
"""

from __future__ import annotations

import copy
import datetime
from typing import Any

import attrs
import cattrs
import pytest
from emulator.openapi import V1

import route_planning_async as rp
from route_planning_async._docs import keywords_of
from route_planning_async.v0_2b import _models as v0_2b_models
from route_planning_async.v1 import _converter
from route_planning_async.v1 import _models as m
from route_planning_async.v1._converter import structure, structure_list, unstructure

UTC = datetime.UTC

ADDRESS: dict[str, Any] = {
    "address": "1 Main Street, London",
    "addressLineOne": "1 Main Street",
    "addressLineTwo": "London",
    "latitude": 51.5,
    "longitude": -0.12,
    "placeId": "ChIJ-main",
    "placeTypes": ["street_address"],
}
ROUTE: dict[str, Any] = {
    "id": "routes/r1",
    "title": "Monday (Ana)",
    "stopCount": 12,
    "driver": "drivers/ana",
    "state": {
        "completed": False,
        "completedAt": None,
        "distributed": True,
        "distributedAt": 1783332000,
        "notifiedRecipients": False,
        "notifiedRecipientsAt": None,
        "started": True,
        "startedAt": 1783335600,
    },
    "plan": "plans/p1",
}
TIME_AT_STOP = {
    "status": "available",
    "value": {"arrivedAt": 1783340000, "departedAt": 1783340120, "isEstimated": False},
}
SERVICE = {
    "status": "available",
    "value": {
        "identifier": "NEXTDAY",
        "name": "Next day",
        "slaStartsAt": 1783300000,
        "slaDueDate": {"day": 7, "month": 7, "year": 2026},
        "slaDueTime": {"hour": 18, "minute": 30},
        "deliveryHorizon": {"unit": "days", "value": 1},
        "price": {"value": 4.99, "currency": "EUR"},
        "hasPaymentOnDelivery": False,
        "definedAt": 1783200000,
    },
}
STOP: dict[str, Any] = {
    "id": "plans/p1/stops/s1",
    "address": ADDRESS,
    "barcodes": ["b1"],
    "allowedDrivers": ["drivers/ana"],
    "estimatedTravelDuration": 300,
    "estimatedTravelDistance": 1200.5,
    "notes": "Ring twice",
    "packageCount": 2,
    "weight": {"amount": 12.5, "unit": "kilogram"},
    "type": "stop",
    "packageLabel": "A1",
    "stopPosition": 3,
    "trackingLink": "https://track.example/s1",
    "webAppLink": "https://app.example/s1",
    "orderInfo": {
        "products": ["Tea"],
        "invoiceNumber": "INV-7",
        "sellerName": "Shop",
        "sellerOrderId": "o-1",
        "sellerWebsite": "https://shop.example",
    },
    "placeInVehicle": {"x": "left", "y": "front", "z": "floor"},
    "recipient": {"name": "Bea", "email": "bea@example.com", "phone": "+441234", "externalId": "ext-1"},
    "activity": "delivery",
    "deliveryInfo": {
        "attempted": True,
        "attemptedAt": 1783340100,
        "timeAtStopInfo": TIME_AT_STOP,
        "attemptedLocation": {"latitude": 51.5, "longitude": -0.12},
        "driverProvidedInternalNotes": None,
        "driverProvidedRecipientNotes": "Left with neighbour",
        "photoUrls": ["https://photos.example/1.jpg"],
        "recipientProvidedNotes": None,
        "signatureUrl": None,
        "signeeName": "Neighbour",
        "succeeded": True,
        "state": "delivered_to_third_party",
    },
    "paymentOnDelivery": {"amount": 1250, "currency": "EUR"},
    "proofOfAttemptRequirements": {"enabled": True},
    "plan": "plans/p1",
    "route": ROUTE,
    "eta": {
        "status": "available",
        "value": {
            "estimatedArrivalAt": 1783340000,
            "estimatedLatestArrivalAt": 1783340600,
            "estimatedEarliestArrivalAt": 1783339400,
        },
    },
    "timing": {
        "estimatedAttemptDuration": 120,
        "earliestAttemptTime": {"hour": 9, "minute": 0},
        "latestAttemptTime": {"hour": 17, "minute": 30},
    },
    "optimizationOrder": "default",
    "customProperties": {"6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01": "1234"},
    "clientId": "client-1",
    "serviceInfo": SERVICE,
}
UNASSIGNED: dict[str, Any] = {
    "id": "unassignedStops/u1",
    "depot": "depots/d1",
    "address": ADDRESS,
    "barcodes": [],
    "allowedDrivers": [],
    "notes": None,
    "packageCount": None,
    "weight": None,
    "orderInfo": {
        "products": [],
        "invoiceNumber": None,
        "sellerName": None,
        "sellerOrderId": None,
        "sellerWebsite": None,
    },
    "recipient": {"name": None, "email": None, "phone": None, "externalId": "ext-u"},
    "activity": "pickup",
    "trackingLink": None,
    "timing": {"estimatedAttemptDuration": None, "earliestAttemptTime": None, "latestAttemptTime": None},
    "optimizationOrder": "first",
    "paymentOnDelivery": None,
    "proofOfAttemptRequirements": {"enabled": None},
    "customProperties": None,
    "clientId": None,
}
PLAN: dict[str, Any] = {
    "id": "plans/p1",
    "title": "Monday",
    "starts": {"day": 6, "month": 7, "year": 2026},
    "depot": "depots/d1",
    "distributed": False,
    "writable": True,
    "optimization": "editing",
    "drivers": ["drivers/ana", "drivers/ben"],
    "routes": [],
    "routeOverrides": {
        "startTime": {"hour": 8, "minute": 0},
        "endTime": None,
        "startAddress": ADDRESS,
        "endAddress": None,
        "maxStops": 40,
        "drivingSpeed": "average",
        "deliverySpeed": None,
        "vehicleType": "car",
        "optimizationSettings": {"objective": "distribute_services", "subObjective": "equalize_time"},
    },
}
DEPOT_ADDRESS = {
    "address": "Depot Road 1",
    "addressLineOne": "Depot Road 1",
    "addressLineTwo": None,
    "latitude": 51.4,
    "longitude": -0.2,
    "placeId": "ChIJ-depot",
    "countryCode": "GB",
}
DEPOT: dict[str, Any] = {
    "id": "depots/d1",
    "name": "North",
    "routeOverrides": {
        "startTime": {"hour": 7, "minute": 30},
        "startAddress": DEPOT_ADDRESS,
        "defaultTimeAtStop": 90,
        "endAddress": None,
        "endTime": {"hour": 18, "minute": 0},
        "maxStops": 60,
        "roadSide": "left_only",
        "vehicleType": "small_truck",
        "roundTrip": True,
    },
}
MEMBER: dict[str, Any] = {
    "id": "members/m1",
    "name": "Dee",
    "email": "dee@example.com",
    "phone": None,
    "linkedDriverId": "drivers/ana",
    "displayName": "Dee D.",
    "active": True,
    "depots": ["depots/d1"],
    "roles": ["dispatcher", "driver"],
}
OPERATION: dict[str, Any] = {
    "id": "operations/o1",
    "type": "plan_optimization",
    "done": True,
    "metadata": {
        "canceled": False,
        "startedAt": 1783330000,
        "finishedAt": 1783330004,
        "startedBy": "api",
        "targetPlanId": "plans/p1",
    },
    "result": {
        "numOptimizedStops": 12,
        "skippedStops": [{"id": "plans/p1/stops/s9", "reason": "impossible_time_window"}],
    },
}
DEPOT_IMPORT = {
    "success": ["depots/d2"],
    "failed": [
        {
            "error": {"message": "Start address could not be found"},
            "depot": {
                "name": "Nowhere",
                "routeOverrides": {
                    "startAddress": {"addressLineOne": "?"},
                    "startTime": {"hour": 8, "minute": 0},
                },
            },
        }
    ],
}
MEMBER_IMPORT = {
    "success": ["members/m2"],
    "failed": [
        {
            "error": {"message": "Email already in use"},
            "member": {"email": "dee@example.com", "role": "admin"},
        }
    ],
}
SEARCH = {
    "stops": [{"type": "stop", "stop": STOP}, {"type": "unassignedStop", "unassignedStop": UNASSIGNED}],
    "nextPageToken": None,
}

# (sample, model, the document's path template, method)
SAMPLES: list[tuple[dict[str, Any], type[Any], str, str]] = [
    (STOP, m.Stop, "/plans/{planId}/stops/{stopId}", "get"),
    (UNASSIGNED, m.UnassignedStop, "/unassignedStops/{unassignedStopId}", "get"),
    (PLAN, m.Plan, "/plans/{planId}", "get"),
    (DEPOT, m.Depot, "/depots/{depotId}", "get"),
    (MEMBER, m.Member, "/members", "post"),
    (ROUTE, m.Route, "/routes/{routeId}", "get"),
    (OPERATION, m.Operation, "/operations/{operationId}", "get"),
    (DEPOT_IMPORT, m.DepotImportResult, "/depots:import", "post"),
    (MEMBER_IMPORT, m.MemberImportResult, "/members:import", "post"),
    ({"pending": True, "stop": STOP}, m.LiveChange, "/plans/{planId}/stops:liveCreate", "post"),
]


@pytest.mark.parametrize(
    ("sample", "model", "template", "method"), SAMPLES, ids=[s[1].__name__ for s in SAMPLES]
)
def test_a_real_looking_answer_decodes_and_encodes_back_unchanged(
    sample: dict[str, Any], model: type[Any], template: str, method: str
) -> None:
    assert V1.response_errors(template, method, 200, sample) == []
    decoded = structure(sample, model)
    assert isinstance(decoded, model)
    assert unstructure(decoded) == sample


def test_a_stop_reads_v1_fields() -> None:
    stop = structure(STOP, m.Stop)
    assert stop.allowed_drivers == ["drivers/ana"]
    assert stop.client_id == "client-1"
    assert stop.order_info.invoice_number == "INV-7"
    assert stop.eta is not None
    assert stop.eta.available
    assert stop.eta.value == m.EtaValue(
        estimated_arrival_at=datetime.datetime(2026, 7, 6, 12, 13, 20, tzinfo=UTC),
        estimated_earliest_arrival_at=datetime.datetime(2026, 7, 6, 12, 3, 20, tzinfo=UTC),
        estimated_latest_arrival_at=datetime.datetime(2026, 7, 6, 12, 23, 20, tzinfo=UTC),
    )
    assert stop.delivery_info is not None
    time_at_stop = stop.delivery_info.time_at_stop_info
    assert time_at_stop is not None
    assert time_at_stop.value is not None
    assert time_at_stop.value.departed_at == datetime.datetime(2026, 7, 6, 12, 15, 20, tzinfo=UTC)
    assert stop.delivery_info.state == rp.DeliveryState.DELIVERED_TO_THIRD_PARTY
    service = stop.service_info
    assert service is not None
    assert service.status == m.InfoStatus.AVAILABLE
    assert service.value is not None
    assert service.value.identifier == "NEXTDAY"
    assert service.value.sla_due_date == datetime.date(2026, 7, 7)
    assert service.value.sla_due_time == datetime.time(18, 30)
    assert service.value.delivery_horizon == m.DeliveryHorizon(unit="days", value=1)
    assert service.value.price == m.Price(value=4.99, currency="EUR")
    assert stop.route is not None
    assert stop.route.state is not None
    assert stop.route.state.started


@pytest.mark.parametrize(
    ("eta", "expected"),
    [
        (
            {"status": "pending", "pendingReason": "not_optimized"},
            m.Eta(status="pending", pending_reason="not_optimized"),
        ),
        ({"status": "pending"}, m.Eta(status="pending")),
        (
            {
                "status": "restricted",
                "requiredFeature": "eta",
                "upgradeUrl": "https://example.com/upgrade",
                "restrictionCode": "subscription_not_supported",
            },
            m.Eta(
                status="restricted",
                required_feature="eta",
                upgrade_url="https://example.com/upgrade",
                restriction_code="subscription_not_supported",
            ),
        ),
        ({"status": "restricted"}, m.Eta(status="restricted")),
    ],
)
def test_each_eta_shape_decodes_and_keeps_its_shape(eta: dict[str, Any], expected: m.Eta) -> None:
    body = {**STOP, "eta": eta}
    assert V1.response_errors("/plans/{planId}/stops/{stopId}", "get", 200, body) == []
    stop = structure(body, m.Stop)
    assert stop.eta == expected
    assert not expected.available
    assert expected.value is None
    assert unstructure(stop)["eta"] == eta


@pytest.mark.parametrize(
    "info",
    [
        {"status": "pending", "pendingReason": "not_yet_arrived"},
        {"status": "restricted", "restrictionCode": "subscription_not_supported"},
        {"status": "available", "value": {"arrivedAt": None, "departedAt": None, "isEstimated": None}},
    ],
)
def test_each_time_at_stop_shape_keeps_its_shape(info: dict[str, Any]) -> None:
    body = copy.deepcopy(STOP)
    body["deliveryInfo"]["timeAtStopInfo"] = info
    assert V1.response_errors("/plans/{planId}/stops/{stopId}", "get", 200, body) == []
    assert unstructure(structure(body, m.Stop)) == body


@pytest.mark.parametrize(
    "service",
    [
        {"status": "empty"},
        {"status": "restricted", "requiredFeature": "services"},
        {"status": "available", "value": {"identifier": None, "slaStartsAt": 1783300000}},
        {"status": "available", "value": {**SERVICE["value"], "slaDueTime": None}},
    ],
)
def test_each_service_info_shape_keeps_its_shape(service: dict[str, Any]) -> None:
    body = {**STOP, "serviceInfo": service}
    assert V1.response_errors("/plans/{planId}/stops/{stopId}", "get", 200, body) == []
    stop = structure(body, m.Stop)
    assert stop.service_info is not None
    assert stop.service_info.status == service["status"]
    assert unstructure(stop)["serviceInfo"] == service


def test_a_service_without_an_identifier_has_only_its_start() -> None:
    body = {**STOP, "serviceInfo": {"status": "available", "value": {"identifier": None, "slaStartsAt": 0}}}
    service = structure(body, m.Stop).service_info
    assert service is not None
    assert service.value == m.ServiceInfoValue(sla_starts_at=datetime.datetime(1970, 1, 1, tzinfo=UTC))


def test_a_plan_holds_driver_ids_and_its_route_overrides() -> None:
    plan = structure(PLAN, m.Plan)
    assert plan.drivers == ["drivers/ana", "drivers/ben"]
    assert plan.starts == datetime.date(2026, 7, 6)
    overrides = plan.route_overrides
    assert overrides is not None
    assert overrides.start_time == datetime.time(8, 0)
    assert overrides.vehicle_type == m.VehicleType.CAR
    assert overrides.optimization_settings == m.OptimizationSettings(
        objective=m.OptimizationObjective.DISTRIBUTE_SERVICES,
        sub_objective=m.OptimizationSubObjective.EQUALIZE_TIME,
    )
    plain = {**PLAN, "routeOverrides": None}
    assert structure(plain, m.Plan).route_overrides is None
    assert unstructure(structure(plain, m.Plan)) == plain


def test_a_depot_holds_its_route_defaults() -> None:
    depot = structure(DEPOT, m.Depot)
    overrides = depot.route_overrides
    assert overrides is not None
    assert overrides.start_address is not None
    assert overrides.start_address.country_code == "GB"
    assert overrides.road_side == m.RoadSide.LEFT_ONLY
    assert overrides.round_trip is True
    assert overrides.end_time == datetime.time(18, 0)
    # The document's optional keys may be left out.
    short = {
        "id": "depots/d2",
        "name": "South",
        "routeOverrides": {"startTime": {"hour": 8, "minute": 0}, "startAddress": DEPOT_ADDRESS},
    }
    assert V1.response_errors("/depots/{depotId}", "get", 200, short) == []
    decoded = structure(short, m.Depot)
    assert decoded.route_overrides is not None
    assert decoded.route_overrides.end_address is None
    assert (
        structure({"id": "depots/d3", "name": "Bare", "routeOverrides": None}, m.Depot).route_overrides
        is None
    )


def test_a_member_holds_its_roles_and_linked_driver() -> None:
    member = structure(MEMBER, m.Member)
    assert member.roles == [m.MemberRole.DISPATCHER, m.MemberRole.DRIVER]
    assert member.linked_driver_id == "drivers/ana"


def test_import_failures_are_flattened() -> None:
    depots = structure(DEPOT_IMPORT, m.DepotImportResult)
    assert depots.success == ["depots/d2"]
    assert depots.failed[0].message == "Start address could not be found"
    assert depots.failed[0].depot["name"] == "Nowhere"
    members = structure(MEMBER_IMPORT, m.MemberImportResult)
    assert members.failed == [
        m.MemberImportFailure(
            message="Email already in use", member={"email": "dee@example.com", "role": "admin"}
        )
    ]
    unassigned = {
        "success": [],
        "failed": [
            {"error": {"message": "No address"}, "unassignedStop": {"address": {}, "recipient": None}}
        ],
    }
    result = structure(unassigned, m.ImportResult)
    assert result.failed[0].stop == {"address": {}, "recipient": None}


def test_a_search_page_holds_stops_and_unassigned_stops() -> None:
    assert V1.response_errors("/stops:search", "get", 200, SEARCH) == []
    hits = structure_list(SEARCH["stops"], m.StopSearchResult)
    found = [hit.found for hit in hits]
    assert isinstance(found[0], m.Stop)
    assert found[0].id == "plans/p1/stops/s1"
    assert isinstance(found[1], m.UnassignedStop)
    assert found[1].id == "unassignedStops/u1"
    assert [unstructure(hit) for hit in hits] == [
        {**item, "stop" if item["type"] != "stop" else "unassignedStop": None} for item in SEARCH["stops"]
    ]
    newer = structure({"type": "parcelLocker", "parcelLocker": {"id": "x"}}, m.StopSearchResult)
    assert newer.type == "parcelLocker"
    assert newer.found is None


def test_unknown_fields_and_values_are_tolerated() -> None:
    body = copy.deepcopy(STOP)
    body["somethingNew"] = {"nested": [1, 2]}
    body["activity"] = "swap"
    body["eta"] = {"status": "delayed", "value": body["eta"]["value"], "delayReason": "traffic"}
    body["serviceInfo"] = {"status": "partial", "note": "new"}
    body["deliveryInfo"]["state"] = "failed_new_reason"
    body["orderInfo"]["currency"] = "EUR"
    stop = structure(body, m.Stop)
    assert stop.activity == "swap"
    assert stop.eta is not None
    assert stop.eta.status == "delayed"
    assert stop.eta.value is not None
    assert stop.service_info == m.ServiceInfo(status="partial")
    assert stop.delivery_info is not None
    assert stop.delivery_info.state == "failed_new_reason"
    plan = structure({**PLAN, "drivers": ["drivers/ana"], "newFlag": True}, m.Plan)
    assert plan.drivers == ["drivers/ana"]
    member = structure({**MEMBER, "roles": ["auditor"]}, m.Member)
    assert member.roles == ["auditor"]


def test_a_hostile_answer_is_a_decode_error_naming_the_path() -> None:
    with pytest.raises(rp.DecodeError) as info:
        structure({**STOP, "eta": {"status": "available", "value": {"estimatedArrivalAt": "soon"}}}, m.Stop)
    assert info.value.path == "eta.value.estimatedArrivalAt"
    with pytest.raises(rp.DecodeError) as info:
        structure({**STOP, "serviceInfo": {"value": {}}}, m.Stop)
    assert info.value.path == "serviceInfo.status"
    with pytest.raises(rp.DecodeError) as info:
        structure({"success": [], "failed": [{"error": "boom", "depot": {}}]}, m.DepotImportResult)
    assert info.value.path == "failed[0].error"


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        # A v0.2b plan holds its drivers as objects; v1 holds their ids.
        (
            {"drivers": [{"id": "drivers/ana", "name": "Ana"}]},
            "drivers[0]",
            "expected a string, got an object",
        ),
        ({"depot": {"id": "depots/main"}}, "depot", "expected a string, got an object"),
        ({"title": 123}, "title", "expected a string, got a number"),
        ({"distributed": "yes"}, "distributed", "expected a boolean, got a string"),
        ({"routes": "routes/r1"}, "routes", "expected an array of strings, got a string"),
    ],
)
def test_an_answer_of_another_shape_is_a_decode_error_not_a_model_holding_it(
    change: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(rp.DecodeError, match=message) as info:
        structure({**PLAN, **change}, m.Plan)
    assert info.value.path == path
    with pytest.raises(rp.DecodeError, match="expected a number, got a string") as info:
        structure({**STOP, "stopPosition": "3"}, m.Stop)
    assert info.value.path == "stopPosition"


def test_shared_concepts_are_the_same_classes_as_v0_2b() -> None:
    for name in (
        "Driver",
        "Route",
        "Operation",
        "ImportResult",
        "CustomStopProperty",
        "StopAddress",
        "Recipient",
    ):
        assert getattr(m, name) is getattr(v0_2b_models, name)
    for name in (
        "Stop",
        "UnassignedStop",
        "Plan",
        "Depot",
        "Eta",
        "TimeAtStopInfo",
        "OrderInfo",
        "LiveChange",
    ):
        assert getattr(m, name) is not getattr(v0_2b_models, name)
    assert issubclass(m.OrderInfo, v0_2b_models.OrderInfo)


def test_the_converter_is_private_and_speaks_v1_names() -> None:
    assert _converter.CODEC.converter is not cattrs.global_converter
    assert _converter.WIRE_NAMES == {}
    assert _converter.wire_name("client_id") == "clientId"
    assert _converter.wire_name("linked_driver_id") == "linkedDriverId"
    # v0.2b's name is not v1's: a v1 answer never carries it.
    assert structure({"id": "unassignedStops/u", "circuitClientId": "c"}, m.UnassignedStop).client_id is None


def test_every_model_is_exported_sorted_and_every_field_described() -> None:
    assert m.__all__ == sorted(m.__all__)
    for name in m.__all__:
        cls = getattr(m, name)
        if not attrs.has(cls):
            continue
        assert "__slots__" in cls.__dict__, name
        documented = {keyword.name for keyword in keywords_of(cls)}
        assert documented == {field.name for field in attrs.fields(cls)}, name
        assert "Attributes:" in (cls.__doc__ or ""), name
