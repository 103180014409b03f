"""v1's route list and a route's stops: paged, in route order, filtered by externalId."""

from __future__ import annotations

import pytest

from .conftest import V1Api

STARTS = {"day": 2, "month": 3, "year": 2026}


@pytest.mark.asyncio
async def test_routes_and_their_stops_page_in_order(api: V1Api) -> None:
    plan = await api.ok(
        "POST",
        "/plans",
        {"title": "Two routes", "starts": STARTS, "drivers": ["drivers/driver-ana", "drivers/driver-ben"]},
    )
    stops = [
        {
            "address": {"addressLineOne": f"{n} High Street", "city": "London"},
            "recipient": {"externalId": f"e{n}"},
        }
        for n in range(1, 13)
    ]
    await api.ok("POST", f"/{plan['id']}/stops:import", stops)
    await api.ok("POST", f"/{plan['id']}:optimize")
    route_ids = (await api.ok("GET", f"/{plan['id']}"))["routes"]

    first = await api.ok("GET", "/routes", params={"maxPageSize": "1"})
    second = await api.ok("GET", "/routes", params={"maxPageSize": "1", "pageToken": first["nextPageToken"]})
    assert [r["id"] for r in first["routes"] + second["routes"]] == route_ids
    assert second["nextPageToken"] is None

    seen: list[dict[str, object]] = []
    for route_id in route_ids:
        token = None
        route_stops: list[dict[str, object]] = []
        while True:
            params = {"maxPageSize": "3", **({"pageToken": token} if token else {})}
            page = await api.ok("GET", f"/{route_id}/stops", params=params)
            route_stops += page["stops"]
            token = page["nextPageToken"]
            if token is None:
                break
        positions = [s["stopPosition"] for s in route_stops]
        assert positions == sorted(positions)
        assert (route_stops[0]["type"], route_stops[-1]["type"]) == ("start", "end")
        assert all(s["route"]["id"] == route_id for s in route_stops)  # type: ignore[index]
        seen += [s for s in route_stops if s["type"] == "stop"]
    assert len(seen) == 12

    route_of_e5 = next(s for s in seen if s["recipient"]["externalId"] == "e5")["route"]["id"]  # type: ignore[index]
    found = await api.ok("GET", f"/{route_of_e5}/stops", params={"filter.externalId": "e5"})
    assert [s["recipient"]["externalId"] for s in found["stops"]] == ["e5"]
    assert (await api.checked("GET", "/routes/nosuchroute/stops")).status == 404
    bad = await api.checked("GET", f"/{route_of_e5}/stops", params={"filter.driver": "x"})
    assert (bad.status, bad.body["param"]) == (400, "filter.driver")
