"""The emulator's route table agrees with the client's endpoint table and the contract."""

from __future__ import annotations

from route_planning_async import Category
from route_planning_async._endpoints import ENDPOINTS
from route_planning_async.emulator import ROUTES


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
    # Only GETs of the OpenAPI document's other serialized ids come on top.
    assert set(ours) - set(ENDPOINTS) == {"routes.get", "drivers.get"}


def test_the_categories_are_the_contracts() -> None:
    by_category: dict[Category, set[str]] = {}
    for route in ROUTES:
        by_category.setdefault(route.category, set()).add(route.name)
    assert by_category[Category.OPTIMIZE] == {"plans.optimize", "plans.reoptimize"}
    assert by_category[Category.BATCH_IMPORT] == {"stops.import_batch", "unassigned_stops.import_batch"}
    assert all(route.method == "GET" for route in ROUTES if route.category is Category.READ)
    assert all(route.method != "GET" for route in ROUTES if route.category is not Category.READ)
