"""Property: every filter the builder makes is accepted by the emulator's parser and selects
exactly the stops a plain Python predicate over the same stops selects."""

from __future__ import annotations

import datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from route_planning_async.emulator.v1._search import search
from route_planning_async.v1.search import (
    FIELDS,
    Comparison,
    Expression,
    FieldType,
    Group,
    custom_property,
    field,
    operators_for,
)

_UTC = datetime.UTC
_CUSTOM = "cp-1"
_NAMES = [*FIELDS, f"customProperties.{_CUSTOM}"]
_PATHS = {
    "planId": ("plan",),
    "routeId": ("route", "id"),
    "arrivalAt": ("eta", "estimatedArrivalAt"),
    f"customProperties.{_CUSTOM}": ("customProperties", _CUSTOM),
}
# Small pools, so stored values and literals meet often: equal, equal but for case, contained.
_TEXTS = ["Gate code", "gate", "LONDON road", ""]
_PIECES = ["GATE", "gate", "road", "London"]
_NUMBERS = [1, 2, 0.5]
_MOMENTS = [datetime.datetime(2026, 5, 1, hour, tzinfo=_UTC) for hour in (0, 1)]
_DAYS = [datetime.date(2026, 5, 1), datetime.date(2026, 5, 2)]


def _path(name: str) -> tuple[str, ...]:
    return _PATHS.get(name, tuple(name.split(".")))


def _kind(name: str) -> FieldType:
    return FIELDS[name].type if name in FIELDS else FieldType.STRING


# ---------------------------------------------------------------- stops


def _stored_values(kind: FieldType) -> st.SearchStrategy[Any]:
    """What a stop body may hold for a field of ``kind`` (None: no value)."""
    none = st.none()
    if kind is FieldType.STRING:
        return st.sampled_from(_TEXTS) | none
    if kind is FieldType.STRING_LIST:
        return st.lists(st.sampled_from(_TEXTS), max_size=3)
    if kind is FieldType.NUMBER:
        return st.sampled_from(_NUMBERS) | none
    if kind is FieldType.INTEGER:
        return st.sampled_from([1, 2]) | none
    if kind is FieldType.BOOLEAN:
        return st.booleans() | none
    moments = [*_MOMENTS, datetime.datetime(2026, 4, 30, 23, tzinfo=_UTC)]
    epoch = st.sampled_from([int(moment.timestamp()) for moment in moments])
    text = st.sampled_from([moment.isoformat().replace("+00:00", "Z") for moment in moments])
    return epoch | text | none


_ABSENT = object()
_STORED = {name: _stored_values(_kind(name)) | st.just(_ABSENT) for name in _NAMES}


@st.composite
def _stops(draw: st.DrawFn, names: list[str]) -> dict[str, Any]:
    """A stop body with values (or none) for ``names``: the fields a filter compares."""
    body: dict[str, Any] = {}
    for name in names:
        value = draw(_STORED[name])
        if value is _ABSENT:
            continue
        *parents, last = _path(name)
        target = body
        for key in parents:
            target = target.setdefault(key, {})
        target[last] = value
    return body


# ---------------------------------------------------------------- expressions


def _literals(kind: FieldType, operator: str) -> st.SearchStrategy[Any]:
    if kind in (FieldType.STRING, FieldType.STRING_LIST):
        return st.sampled_from(_PIECES if operator == "~=" else [*_TEXTS, "GATE"])
    if kind is FieldType.NUMBER:
        return st.sampled_from([*_NUMBERS, -1.25])
    if kind is FieldType.INTEGER:
        return st.sampled_from([1, 2, 0])
    if kind is FieldType.BOOLEAN:
        return st.booleans()
    return st.sampled_from([*_DAYS, *_MOMENTS])


@st.composite
def _comparisons(draw: st.DrawFn) -> Expression:
    kind = draw(st.sampled_from(list(FieldType)))  # a type first, so rare types come up as often
    name = draw(st.sampled_from([name for name in _NAMES if _kind(name) is kind]))
    target = custom_property(_CUSTOM) if name not in FIELDS else field(name)
    if draw(st.integers(0, 5)) == 0:
        return target.is_null() if draw(st.booleans()) else target.is_not_null()
    operator = draw(st.sampled_from(operators_for(kind)))
    value = draw(_literals(kind, operator))
    build = {
        "=": target.__eq__,
        "!=": target.__ne__,
        "~=": target.contains,
        ">": target.__gt__,
        ">=": target.__ge__,
        "<": target.__lt__,
        "<=": target.__le__,
    }[operator]
    built: Expression = build(value)
    return built


_EXPRESSIONS = st.recursive(
    _comparisons(),
    lambda children: st.builds(
        lambda a, b, both: a & b if both else a | b, children, children, st.booleans()
    ),
    max_leaves=8,
)


# ---------------------------------------------------------------- the plain predicate


def _get(body: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(body, dict) or key not in body:
            return None
        body = body[key]
    return body


def _as_moment(value: Any) -> datetime.datetime | None:
    if isinstance(value, int):
        return datetime.datetime.fromtimestamp(value, _UTC)
    if isinstance(value, str):
        return datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    return None


def _literal_moment(value: datetime.datetime | datetime.date) -> datetime.datetime:
    if isinstance(value, datetime.datetime):
        return value
    return datetime.datetime(value.year, value.month, value.day, tzinfo=_UTC)


def _leaves(expression: Expression) -> list[Comparison]:
    if isinstance(expression, Group):
        return [leaf for part in expression.parts for leaf in _leaves(part)]
    assert isinstance(expression, Comparison)
    return [expression]


def _holds(expression: Expression, body: dict[str, Any]) -> bool:
    if isinstance(expression, Group):
        results = [_holds(part, body) for part in expression.parts]
        return all(results) if expression.operator == "and" else any(results)
    assert isinstance(expression, Comparison)
    name, operator, wanted = expression.field.name, expression.operator, expression.value
    kind = expression.field.type
    found = _get(body, _path(name))
    if wanted is None:
        missing = found is None or found == []
        return missing if operator == "=" else not missing
    if kind is FieldType.STRING_LIST:
        items = found or []
        if operator == "~=":
            return any(str(wanted).lower() in item.lower() for item in items)
        return (wanted in items) == (operator == "=")
    if kind is FieldType.STRING:
        if operator == "~=":
            return found is not None and str(wanted).lower() in str(found).lower()
        return bool(found == wanted) == (operator == "=")
    if kind is FieldType.BOOLEAN:
        return (found is wanted) == (operator == "=")
    if kind is FieldType.DATE:
        found, wanted = _as_moment(found), _literal_moment(wanted)  # type: ignore[arg-type]
    if found is None:
        return operator == "!="
    return bool(
        {
            "=": found == wanted,
            "!=": found != wanted,
            ">": found > wanted,
            ">=": found >= wanted,
            "<": found < wanted,
            "<=": found <= wanted,
        }[operator]
    )


@settings(
    max_examples=200,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(_EXPRESSIONS, st.data())
def test_the_parser_selects_what_the_builder_means(expression: Expression, data: st.DataObject) -> None:
    names = sorted({leaf.field.name for leaf in _leaves(expression)})
    stops = data.draw(st.lists(_stops(names), min_size=1, max_size=6))
    text = str(expression)
    found = search(stops, filter=text)
    expected = [body for body in stops if _holds(expression, body)]
    assert [id(body) for body in found] == [id(body) for body in expected], text


@settings(max_examples=100, derandomize=True, deadline=None, database=None)
@given(_EXPRESSIONS, _EXPRESSIONS, _EXPRESSIONS)
def test_grouping_survives_the_text(a: Expression, b: Expression, c: Expression) -> None:
    # The same three expressions, grouped both ways, select what their groupings mean.
    stops: list[dict[str, Any]] = [
        {"notes": "gate", "packageCount": 1, "activity": "pickup", "barcodes": ["x-1"]},
        {"notes": None, "packageCount": 2.5, "address": {"latitude": 0}, "deliveryInfo": {"attempted": True}},
        {"createdAt": "2026-05-01T00:00:00Z", "eta": {"estimatedArrivalAt": 0}, "plan": "plans/p1"},
        {},
    ]
    for expression in ((a | b) & c, a | (b & c), (a & b) | c, a & (b | c)):
        found = search(stops, filter=str(expression))
        assert found == [body for body in stops if _holds(expression, body)], str(expression)
