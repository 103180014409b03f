"""The v1 document's operations, the emulator's v1 routes and the client's v1 endpoint table are one set."""

from __future__ import annotations

import re
from pathlib import Path

from emulator.openapi import V1
from route_planning_async.emulator import Emulator
from route_planning_async.emulator.v1 import BASE_PATH, ROUTES
from route_planning_async.v1._endpoints import ENDPOINTS


def _shape(method: str, template: str) -> tuple[str, str]:
    return method.upper(), re.sub(r"\{\w+\}", "{}", template)


def test_the_v1_routes_are_the_documents_operations() -> None:
    document = {
        _shape(method, path)
        for path, methods in V1.document()["paths"].items()
        for method in methods
        if method in ("get", "post", "patch", "delete", "put")
    }
    routes = {_shape(route.method, route.template) for route in ROUTES}
    assert len(document) == 52
    assert routes == document
    assert len(ROUTES) == 52


def test_the_v1_routes_are_the_clients_endpoints() -> None:
    routes = {route.name: (route.method, route.template, route.category) for route in ROUTES}
    endpoints = {name: (e.method, e.template, e.category) for name, e in ENDPOINTS.items()}
    assert routes == endpoints


def test_each_version_has_its_base_path() -> None:
    assert BASE_PATH == "/public/v1"
    emu = Emulator()
    emu._port = 1  # the address of a running emulator, without starting one
    assert emu.base_url_for("v1") == emu.origin + "/public/v1"
    assert emu.base_url == emu.origin + "/public/v0.2b"


def _docs_rows(page: str) -> set[str]:
    text = (Path(__file__).parents[3] / "docs" / page).read_text(encoding="utf-8")
    return {line for line in text.splitlines() if re.match(r"\| (GET|POST|PATCH|DELETE) \|", line)}


def test_the_v1_pages_table_is_the_endpoint_table() -> None:
    expected = {
        f"| {e.method} | `{e.template}` | `client.{name}` | `{e.category}` |" for name, e in ENDPOINTS.items()
    }
    assert len(expected) == 52
    assert _docs_rows("v1.md") == expected
