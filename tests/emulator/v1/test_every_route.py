"""Every v1 route answers, in the v1 document's shapes, over one plan's whole life."""

from __future__ import annotations

import pytest

from route_planning_async.emulator.v1 import ROUTES

from .conftest import V1Api

STARTS = {"day": 2, "month": 3, "year": 2026}


def _stop(n: int, **fields: object) -> dict[str, object]:
    return {
        "address": {"addressLineOne": f"{n} High Street", "city": "London"},
        "recipient": {"externalId": f"ext-{n}", "name": f"Recipient {n}"},
        **fields,
    }


@pytest.mark.asyncio
async def test_every_v1_route_answers_in_the_documents_shapes(api: V1Api) -> None:
    # Team: depots, members, drivers, custom properties.
    depots = await api.ok("GET", "/depots")
    assert [d["id"] for d in depots["depots"]] == ["depots/main", "depots/north"]
    await api.ok("GET", "/depots/main")
    depot_body = {
        "name": "East depot",
        "routeOverrides": {
            "startAddress": {"addressLineOne": "3 Mile End Road", "city": "London"},
            "startTime": {"hour": 7, "minute": 30},
            "roundTrip": True,
        },
    }
    east = await api.ok("POST", "/depots", depot_body)
    assert east["routeOverrides"]["startTime"] == {"hour": 7, "minute": 30}
    assert east["routeOverrides"]["startAddress"]["placeId"]
    renamed = await api.ok("PATCH", f"/{east['id']}", {"name": "East"})
    assert renamed["name"] == "East"
    imported = await api.ok("POST", "/depots:import", [depot_body, {**depot_body, "name": "West"}])
    assert len(imported["success"]) == 2
    assert imported["failed"] == []
    assert (await api.checked("POST", f"/{imported['success'][1]}:setMain")).status == 204
    assert (await api.checked("POST", "/depots/main:setMain")).status == 204
    assert (await api.checked("DELETE", f"/{imported['success'][1]}")).status == 204

    member = await api.ok(
        "POST", "/members", {"role": "dispatcher", "email": "dee@example.com", "depots": ["depots/main"]}
    )
    assert member["roles"] == ["dispatcher"]
    assert (await api.ok("PATCH", f"/{member['id']}", {"role": "admin"}))["roles"] == ["admin"]
    members = await api.ok("POST", "/members:import", [{"role": "read-only", "email": "eve@example.com"}])
    assert len(members["success"]) == 1
    assert (await api.checked("DELETE", f"/{member['id']}")).status == 204

    drivers = await api.ok("GET", "/drivers")
    assert drivers["drivers"]
    driver = await api.ok("POST", "/drivers", {"name": "Fay", "email": "fay@example.com"})
    await api.ok("GET", f"/{driver['id']}")
    await api.ok("PATCH", f"/{driver['id']}", {"displayName": "F"})
    await api.ok("POST", "/drivers:import", [{"name": "Gus", "email": "gus@example.com"}])
    assert (await api.checked("DELETE", f"/{driver['id']}")).status == 204
    properties = await api.ok("GET", "/team/customStopProperties")
    await api.ok("GET", f"/team/customStopProperties/{properties['customStopProperties'][0]['id']}")

    # A plan: create, change, stops, optimize, distribute.
    plan = await api.ok(
        "POST",
        "/plans",
        {
            "title": "Monday",
            "starts": STARTS,
            "drivers": ["drivers/driver-ana", "drivers/driver-ben"],
            "routeOverrides": {"maxStops": 30, "optimizationSettings": {"objective": "distribute_services"}},
        },
    )
    assert plan["drivers"] == ["drivers/driver-ana", "drivers/driver-ben"]
    assert plan["routeOverrides"]["optimizationSettings"]["objective"] == "distribute_services"
    plan_id = plan["id"]
    await api.ok("GET", "/plans", params={"filter.title": "Mon"})
    await api.ok("PATCH", f"/{plan_id}", {"title": "Monday round"})
    stop = await api.ok("POST", f"/{plan_id}/stops", _stop(1, clientId="c-1"))
    assert stop["clientId"] == "c-1"
    assert stop["eta"] == {
        "status": "pending",
        "pendingReason": "not_optimized",
    }
    batch = await api.ok("POST", f"/{plan_id}/stops:import", [_stop(n) for n in (2, 3, 4)])
    assert len(batch["success"]) == 3
    await api.ok("GET", f"/{plan_id}/stops")
    await api.ok("GET", f"/{stop['id']}")
    await api.ok("PATCH", f"/{stop['id']}", {"notes": "Ring twice"})
    assert (await api.checked("DELETE", f"/{batch['success'][2]}")).status == 204

    operation = await api.ok("POST", f"/{plan_id}:optimize")
    operation = await api.ok("GET", f"/{operation['id']}")
    assert operation["done"]
    await api.ok("GET", "/operations", params={"filter.done": "true"})
    optimized = await api.ok("GET", f"/{plan_id}")
    assert optimized["routes"]
    routes = await api.ok("GET", "/routes")
    assert {r["id"] for r in routes["routes"]} >= set(optimized["routes"])
    route_id = optimized["routes"][0]
    await api.ok("GET", f"/{route_id}")
    route_stops = await api.ok("GET", f"/{route_id}/stops")
    assert route_stops["stops"][0]["type"] == "start"
    assert route_stops["stops"][0]["eta"]["status"] == "pending"
    assert any(s["eta"]["status"] == "available" for s in route_stops["stops"])

    # Live changes on the optimized plan.
    live = await api.ok("POST", f"/{plan_id}/stops:liveCreate", _stop(5))
    await api.ok("POST", f"/{plan_id}/stops:liveImport", [_stop(6)])
    await api.ok("POST", f"/{stop['id']}:liveUpdate", {"notes": "Back door"})
    await api.ok("POST", f"/{batch['success'][0]}:liveDelete")
    reoptimization = await api.ok("POST", f"/{plan_id}:reoptimize", {"optimizationType": "reorder_all_stops"})
    await api.ok("GET", f"/{reoptimization['id']}")
    assert (await api.checked("POST", f"/{plan_id}:save")).status == 204
    assert live["stop"]["id"]
    await api.ok("POST", f"/{plan_id}:distribute")
    await api.ok("POST", f"/{plan_id}/stops:liveCreate", _stop(7))
    await api.ok("POST", f"/{plan_id}:reoptimize")
    await api.ok("POST", f"/{plan_id}:redistribute")

    # An operation still running can be canceled: the second plan's optimization.
    other = await api.ok(
        "POST", "/plans", {"title": "Tuesday", "starts": STARTS, "drivers": ["drivers/driver-ana"]}
    )
    await api.ok("POST", f"/{other['id']}/stops:import", [_stop(n) for n in range(10, 40)])
    running = await api.ok("POST", f"/{other['id']}:optimize")
    canceled = await api.call("POST", f"/{running['id']}:cancel")
    assert canceled.status in (200, 409)
    await api.checked("POST", f"/{running['id']}:cancel")

    # Unassigned stops and the search.
    unassigned = await api.ok("POST", "/unassignedStops", _stop(50, clientId="u-50"))
    assert unassigned["clientId"] == "u-50"
    await api.ok("POST", "/unassignedStops:import", {"unassignedStops": [_stop(51)], "depot": "depots/main"})
    await api.ok("GET", "/unassignedStops")
    await api.ok("GET", f"/{unassigned['id']}")
    await api.ok("PATCH", f"/{unassigned['id']}", {"notes": "Leave with neighbour"})
    found = await api.ok("GET", "/stops:search", params={"keyword": "High", "maxPageSize": "5"})
    assert len(found["stops"]) == 5
    assert found["nextPageToken"]
    assert {s["type"] for s in found["stops"]} <= {"stop", "unassignedStop"}
    assert (await api.checked("DELETE", f"/{unassigned['id']}")).status == 204
    assert (await api.checked("DELETE", f"/{other['id']}")).status == 204
    await api.ok("GET", f"/{plan_id}")
    assert (await api.checked("DELETE", f"/{plan_id}")).status == 204

    assert api.seen == {route.name for route in ROUTES}
    assert api.emu.internal_errors == []
