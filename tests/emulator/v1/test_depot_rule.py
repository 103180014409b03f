"""v1's depot rule: a plan's drivers, and the drivers its stops name, work at the plan's depot."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from route_planning_async.v1._endpoints import OPERATION_IDS

from .conftest import V1Api

_ROOT = Path(__file__).resolve().parents[3]
_DOCUMENT = _ROOT / "tests" / "emulator" / "data" / "public-openapi-v1.json"

STARTS = {"day": 2, "month": 3, "year": 2026}
ADDRESS = {"addressLineOne": "1 High Street", "city": "London"}


async def _north_driver(api: V1Api) -> str:
    driver = await api.ok(
        "POST", "/drivers", {"name": "Nia", "email": "nia@example.com", "depots": ["depots/north"]}
    )
    return str(driver["id"])


@pytest.mark.asyncio
async def test_a_plan_update_naming_a_driver_of_another_depot_is_refused_with_412(api: V1Api) -> None:
    north = await _north_driver(api)
    plan = await api.ok("POST", "/plans", {"title": "Main run", "starts": STARTS})
    refused = await api.checked("PATCH", f"/{plan['id']}", {"drivers": ["drivers/driver-ana", north]})
    assert refused.status == 412
    assert refused.body == {"message": "Driver does not share depot with plan", "param": "drivers[1]"}
    moved = await api.checked("PATCH", f"/{plan['id']}", {"depot": "depots/north"})
    assert moved.status == 200
    assert (await api.ok("PATCH", f"/{plan['id']}", {"drivers": [north]}))["drivers"] == [north]
    # Back to the main depot with a north driver on it: refused too.
    back = await api.checked("PATCH", f"/{plan['id']}", {"depot": "depots/main"})
    assert back.status == 412
    assert "code" not in back.body


@pytest.mark.asyncio
async def test_a_stop_naming_a_driver_the_plan_does_not_have_is_refused_with_412(api: V1Api) -> None:
    north = await _north_driver(api)
    plan = await api.ok(
        "POST", "/plans", {"title": "Main run", "starts": STARTS, "drivers": ["drivers/driver-ana"]}
    )
    # Ben works at the plan's depot but is not one of its drivers; Nia works elsewhere.
    for outsider in ("drivers/driver-ben", north):
        created = await api.checked(
            "POST", f"/{plan['id']}/stops", {"address": ADDRESS, "allowedDrivers": [outsider]}
        )
        assert created.status == 412
        assert created.body == {"message": "Driver is not linked to plan", "param": "allowedDrivers[0]"}
    batch = [{"address": ADDRESS}, {"address": ADDRESS, "allowedDrivers": ["drivers/driver-ana", north]}]
    imported = await api.checked("POST", f"/{plan['id']}/stops:import", batch)
    assert imported.status == 412
    assert imported.body["param"] == "[1].allowedDrivers[1]"
    assert (await api.ok("GET", f"/{plan['id']}/stops"))["stops"] == []
    fine = await api.ok(
        "POST", f"/{plan['id']}/stops", {"address": ADDRESS, "allowedDrivers": ["drivers/driver-ana"]}
    )
    updated = await api.checked("PATCH", f"/{fine['id']}", {"allowedDrivers": ["drivers/driver-ben"]})
    assert updated.status == 412
    # Once Ben is one of the plan's drivers, a stop may name him.
    await api.ok("PATCH", f"/{plan['id']}", {"drivers": ["drivers/driver-ana", "drivers/driver-ben"]})
    assert (await api.ok("PATCH", f"/{fine['id']}", {"allowedDrivers": ["drivers/driver-ben"]}))[
        "allowedDrivers"
    ] == ["drivers/driver-ben"]


@pytest.mark.asyncio
async def test_v0_2b_keeps_allowing_drivers_of_other_depots(api: V1Api) -> None:
    north = await _north_driver(api)
    plan = await api.v0("POST", "/plans", "/plans", {"title": "Old rules", "starts": STARTS})
    updated = await api.v0("PATCH", f"/{plan['id']}", "/plans/{planId}", {"drivers": [north]})
    assert [d["id"] for d in updated["drivers"]] == [north]


def _answering_412() -> dict[str, set[str]]:
    """The client methods whose operation the official v1 document answers 412, with the
    messages it gives (its 412 bodies carry a message and a param, no code)."""
    by_operation: dict[str, set[str]] = {}
    for operations in json.loads(_DOCUMENT.read_text(encoding="utf-8"))["paths"].values():
        for operation in operations.values():
            if isinstance(operation, dict) and "412" in operation.get("responses", {}):
                schema = operation["responses"]["412"]["content"]["application/json"]["schema"]
                assert "code" not in schema["properties"]
                by_operation[operation["operationId"]] = set(schema["properties"]["message"]["enum"])
    return {name: by_operation[op] for name, op in OPERATION_IDS.items() if op in by_operation}


def test_the_official_file_answers_412_on_a_plan_update_and_the_stop_writes_only() -> None:
    assert _answering_412() == {
        "plans.update": {"Driver does not share depot with plan"},
        "stops.create": {"Driver is not linked to plan"},
        "stops.import_batch": {"Driver is not linked to plan"},
        "stops.update": {"Driver is not linked to plan"},
        "stops.live_update": {"Driver is not linked to plan"},
    }


@pytest.mark.asyncio
async def test_a_plan_create_naming_a_driver_of_another_depot_is_stored_as_the_v1_document_says(
    api: V1Api,
) -> None:
    # createPlan has no 412 in the official file (its answers: 200, 400, 401, 403, 404, 409, 500).
    north = await _north_driver(api)
    created = await api.checked("POST", "/plans", {"title": "Main run", "starts": STARTS, "drivers": [north]})
    assert created.status == 200
    assert created.body["drivers"] == [north]
    assert (await api.ok("GET", f"/{created.body['id']}"))["drivers"] == [north]


def _promises_of_412(text: str) -> list[str]:
    return [line for line in text.splitlines() if "412" in line or "PreconditionFailedError" in line]


def test_the_docs_promise_a_412_only_where_the_official_file_gives_one() -> None:
    answering = set(_answering_412())
    readme = (_ROOT / "README.md").read_text(encoding="utf-8")
    v1 = readme[readme.index("## Quickstart (API v1)") :]
    quickstart = re.search(r"```python\n(.*?)```", v1, re.S)
    assert quickstart is not None
    migration = (_ROOT / "docs" / "v1.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in migration.splitlines() if line.startswith("|"))
    promises = _promises_of_412(quickstart.group(1)) + _promises_of_412(table)
    assert promises, "the quickstart and the migration table say where a 412 comes from"
    for line in promises:
        named = {f"{space}.{method}" for space, method in re.findall(r"\b(plans|stops)\.(\w+)", line)}
        # Each promise names a call that answers 412 (a create of a plan does not).
        assert named & answering, line
