"""The v1 stop-search builder: the field table, rendering, grouping and the checks made on building."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pytest

from route_planning_async._errors import ValidationError
from route_planning_async.v1 import search
from route_planning_async.v1.search import (
    FIELDS,
    MAX_FILTER_LENGTH,
    SORTABLE_FIELDS,
    Comparison,
    Expression,
    FieldType,
    Group,
    custom_property,
    field,
    filter_text,
)

_DOCUMENT = Path(__file__).parents[1] / "emulator" / "data" / "public-openapi-v1.json"
_UTC = datetime.UTC


def _search_operation() -> dict[str, object]:
    document = json.loads(_DOCUMENT.read_text(encoding="utf-8"))
    operation: dict[str, object] = document["paths"]["/stops:search"]["get"]
    return operation


def test_the_table_is_the_documents_list_of_fields() -> None:
    description = str(_search_operation()["description"])
    filterable, sortable = description.split("The following fields are sortable:")
    named = re.findall(r"^\s*- `([^`]+)`", filterable, re.MULTILINE)
    assert [name for name in named if name != "customProperties.*"] == list(FIELDS)
    assert len(named) == 39
    assert re.findall(r"^\s*- `([^`]+)`", sortable, re.MULTILINE) == list(SORTABLE_FIELDS)
    assert len(SORTABLE_FIELDS) == 10


def test_the_bounds_are_the_documents() -> None:
    parameters = {p["name"]: p["schema"] for p in _search_operation()["parameters"]}  # type: ignore[attr-defined]
    assert parameters["filter"]["maxLength"] == search.MAX_FILTER_LENGTH
    assert parameters["keyword"]["maxLength"] == search.MAX_KEYWORD_LENGTH
    # The schema's default (20) is kept; its "exclusive" bounds are read as inclusive.
    assert parameters["maxPageSize"]["default"] == search.DEFAULT_PAGE_SIZE == search.MAX_PAGE_SIZE


def test_all_is_sorted() -> None:
    def kind(name: str) -> tuple[int, str]:  # constants, classes, functions (ruff's isort style)
        return (0 if name.isupper() else 1 if name[0].isupper() else 2, name)

    assert search.__all__ == sorted(search.__all__, key=kind)
    assert all(hasattr(search, name) for name in search.__all__)


@pytest.mark.parametrize(
    ("expression", "text"),
    [
        (field("activity") == "pickup", 'activity = "pickup"'),
        (field("activity") != "pickup", 'activity != "pickup"'),
        (field("notes").contains("gate"), 'notes ~= "gate"'),
        (field("barcodes").contains("AB"), 'barcodes ~= "AB"'),
        (field("packageCount") > 2, "packageCount > 2"),
        (field("packageCount") >= 2.5, "packageCount >= 2.5"),
        (field("address.latitude") < -33.8688, "address.latitude < -33.8688"),
        (field("address.latitude") <= 1e-7, "address.latitude <= 0.0000001"),
        (field("paymentOnDelivery.amount") == 0, "paymentOnDelivery.amount = 0"),
        (field("deliveryInfo.attempted") == True, "deliveryInfo.attempted = true"),  # noqa: E712
        (field("deliveryInfo.succeeded") != False, "deliveryInfo.succeeded != false"),  # noqa: E712
        (field("notes").is_null(), "notes = null"),
        (field("notes") == None, "notes = null"),  # noqa: E711
        (field("arrivalAt").is_not_null(), "arrivalAt != null"),
        (field("createdAt") >= datetime.date(2026, 5, 1), 'createdAt >= "2026-05-01"'),
        (
            field("createdAt")
            < datetime.datetime(2026, 5, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
            'createdAt < "2026-05-01T00:00:00Z"',
        ),
        (
            field("deliveryInfo.attemptedAt") > datetime.datetime(2026, 5, 1, 0, 0, 0, 500, tzinfo=_UTC),
            'deliveryInfo.attemptedAt > "2026-05-01T00:00:00.000500Z"',
        ),
        (custom_property("0234-5678-0abc-def3") == "value", 'customProperties.0234-5678-0abc-def3 = "value"'),
        (field("customProperties.abc_1") != "x", 'customProperties.abc_1 != "x"'),
        (field("notes") == "", 'notes = ""'),
    ],
)
def test_a_comparison_renders_as_the_language_writes_it(expression: Expression, text: str) -> None:
    assert str(expression) == text
    assert filter_text(expression) == text


def test_and_binds_tighter_so_only_an_or_inside_an_and_is_parenthesised() -> None:
    a, b, c = field("notes") == "a", field("activity") == "pickup", field("packageCount") > 1
    assert str(a | b & c) == 'notes = "a" or activity = "pickup" and packageCount > 1'
    assert str((a | b) & c) == '(notes = "a" or activity = "pickup") and packageCount > 1'
    assert str(a & (b | c)) == 'notes = "a" and (activity = "pickup" or packageCount > 1)'
    assert str((a & b) | c) == 'notes = "a" and activity = "pickup" or packageCount > 1'
    assert str((a | b) & (b | c)) == (
        '(notes = "a" or activity = "pickup") and (activity = "pickup" or packageCount > 1)'
    )


def test_joins_of_one_operator_are_flattened() -> None:
    a, b, c = field("notes") == "a", field("notes") == "b", field("notes") == "c"
    joined = (a | b) | c
    assert isinstance(joined, Group)
    assert joined.operator == "or"
    assert joined.parts == (a, b, c)
    assert str(a & (b & c)) == 'notes = "a" and notes = "b" and notes = "c"'


def test_a_comparison_keeps_its_parts() -> None:
    comparison = field("packageCount") >= 3
    assert isinstance(comparison, Comparison)
    assert (comparison.field, comparison.operator, comparison.value) == (FIELDS["packageCount"], ">=", 3)
    assert repr(comparison) == "Comparison('packageCount >= 3')"


def test_python_and_or_are_refused() -> None:
    a = field("notes") == "a"
    with pytest.raises(TypeError, match=re.escape("join with & and |")):
        bool(a)  # what `a and b` would call
    with pytest.raises(TypeError, match="cannot join"):
        _ = a & "notes = 1"  # type: ignore[operator]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: field("address"), "'address' is not a filterable field"),
        (lambda: field("createdat"), "'createdat' is not a filterable field"),
        (lambda: custom_property("a b"), "not a custom property id"),
        (lambda: field("customProperties."), "not a custom property id"),
        (lambda: field("notes") == 'say "hi"', "no escape, so a string cannot contain"),
        (lambda: field("notes") == 3, "notes: takes a string, not int"),
        (lambda: field("notes") > "a", "a string field takes =, !=, ~=, not >"),
        (lambda: field("barcodes") <= "a", "a string list field takes =, !=, ~=, not <="),
        (lambda: field("packageCount") == "3", "packageCount: takes a number, not str"),
        (lambda: field("packageCount") == True, "takes a number, not bool"),  # noqa: E712
        (lambda: field("packageCount").contains("3"), "a number field takes"),
        (lambda: field("packageCount") > float("nan"), "takes a finite number"),
        (lambda: field("paymentOnDelivery.amount") == 1.5, "takes a whole number"),
        (lambda: field("deliveryInfo.attempted") == 1, "takes True or False, not int"),
        (lambda: field("deliveryInfo.attempted") > True, "a boolean field takes =, !=, not >"),
        (lambda: field("createdAt") > datetime.datetime(2026, 1, 1), "timezone-aware"),
        (lambda: field("createdAt") > "2026-01-01", "takes a datetime or a date, not str"),
        (lambda: field("createdAt").contains("2026"), "a date field takes"),
        (lambda: field("notes") > None, "null takes only = and !=, not >"),
        (lambda: Comparison(FIELDS["notes"], "==", "a"), "'==' is not an operator"),
    ],
)
def test_a_bad_comparison_is_refused_when_built(build: object, message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)) as caught:
        build()  # type: ignore[operator]
    assert caught.value.field == "filter"


def test_the_length_bound_is_checked_on_use_not_on_str() -> None:
    expression = field("notes") == "x" * (MAX_FILTER_LENGTH - len('notes = ""'))
    assert filter_text(expression) == str(expression)
    longer = expression | (field("notes") == "y")
    assert len(str(longer)) > MAX_FILTER_LENGTH
    with pytest.raises(ValidationError, match="at most 2048 characters"):
        filter_text(longer)
    with pytest.raises(ValidationError, match="at most 2048 characters"):
        filter_text("a" * (MAX_FILTER_LENGTH + 1))


def test_a_raw_filter_text_is_sent_as_written() -> None:
    assert filter_text('address.countryCode = "DE"') == 'address.countryCode = "DE"'
    with pytest.raises(ValidationError, match="must not be empty"):
        filter_text("")
    with pytest.raises(TypeError, match="a string or a search expression"):
        filter_text(3)  # type: ignore[arg-type]


def test_every_field_type_has_its_operators() -> None:
    assert search.operators_for(FieldType.STRING) == ("=", "!=", "~=")
    assert search.operators_for(FieldType.DATE) == ("=", "!=", ">", ">=", "<", "<=")
    assert set(search.OPERATORS) == {op for kind in FieldType for op in search.operators_for(kind)}
    assert search.search_field("customProperties.p1").type is FieldType.STRING


def test_fields_are_not_hashable_and_compare_into_expressions() -> None:
    notes = field("notes")
    with pytest.raises(TypeError):
        hash(notes)
    assert isinstance(notes == "a", Comparison)


def test_a_group_made_by_hand_is_checked() -> None:
    notes = field("notes") == "a"
    assert str(Group("or", (notes,))) == 'notes = "a"'
    with pytest.raises(ValueError, match="must be in"):
        Group("xor", (notes,))
    with pytest.raises(ValueError, match="must be >= 1"):
        Group("and", ())
    with pytest.raises(TypeError, match="must be"):
        Group("and", ("notes = 1",))  # type: ignore[arg-type]


# Hardening, fourth round: values a field cannot take, deep nesting, lone surrogates.


@pytest.mark.parametrize(
    "moment",
    [
        datetime.datetime.min.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=1))),
        datetime.datetime.max.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=-1))),
    ],
)
def test_a_datetime_outside_the_years_utc_can_hold_is_a_validation_error(moment: datetime.datetime) -> None:
    with pytest.raises(ValidationError, match="createdAt") as caught:
        field("createdAt") > moment  # noqa: B015 - building it raises
    assert caught.value.field == "filter"


def _alternately_nested(depth: int) -> Expression:
    expression: Expression = field("packageCount") == 0
    for level in range(depth):
        other = field("packageCount") == level
        expression = (expression | other) if level % 2 else (expression & other)
    return expression


def test_an_expression_nested_1200_deep_is_a_validation_error_not_a_recursion_error() -> None:
    expression = _alternately_nested(1200)
    with pytest.raises(ValidationError, match=f"at most {search.MAX_FILTER_DEPTH} levels"):
        filter_text(expression)
    # Printing it is not sending it: str() and repr() still work, without recursion.
    assert str(expression).count("(") == 599
    assert repr(expression).startswith("Group(")


def _bracketed(levels: int) -> Expression:
    """``levels`` nested parentheses around one comparison: an ``or`` of one part inside an ``and``."""
    expression: Expression = field("type").is_null()
    for _ in range(levels):
        expression = Group("and", (Group("or", (expression,)),))
    return expression


def test_an_expression_nested_to_the_bound_is_sent_and_one_deeper_is_refused() -> None:
    at_bound = filter_text(_bracketed(search.MAX_FILTER_DEPTH))
    assert at_bound == "(" * search.MAX_FILTER_DEPTH + "type = null" + ")" * search.MAX_FILTER_DEPTH
    with pytest.raises(ValidationError, match=f"at most {search.MAX_FILTER_DEPTH} levels"):
        filter_text(_bracketed(search.MAX_FILTER_DEPTH + 1))


_LONE = "caf\udce9"  # "café" read as Latin-1 bytes with surrogateescape


@pytest.mark.parametrize(
    "build",
    [
        lambda: field("notes") == _LONE,
        lambda: field("notes").contains(_LONE),
        lambda: field("barcodes") != _LONE,
        lambda: custom_property("gate") == _LONE,
    ],
)
def test_a_value_with_a_lone_surrogate_is_refused_when_built(build: object) -> None:
    assert callable(build)
    with pytest.raises(ValidationError, match="cannot be encoded as UTF-8"):
        build()


def test_a_filter_text_with_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(ValidationError, match="cannot be encoded as UTF-8") as caught:
        filter_text(f'notes = "{_LONE}"')
    assert caught.value.field == "filter"
