"""The emulator's v0.2b route table agrees with the client's endpoint table and the contract."""

from __future__ import annotations

import json
import re
from pathlib import Path

from route_planning_async import Category
from route_planning_async.emulator.v0_2b import ROUTES
from route_planning_async.v0_2b._endpoints import ENDPOINTS


def test_categories_match_the_clients_endpoint_table() -> None:
    ours = {route.name: route for route in ROUTES}
    for name, endpoint in ENDPOINTS.items():
        route = ours[name]
        assert route.method == endpoint.method, name
        assert route.template.replace("{unassigned_stop}", "{x}") == endpoint.template.replace(
            "{unassigned_stop}", "{x}"
        ), name
        assert route.category is endpoint.category, name
        assert (route.body != "none") == endpoint.sends_body, name
    # Every endpoint of the official schema is in both tables.
    assert set(ours) == set(ENDPOINTS)


def test_the_categories_are_the_contracts() -> None:
    by_category: dict[Category, set[str]] = {}
    for route in ROUTES:
        by_category.setdefault(route.category, set()).add(route.name)
    assert by_category[Category.OPTIMIZE] == {"plans.optimize", "plans.reoptimize"}
    assert by_category[Category.BATCH_IMPORT] == {
        "stops.import_batch",
        "stops.live_import_batch",
        "unassigned_stops.import_batch",
    }
    # The public API documentation's driver limits.
    assert by_category[Category.DRIVER_CREATE] == {"drivers.create"}
    assert by_category[Category.DRIVER_IMPORT] == {"drivers.import_batch"}
    assert all(route.method == "GET" for route in ROUTES if route.category is Category.READ)
    assert all(route.method != "GET" for route in ROUTES if route.category is not Category.READ)


def test_every_operation_of_the_official_schema_has_an_endpoint_and_a_docs_row() -> None:
    schema = json.loads((Path(__file__).parent / "data" / "public-openapi-v0.2b.json").read_text())
    official = {
        (method.upper(), re.sub(r"\{\w+\}", "{}", path))
        for path, operations in schema["paths"].items()
        for method in operations
        if method in ("get", "post", "patch", "delete")
    }
    ours = {(e.method, re.sub(r"\{\w+\}", "{}", e.template)) for e in ENDPOINTS.values()}
    assert len(official) == 40
    assert ours == official
    page = (Path(__file__).parents[2] / "docs" / "rate-limits.md").read_text(encoding="utf-8")
    for endpoint in ENDPOINTS.values():
        name, category = endpoint.name, endpoint.category
        row = f"| {endpoint.method} | `{endpoint.template}` | `client.{name}` | `{category}` |"
        assert row in page, row
