"""``keep_stops=False``: only ids, counts and externalIds are kept (million-stop benchmarks)."""

from __future__ import annotations

import tracemalloc

import pytest

from emulator.conftest import Api
from route_planning_async.emulator._store._records import CompactStops, StopRecord


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(keep_stops=False, instant_optimization_max_stops=1000)
async def test_compact_plans_serve_skeleton_stops(api: Api) -> None:
    plan = await api.plan()
    body = [{"address": {"city": f"C{i}"}, "recipient": {"externalId": f"e{i}"}} for i in range(100)]
    for _ in range(2):
        result = await api.ok("POST", f"/{plan['id']}/stops:import", body)
        assert len(result["success"]) == 100
    assert result["success"][0] == f"{plan['id']}/stops/s100"
    first = await api.checked("GET", "/plans/{planId}/stops", f"/{plan['id']}/stops")
    assert [s["id"].rsplit("/", 1)[1] for s in first.body["stops"]] == [f"s{i}" for i in range(10)]
    stop = await api.checked("GET", "/plans/{planId}/stops/{stopId}", f"/{plan['id']}/stops/s5")
    assert stop.body["recipient"]["externalId"] == "e5"
    assert stop.body["address"]["address"] == ""
    found = await api.ok("GET", f"/{plan['id']}/stops", params={"filter[externalId]": "e7"})
    assert [s["id"].rsplit("/", 1)[1] for s in found["stops"]] == ["s7", "s107"]
    assert (await api.call("DELETE", f"/{plan['id']}/stops/s5")).status == 204
    assert (await api.call("GET", f"/{plan['id']}/stops/s5")).status == 404
    assert (await api.call("GET", f"/{plan['id']}/stops/s999")).status == 404
    assert api.emu.state.stop_count(plan["id"].split("/")[1]) == 199
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["result"] == {"numOptimizedStops": 199, "skippedStops": []}
    # Pending live creates keep distinct ids.
    first = await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": {"city": "A"}})
    second = await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": {"city": "B"}})
    assert first["stop"]["id"] != second["stop"]["id"]


def test_a_compact_stop_costs_about_ten_bytes() -> None:
    stops = CompactStops()
    record = StopRecord("s0", "p", {"recipient": {"externalId": None}})
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(200_000):
            stops.add(stops.new_id(), record)
        with pytest.raises(KeyError):
            stops.add("s0", record)
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(stops) == 200_000
    assert used / 200_000 < 12
