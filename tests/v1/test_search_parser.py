"""The emulator's v1 stop search: the filter parser, its evaluation, keywords, sort and errors."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from route_planning_async.emulator.v1._search import SearchError, parse_filter, relevance, search

_MAY_1 = int(datetime.datetime(2026, 5, 1, tzinfo=datetime.UTC).timestamp())


def _stop(ident: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": f"plans/p1/stops/{ident}",
        "plan": "plans/p1",
        "type": "stop",
        "activity": "delivery",
        "notes": None,
        "address": {
            "address": "",
            "addressLineOne": "",
            "addressLineTwo": "",
            "latitude": None,
            "placeId": None,
        },
        "barcodes": [],
        "orderInfo": {"products": [], "sellerName": None},
        "recipient": {"name": None, "externalId": None},
        "packageCount": None,
        "deliveryInfo": None,
        "eta": None,
        "customProperties": None,
        "paymentOnDelivery": None,
    }
    for path, value in fields.items():
        *parents, last = path.split("__")
        target = body
        for key in parents:
            if target.get(key) is None:
                target[key] = {}
            target = target[key]
        target[last] = value
    return body


STOPS = [
    _stop(
        "a",
        notes="Gate code 1234",
        address__address="1 High Street, London",
        address__latitude=51.5,
        address__countryCode="GB",
        packageCount=3,
        barcodes=["AB-1", "AB-2"],
        route={"id": "routes/r1"},
        eta={"estimatedArrivalAt": _MAY_1 + 3600},
        createdAt="2026-04-30T12:00:00Z",
        customProperties={"0234-5678": "fragile"},
        paymentOnDelivery={"amount": 500, "currency": "GBP"},
    ),
    _stop(
        "b",
        activity="pickup",
        address__address="2 Park Road, Bristol",
        address__latitude=51.45,
        packageCount=1,
        deliveryInfo={
            "attempted": True,
            "succeeded": False,
            "attemptedAt": _MAY_1 + 7200,
            "state": "failed_not_home",
        },
        orderInfo={"products": ["Lamp", "Desk"], "sellerName": "Acme"},
        createdAt=_MAY_1 + 60,
    ),
    {
        "id": "unassignedStops/u1",
        "activity": "delivery",
        "notes": "leave at the gatehouse",
        "address": {"address": "3 Mill Lane, Manchester", "latitude": 53.48},
        "recipient": {"name": "Ann Lee", "externalId": "X-9"},
        "packageCount": 2.5,
        "barcodes": [],
    },
]


def _ids(**parameters: Any) -> list[str]:
    return [str(body["id"]).rsplit("/", 1)[-1] for body in search(STOPS, **parameters)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('activity = "pickup"', ["b"]),
        ('activity != "pickup"', ["a", "u1"]),
        ('notes ~= "GATE"', ["a", "u1"]),
        ('notes = "Gate code 1234"', ["a"]),
        ('notes = "gate code 1234"', []),
        ("notes = null", ["b"]),
        ("notes != NULL", ["a", "u1"]),
        ('address.countryCode = "GB"', ["a"]),
        ("address.latitude >= 51.45", ["a", "b", "u1"]),
        ("address.latitude > 51.45", ["a", "u1"]),
        ("address.latitude < 52", ["a", "b"]),
        ("packageCount <= 2.5", ["b", "u1"]),
        ("packageCount = 3", ["a"]),
        ("packageCount != 3", ["b", "u1"]),
        ("paymentOnDelivery.amount >= 500", ["a"]),
        ("paymentOnDelivery.amount = null", ["b", "u1"]),
        ("deliveryInfo.attempted = true", ["b"]),
        ("deliveryInfo.attempted != TRUE", ["a", "u1"]),
        ("deliveryInfo.succeeded = False", ["b"]),
        ('deliveryInfo.state = "failed_not_home"', ["b"]),
        ('barcodes = "AB-1"', ["a"]),
        ('barcodes != "AB-1"', ["b", "u1"]),
        ('barcodes ~= "ab"', ["a"]),
        ("barcodes = null", ["b", "u1"]),
        ('orderInfo.products ~= "des"', ["b"]),
        ('routeId = "routes/r1"', ["a"]),
        ('planId = "plans/p1"', ["a", "b"]),
        ('type = "stop"', ["a", "b"]),
        ('arrivalAt >= "2026-05-01"', ["a"]),
        ("arrivalAt = null", ["b", "u1"]),
        ('createdAt < "2026-05-01T00:00:00Z"', ["a"]),
        ('createdAt >= "2026-05-01T00:00:00+00:00"', ["b"]),
        ('createdat >= "2026-04-30T12:00:00Z"', ["a", "b"]),
        ('deliveryInfo.attemptedAt > "2026-05-01T01:59:59Z"', ["b"]),
        ('deliveryInfo.attemptedAt = "2026-05-01T02:00:00Z"', ["b"]),
        ('customProperties.0234-5678 = "fragile"', ["a"]),
        ('custom_property.0234-5678 ~= "FRAG"', ["a"]),
        ("customProperties.0234-5678 = null", ["b", "u1"]),
        ('recipient.externalId = "X-9"', ["u1"]),
        ('ACTIVITY = "pickup"', ["b"]),
    ],
)
def test_a_comparison_selects_what_the_language_says(text: str, expected: list[str]) -> None:
    assert _ids(filter=text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('activity = "pickup" or notes ~= "gate" and packageCount > 2.5', ["a", "b"]),
        ('(activity = "pickup" or notes ~= "gate") and packageCount > 2.5', ["a"]),
        ('activity = "delivery" AND (packageCount = 3 Or packageCount = 2.5)', ["a", "u1"]),
        ('((notes ~= "gate"))', ["a", "u1"]),
        ('notes~="gate"and packageCount<3', ["u1"]),
        (
            'address.address ~= "London" or address.address ~= "Bristol" or address.address ~= "Manchester"',
            ["a", "b", "u1"],
        ),
        (
            '(address.address ~= "London" or address.address ~= "Bristol") and '
            '(createdAt >= "2026-05-01T00:00:00Z" and createdAt < "2026-05-02T00:00:00Z")',
            ["b"],
        ),
    ],
)
def test_and_binds_tighter_than_or_and_parentheses_group(text: str, expected: list[str]) -> None:
    assert _ids(filter=text) == expected


def test_the_documents_own_examples_parse() -> None:
    for text in (
        'address.placeId != "ChIJj61dQgK6j4AR4GeTYWZsKWw" and address.countryCode = "DE"',
        'address.countryCode = "DE"',
        "address.latitude >= 100",
        "arrivalAt = null",
        "deliveryInfo.attempted = true",
        'createdat >= "2026-05-01T00:00:00Z" and createdAt < "2026-06-01T00:00:00Z"',
        'custom_property.0234-5678-0abc-def3 = "value"',
    ):
        parse_filter(text)


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ('address ~= "London"', "unknown field 'address'", 0),
        ('notes = "a" and colour = "red"', "unknown field 'colour'", 16),
        ('customProperties.a%b = "x"', "unexpected character '%'", 18),
        ('notes == "a"', "unknown operator '=='", 6),
        ('notes => "a"', "unknown operator '=>'", 6),
        ('notes ! "a"', "unknown operator '!'", 6),
        ('notes <> "a"', "unknown operator '<>'", 6),
        ('notes "a"', "expected an operator (= != ~= > >= < <=), found '\"a\"'", 6),
        ('notes = "abc', "unterminated string", 8),
        ('notes = "a" and recipient.name = "b', "unterminated string", 33),
        ("notes = 1", "notes takes a string in double quotes, not 1", 8),
        ('notes > "a"', "notes is a string field, which takes = != ~=, not >", 6),
        ('packageCount = "3"', 'packageCount takes a number, not "3"', 15),
        ("packageCount ~= 3", "packageCount is a number field, which takes = != > >= < <=, not ~=", 13),
        ("paymentOnDelivery.amount = 1.5", "paymentOnDelivery.amount takes an integer, not 1.5", 27),
        ("deliveryInfo.attempted = 1", "deliveryInfo.attempted takes true or false, not 1", 25),
        ('deliveryInfo.attempted = "true"', "takes true or false", 25),
        ('createdAt > "last week"', "createdAt takes an ISO-8601 date in double quotes", 12),
        ("createdAt > 2026", "createdAt takes an ISO-8601 date", 12),
        ("packageCount > null", "null takes only = and !=, not >", 15),
        ("notes =", "notes takes a string in double quotes, not the end of the filter", 7),
        ('notes = "a" and', "expected a field name, found the end of the filter", 15),
        ('notes = "a" or or notes = "b"', "expected a field name, found 'or'", 15),
        ('(notes = "a"', "expected ')' to close the '(' at 1", 12),
        ('notes = "a")', "expected and, or or the end, found ')'", 11),
        ('notes = "a" notes = "b"', "expected and, or or the end, found 'notes'", 12),
        ('notes = "a" && notes = "b"', "unexpected character '&'", 12),
        ("= 3", "expected a field name, found '='", 0),
    ],
)
def test_a_bad_filter_is_refused_with_where_and_why(text: str, message: str, position: int) -> None:
    with pytest.raises(SearchError) as caught:
        search(STOPS, filter=text)
    error = caught.value
    assert error.param == "filter"
    assert error.position == position
    assert message in error.message
    assert error.message.endswith(f"(at character {position + 1})")
    assert str(error) == error.message


def test_the_length_bound_is_2048_characters() -> None:
    text = 'notes = "' + "x" * (2048 - 10) + '"'
    assert len(text) == 2048
    assert _ids(filter=text) == []
    with pytest.raises(SearchError, match="the filter has 2049 characters; at most 2048") as caught:
        search(STOPS, filter=text[:-1] + 'x"')
    assert (caught.value.param, caught.value.position) == ("filter", None)
    with pytest.raises(SearchError, match="the filter is empty"):
        search(STOPS, filter="  ")


def test_keywords_match_fuzzily_best_first() -> None:
    assert _ids(keyword="london") == ["a"]
    assert _ids(keyword="londn") == ["a"]  # one letter off
    assert _ids(keyword="manchestr") == ["u1"]
    assert _ids(keyword="gate") == ["a", "u1"]  # a word of "a"; a prefix of "gatehouse"
    assert _ids(keyword="gatehouse gate") == ["u1", "a"]
    assert _ids(keyword="acme lamp") == ["b"]
    assert _ids(keyword="zzzz") == []
    assert relevance("park road", STOPS[1]) == 6
    assert relevance("x", STOPS[0]) == 0


def test_keywords_and_a_filter_both_apply() -> None:
    assert _ids(keyword="gate", filter="packageCount < 3") == ["u1"]


def test_a_sort_field_orders_with_missing_values_last() -> None:
    assert _ids(sort_field="packageCount") == ["b", "u1", "a"]
    assert _ids(sort_field="packageCount", sort_order="desc") == ["a", "u1", "b"]
    assert _ids(sort_field="arrivalAt") == ["a", "b", "u1"]
    assert _ids(sort_field="createdAt", sort_order="desc") == ["b", "a", "u1"]
    assert _ids(sort_field="address.latitude", sort_order="desc") == ["u1", "a", "b"]
    assert _ids(keyword="gate", sort_field="packageCount") == ["u1", "a"]


def test_without_keyword_or_sort_the_documents_order_is_kept() -> None:
    assert search(STOPS) == STOPS
    assert all(found is given for found, given in zip(search(STOPS), STOPS, strict=True))


@pytest.mark.parametrize(
    ("parameters", "param", "message"),
    [
        ({"sort_field": "notes"}, "sortField", "notes is not sortable (sortable: address.latitude,"),
        ({"sort_field": "colour"}, "sortField", "unknown field 'colour'"),
        ({"sort_order": "up"}, "sortOrder", "sortOrder must be asc or desc, not 'up'"),
        ({"keyword": ""}, "keyword", "keyword must have 1 to 255 characters"),
        ({"keyword": "k" * 256}, "keyword", "keyword must have 1 to 255 characters"),
    ],
)
def test_bad_search_parameters_name_their_param(parameters: dict[str, Any], param: str, message: str) -> None:
    with pytest.raises(SearchError) as caught:
        search(STOPS, **parameters)
    assert caught.value.param == param
    assert caught.value.position is None
    assert message in caught.value.message


def test_a_filter_nested_1000_deep_is_a_search_error_not_a_recursion_error() -> None:
    text = "(" * 1000 + 'notes = "x"' + ")" * 1000
    assert len(text) == 2011
    with pytest.raises(SearchError, match="at most 64 levels") as caught:
        parse_filter(text)
    assert caught.value.param == "filter"


def test_parentheses_to_the_depth_bound_parse_and_one_level_more_is_refused() -> None:
    from route_planning_async.v1.search import MAX_FILTER_DEPTH

    alternating = 'notes = "x"'
    for level in range(MAX_FILTER_DEPTH):
        alternating = f'({alternating} {"or" if level % 2 else "and"} notes = "y")'
    tree = parse_filter(alternating)
    assert tree.test(STOPS[0]) in (True, False)
    with pytest.raises(SearchError, match=f"at most {MAX_FILTER_DEPTH} levels") as caught:
        parse_filter(f"({alternating})")
    assert caught.value.position == MAX_FILTER_DEPTH
