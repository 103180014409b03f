"""Part 3, the queries: every list query the client can build validates against the official
parameter schemas of its version.

For each list call of each version, Hypothesis draws its arguments (page sizes past
their bounds, filters of every kind, page tokens, search terms); an argument the client
refuses is fine (``ValidationError`` before anything is sent), and the query of every
request it sends must fit the document: each key a parameter of the operation, or
``filter.<name>`` or ``filter[<name>]`` of a property of its ``filter`` object (the form the files' text
gives, see ``docs/differences.md``), each value valid under that schema once read as
the type the schema gives it.
"""

from __future__ import annotations

import asyncio
import datetime
import re
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp

from .schema import document, resolved
from .strategies import TEXT
from .versions import V0_2B, V1, Version

QUERIES = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

_SIZES = st.none() | st.integers(-2, 60)
_TOKENS = st.none() | TEXT
_DAYS = st.dates(datetime.date(1999, 1, 1), datetime.date(2101, 1, 1))


def _filters(**values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any] | None]:
    return st.none() | st.fixed_dictionaries({}, optional=values)


_EXTERNAL = st.fixed_dictionaries(
    {"filter": _filters(externalId=TEXT), "max_page_size": _SIZES, "page_token": _TOKENS}
)

ListCall = tuple[str, str, str, st.SearchStrategy[dict[str, Any]], Callable[[Any, dict[str, Any]], Any]]

_SHARED: list[ListCall] = [
    ("plans.list", "/plans", "plans",
     st.fixed_dictionaries({"filter": _filters(title=TEXT, startsGte=_DAYS, startsLte=_DAYS),
                            "max_page_size": _SIZES, "page_token": _TOKENS}),
     lambda c, kw: c.plans.list(**kw)),
    ("stops.list", "/plans/{planId}/stops", "stops",
     _EXTERNAL,
     lambda c, kw: c.stops.list("p1", **kw)),
    ("unassigned_stops.list", "/unassignedStops", "unassignedStops",
     _EXTERNAL,
     lambda c, kw: c.unassigned_stops.list(**kw)),
    ("operations.list", "/operations", "operations",
     st.fixed_dictionaries({"filter": _filters(done=st.booleans(), type=st.just("plan_optimization")),
                            "max_page_size": _SIZES, "page_token": _TOKENS}),
     lambda c, kw: c.operations.list(**kw)),
    ("drivers.list", "/drivers", "drivers",
     st.fixed_dictionaries({"filter": _filters(active=st.booleans()), "max_page_size": _SIZES,
                            "page_token": _TOKENS}),
     lambda c, kw: c.drivers.list(**kw)),
    ("depots.list", "/depots", "depots",
     st.fixed_dictionaries({"max_page_size": _SIZES, "page_token": _TOKENS}),
     lambda c, kw: c.depots.list(**kw)),
]  # fmt: skip

_V1_ONLY: list[ListCall] = [
    ("routes.list", "/routes", "routes",
     st.fixed_dictionaries({"max_page_size": _SIZES, "page_token": _TOKENS}),
     lambda c, kw: c.routes.list(**kw)),
    ("routes.list_stops", "/routes/{routeId}/stops", "stops",
     _EXTERNAL,
     lambda c, kw: c.routes.list_stops("r1", **kw)),
    ("stops.search", "/stops:search", "stops",
     st.fixed_dictionaries({"keyword": st.none() | TEXT, "sort_order": st.sampled_from([None, "asc", "desc"]),
                            "max_page_size": _SIZES, "page_token": _TOKENS}),
     lambda c, kw: c.stops.search(**kw)),
]  # fmt: skip

CALLS = [(V0_2B, call) for call in _SHARED] + [(V1, call) for call in (*_SHARED, *_V1_ONLY)]


def _path(template: str) -> str:
    return template.replace("{planId}", "p1").replace("{routeId}", "r1")


_READ_AS: dict[str, dict[str, Any]] = {
    # The file gives a default of 20 with exclusiveMinimum 1 and exclusiveMaximum 20: read as
    # the inclusive 1..20 the client takes (docs/differences.md, search-page-size-bounds).
    "/stops:search": {"maxPageSize": {"type": "integer", "minimum": 1, "maximum": 20}},
}


def _read(value: str, schema: dict[str, Any]) -> Any:
    """The query text as the JSON value of the type its schema gives."""
    kinds = {schema.get("type")} | {part.get("type") for part in schema.get("anyOf", ())}
    if "boolean" in kinds and value in ("true", "false"):
        return value == "true"
    if kinds & {"integer", "number"}:
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() and "integer" in kinds else number
    return value


def query_errors(version: Version, template: str, query: tuple[tuple[str, str], ...]) -> list[str]:
    """Why each key and value of ``query`` does not fit the operation's parameters."""
    operation = document(version.schema)["paths"][template]["get"]
    params = {p["name"]: resolved(version.schema, p["schema"]) for p in operation.get("parameters", ())}
    params.update(_READ_AS.get(template, {}))
    errors: list[str] = []
    for key, value in query:
        schema = params.get(key)
        inside = re.fullmatch(r"filter\[(\w+)\]|filter\.(\w+)", key)
        if inside is not None and "filter" in params:
            name = inside.group(1) or inside.group(2)
            schema = params["filter"].get("properties", {}).get(name)
        if schema is None:
            errors.append(f"{key}: not a parameter of GET {template}")
            continue
        validator = jsonschema.Draft202012Validator(schema)
        errors += [f"{key}={value!r}: {e.message}" for e in validator.iter_errors(_read(value, schema))]
    return errors


@pytest.mark.parametrize(
    ("version", "call"), CALLS, ids=[f"{version.name} {call[0]}" for version, call in CALLS]
)
def test_every_list_query_the_client_builds_is_valid(version: Version, call: ListCall) -> None:
    name, template, key, arguments, make = call
    sent: list[tuple[tuple[str, str], ...]] = []

    @QUERIES
    @given(kwargs=arguments)
    def check(kwargs: dict[str, Any]) -> None:
        sent_now: list[tuple[tuple[str, str], ...]] = []

        async def run() -> None:
            service = FakeService().on("GET", _path(template), answer({key: [], "nextPageToken": None}))
            try:
                async with scripted_client(service, client=version.client) as client:
                    paginator = make(client, kwargs)
                    await _first_page(paginator)
            except rp.ValidationError:
                assert service.requests == []
                return
            sent_now.append(service.sent[0].query)

        asyncio.run(run())
        sent.extend(sent_now)
        for query in sent_now:
            assert query_errors(version, template, query) == [], query

    check()
    assert len(sent) >= 3, f"{name}: only {len(sent)} generated arguments were accepted"


async def _first_page(paginator: Any) -> None:
    async for _ in paginator.pages():
        break
