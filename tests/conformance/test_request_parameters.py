"""Every query and path id the client can build is valid under the official documents.

The calls with a body are held to the request schemas in ``test_requests.py``; the
queries and the ids put into paths are held here. For each version's list and search calls, Hypothesis
draws the arguments wide (filters by documented and unknown names, of every value type;
page sizes past both bounds, floats and booleans; page tokens of every length): a call
the client refuses must send nothing (``ValidationError``); the query of every call it
sends must be valid under the operation's query parameters (``query.py``). Every id
the client puts into a path (``_ids.py``) must be valid under each schema the documents
give that path parameter.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp
from route_planning_async._checks import _ids
from route_planning_async._converter import camel_case
from route_planning_async.v1 import search

from .query import query_errors
from .schema import document, resolved
from .strategies import DATES, TEXT
from .versions import VERSIONS, Version

QUERIES = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_WIDE = (
    TEXT
    | DATES
    | st.datetimes(datetime.datetime(1990, 1, 1), datetime.datetime(2110, 1, 1))
    | st.integers(-5, 10**6)
    | st.booleans()
)
"""Filter values of every type and length."""
_WORDS = st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=20)
_TEXTS = _WORDS | st.text(alphabet="ab", min_size=250, max_size=260)
"""Text filter values: short, or about the documents' bound of 255 characters."""
_DAYS = DATES | DATES.map(datetime.date.isoformat)
_PAGE_SIZES = st.none() | st.integers(-2, 60) | st.floats(0, 60) | st.booleans()
_PAGE_TOKENS = st.none() | TEXT | st.text(min_size=250, max_size=260)


def _listing(**filters: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """The arguments of a list call; ``filters``: the documented filters, each with the
    values it takes. Half the arguments drawn have a page size and token in range, so
    that the filter decides (some of the documented filters, or names and values of every
    kind); the others have sizes and tokens of every kind too."""
    names = [*filters, *(camel_case(name) for name in filters), "colour", "bad name!"]
    wide = st.dictionaries(st.sampled_from(names), _WIDE | _TEXTS, min_size=1, max_size=3)
    drawn = st.fixed_dictionaries({}, optional=filters) | wide
    taken = st.fixed_dictionaries(
        {"max_page_size": st.none() | st.integers(1, 10), "page_token": st.none() | _WORDS},
        optional={"filter": drawn} if filters else {},
    )
    every = st.fixed_dictionaries(
        {"max_page_size": _PAGE_SIZES, "page_token": _PAGE_TOKENS},
        optional={"filter": st.none() | drawn} if filters else {},
    )
    return taken | every


_EXPRESSIONS = st.sampled_from(
    [
        search.field("activity") == "pickup",
        search.field("packageCount") >= 2,
        (search.field("notes").contains("ring")) & (search.field("activity") != "delivery"),
    ]
)
_SEARCH = st.fixed_dictionaries(
    {"max_page_size": st.none() | st.integers(1, 20), "page_token": st.none() | _WORDS},
    optional={
        "keyword": _WORDS,
        "filter": _EXPRESSIONS | _WORDS.map(lambda text: f'notes ~= "{text}"'),
        "sort_field": st.sampled_from(search.SORTABLE_FIELDS),
        "sort_order": st.sampled_from(["asc", "desc"]),
    },
) | st.fixed_dictionaries(
    {"max_page_size": _PAGE_SIZES, "page_token": _PAGE_TOKENS},
    optional={
        "keyword": st.none() | TEXT,
        "filter": st.none() | TEXT | st.text(min_size=2040, max_size=2060),
        "sort_field": st.none() | st.sampled_from([*search.SORTABLE_FIELDS, "bogus"]),
        "sort_order": st.none() | st.sampled_from(["asc", "desc", "up"]),
    },
)
"""The arguments of a search: of the kinds it takes, or of every kind."""

_PLANS = _listing(title=_TEXTS, starts_gte=_DAYS, startsLte=_DAYS)
_EXTERNAL_ID = _listing(external_id=_TEXTS)
_OPERATIONS = _listing(done=st.booleans(), type=st.just("plan_optimization"))
_UNFILTERED = {"depots.list", "routes.list"}
"""The calls that take no filter."""

Listed = Callable[[Any, dict[str, Any]], Awaitable[Any]]
QueryCase = tuple[str, st.SearchStrategy[dict[str, Any]], str, str, str, Listed]
"""A call: its name, its arguments drawn, the path sent, the document's template, the
key of the answer's items, the call (to its first page)."""

_SHARED: list[QueryCase] = [
    ("plans.list", _PLANS, "/plans", "/plans", "plans",
     lambda c, kw: c.plans.list(**kw).collect()),
    ("stops.list", _EXTERNAL_ID, "/plans/p1/stops", "/plans/{planId}/stops", "stops",
     lambda c, kw: c.stops.list("p1", **kw).collect()),
    ("drivers.list", _listing(active=st.booleans()), "/drivers", "/drivers", "drivers",
     lambda c, kw: c.drivers.list(**kw).collect()),
    ("depots.list", _listing(), "/depots", "/depots", "depots",
     lambda c, kw: c.depots.list(**kw).collect()),
    ("operations.list", _OPERATIONS, "/operations", "/operations", "operations",
     lambda c, kw: c.operations.list(**kw).collect()),
    ("unassigned_stops.list", _EXTERNAL_ID, "/unassignedStops", "/unassignedStops",
     "unassignedStops", lambda c, kw: c.unassigned_stops.list(**kw).collect()),
]  # fmt: skip
_V1: list[QueryCase] = [
    ("routes.list", _listing(), "/routes", "/routes", "routes", lambda c, kw: c.routes.list(**kw).collect()),
    ("routes.list_stops", _EXTERNAL_ID, "/routes/r1/stops", "/routes/{routeId}/stops", "stops",
     lambda c, kw: c.routes.list_stops("r1", **kw).collect()),
    ("stops.search", _SEARCH, "/stops:search", "/stops:search", "stops",
     lambda c, kw: c.stops.search(**kw).collect()),
]  # fmt: skip
CASES: dict[str, list[QueryCase]] = {"v0.2b": _SHARED, "v1": _SHARED + _V1}
"""Per version: each call with a query."""


@pytest.mark.parametrize(
    ("version", "name", "arguments", "path", "template", "key", "call"),
    [
        pytest.param(version, *case, id=f"{version.name} {case[0]}")
        for version in VERSIONS
        for case in CASES[version.name]
    ],
)
def test_every_query_the_client_builds_is_valid(
    version: Version,
    name: str,
    arguments: st.SearchStrategy[dict[str, Any]],
    path: str,
    template: str,
    key: str,
    call: Listed,
) -> None:
    sent: list[tuple[tuple[str, str], ...]] = []

    @QUERIES
    @given(kwargs=arguments)
    def check(kwargs: dict[str, Any]) -> None:
        async def run() -> None:
            service = FakeService().on("GET", path, answer({key: []}))
            try:
                async with scripted_client(service, client=version.client) as client:
                    await call(client, kwargs)
            except rp.ValidationError:
                assert service.requests == []  # refused before anything was sent
                return
            sent.append(service.sent[0].query)

        before = len(sent)
        asyncio.run(run())
        if len(sent) > before:
            assert query_errors(version.schema, template, "get", sent[-1]) == [], (kwargs, sent[-1])

    check()
    # The arguments reach queries the client sends (with a filter, where the call takes
    # one), not only ones it refuses.
    assert len(sent) >= 3, f"{name}: only {len(sent)} generated queries were accepted"
    filtered = [query for query in sent if any(key.startswith("filter") for key, _ in query)]
    assert filtered or name in _UNFILTERED, f"{name}: no generated filter was accepted"


def test_a_query_outside_the_document_is_seen() -> None:
    path = VERSIONS[1].schema
    assert query_errors(path, "/plans", "get", (("maxPageSize", "10"), ("filter[title]", "a"))) == []
    assert query_errors(path, "/plans", "get", (("maxPageSize", "21"),)) != []
    assert query_errors(path, "/plans", "get", (("filter[colour]", "red"),)) != []
    assert query_errors(path, "/plans", "get", (("filter[startsGte]", "7"),)) != []
    assert query_errors(path, "/plans", "get", (("sortOrder", "asc"),)) != []
    assert query_errors(path, "/drivers", "get", (("filter[active]", "yes"),)) != []
    assert query_errors(path, "/stops:search", "get", (("maxPageSize", "20"),)) == []
    assert query_errors(path, "/stops:search", "get", (("maxPageSize", "21"),)) != []


@pytest.mark.parametrize(
    ("call", "field", "rule"),
    [
        (
            lambda c: c.plans.list(filter={"colour": "red"}),
            "filter",
            "filters on title, startsGte, startsLte only",
        ),
        (lambda c: c.plans.list(filter={"starts_gte": "0"}), "filter[startsGte]", "YYYY-MM-DD"),
        (lambda c: c.plans.list(filter={"startsLte": "2026-02-30"}), "filter[startsLte]", "YYYY-MM-DD"),
        (lambda c: c.plans.list(filter={"title": "t" * 256}), "filter[title]", "at most 255 characters"),
        (
            lambda c: c.stops.list("p1", filter={"external_id": "a", "externalId": "b"}),
            "filter",
            "given twice",
        ),
        (lambda c: c.stops.list("p1", filter={"title": "a"}), "filter", "filters on externalId only"),
    ],
)
def test_a_filter_the_documents_do_not_take_is_refused_before_sending(
    call: Callable[[Any], Any], field: str, rule: str
) -> None:
    async def run() -> None:
        service = FakeService()
        async with scripted_client(service) as client:
            with pytest.raises(rp.ValidationError) as refused:
                call(client)
        assert (refused.value.field, service.requests) == (field, [])
        assert rule in str(refused.value)

    asyncio.run(run())


def test_an_open_filter_takes_other_names() -> None:
    # The unassigned stop list's filter is an open object in both documents.
    async def run() -> tuple[tuple[str, str], ...]:
        service = FakeService().on("GET", "/unassignedStops", answer({"unassignedStops": []}))
        async with scripted_client(service) as client:
            await client.unassigned_stops.list(filter={"external_id": "x", "depot": "d1"}).collect()
        return service.sent[0].query

    query = asyncio.run(run())
    assert query == (("filter[externalId]", "x"), ("filter[depot]", "d1"))
    assert query_errors(VERSIONS[0].schema, "/unassignedStops", "get", query) == []


_PATH_IDS: dict[str, Callable[[object], str]] = {
    "planId": _ids.plan_id,
    "stopId": lambda value: _ids.stop_ref(f"plans/p1/stops/{value}")[1],
    "driverId": _ids.driver_id,
    "depotId": _ids.depot_id,
    "routeId": _ids.route_id,
    "operationId": _ids.operation_id,
    "unassignedStopId": _ids.unassigned_stop_id,
    "customStopPropertyId": _ids.custom_stop_property_id,
    "memberId": _ids.member_id,
}
"""How the client checks the id of each path parameter of the documents."""


def _path_schemas(version: Version) -> dict[str, list[dict[str, Any]]]:
    """Each path parameter of the document, with every schema it is given."""
    found: dict[str, list[dict[str, Any]]] = {}
    for operations in document(version.schema)["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                parameter = resolved(version.schema, parameter)
                if parameter["in"] == "path" and parameter["schema"] not in found.get(parameter["name"], []):
                    found.setdefault(parameter["name"], []).append(parameter["schema"])
    return found


@pytest.mark.parametrize("version", VERSIONS, ids=lambda version: version.name)
def test_every_path_id_the_client_accepts_is_valid(version: Version) -> None:
    schemas = _path_schemas(version)
    assert set(schemas) <= set(_PATH_IDS)
    accepted: list[str] = []

    # Ids of the documents' alphabet and length, and ids one step past either.
    valid = st.from_regex(r"[A-Za-z0-9_-]{1,50}", fullmatch=True)
    outside = st.sampled_from([".", "..", "?", "#", "é", "/", " ", "%2F", "\n"])
    ids = (
        valid
        | st.tuples(valid, outside, valid).map("".join)
        | st.from_regex(r"[A-Za-z0-9_-]{51,60}", fullmatch=True)
        | st.just("")
    )
    prefixes = st.sampled_from(["plans", "drivers", "depots", "routes", "x"])
    values = ids | st.tuples(prefixes, ids).map("/".join)

    @settings(QUERIES, max_examples=300)
    @given(name=st.sampled_from(sorted(schemas)), value=values | TEXT)
    def check(name: str, value: str) -> None:
        try:
            bare = _PATH_IDS[name](value)
        except rp.ValidationError:
            return
        accepted.append(bare)
        for schema in schemas[name]:
            assert list(jsonschema.Draft202012Validator(schema).iter_errors(bare)) == [], (name, value)

    check()
    assert len(accepted) >= 10, accepted
