"""The contract's states and transitions: optimization, distribution, live changes."""

from __future__ import annotations

import asyncio
import datetime
import math
from typing import Any

import pytest

from emulator.conftest import Api, FakeClock, open_api
from route_planning_async import RateLimits
from route_planning_async.emulator import Emulator, EmulatorConfig

pytestmark = pytest.mark.asyncio


def haversine(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (
        math.sin((p2 - p1) / 2) ** 2
        + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lng2 - lng1) / 2) ** 2
    )
    return 2 * 6_371_000 * math.asin(math.sqrt(h))


async def stops_of(api: Api, plan_id: str) -> list[dict[str, Any]]:
    stops: list[dict[str, Any]] = []
    token = None
    while True:
        params = {"pageToken": token} if token else None
        page = await api.ok("GET", f"/{plan_id}/stops", params=params)
        stops.extend(page["stops"])
        token = page["nextPageToken"]
        if token is None:
            return stops


async def test_small_plan_is_optimized_at_once(api: Api) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 8)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is True
    assert operation["metadata"]["finishedAt"] is not None
    assert operation["result"] == {"numOptimizedStops": 8, "skippedStops": []}
    plan = await api.ok("GET", f"/{plan['id']}")
    assert (plan["writable"], plan["optimization"], plan["distributed"]) == (False, "optimized", False)
    assert len(plan["routes"]) == 2
    stops = await stops_of(api, plan["id"])
    routes = {stop["route"]["id"]: stop["route"] for stop in stops}
    assert set(routes) == set(plan["routes"])
    for route in routes.values():
        assert route["plan"] == plan["id"]
        assert route["driver"] in ("drivers/driver-ana", "drivers/driver-ben")
        assert route["title"] == "Test plan"  # the default route_title="plan"
        own = [s for s in stops if s["route"]["id"] == route["id"]]
        assert route["stopCount"] == sum(1 for s in own if s["type"] == "stop")
        # The contract: "the start stop is 0, stop stops start at 1, the end stop is last".
        by_type = sorted(own, key=lambda s: s["stopPosition"])
        assert [s["type"] for s in by_type] == ["start", *["stop"] * route["stopCount"], "end"]
        assert [s["stopPosition"] for s in by_type] == list(range(route["stopCount"] + 2))
        depot = api.emu.config.team.main_depot
        for terminal in (by_type[0], by_type[-1]):
            assert (terminal["address"]["latitude"], terminal["address"]["longitude"]) == (
                depot.latitude,
                depot.longitude,
            )
        assert route["state"]["distributed"] is False
    for route_id in routes:
        positions = sorted(
            s["stopPosition"] for s in stops if s["route"]["id"] == route_id and s["type"] == "stop"
        )
        assert positions == list(range(1, len(positions) + 1))
    for stop in stops:
        if stop["type"] != "stop":
            continue
        assert stop["estimatedTravelDuration"] > 0
        assert stop["estimatedTravelDistance"] > 0
        assert stop["etaNullReason"] is None
        eta = stop["eta"]
        assert eta["estimatedEarliestArrivalAt"] < eta["estimatedArrivalAt"] < eta["estimatedLatestArrivalAt"]


async def test_travel_and_eta_of_the_first_stop_follow_haversine_at_the_configured_speed(
    api: Api, emu: Emulator
) -> None:
    plan = await api.plan(drivers=["drivers/driver-cleo"], starts={"day": 2, "month": 6, "year": 2025})
    stop = await api.ok(
        "POST", f"/{plan['id']}/stops", {"address": {"latitude": 51.55, "longitude": -0.1278}}
    )
    await api.ok("POST", f"/{plan['id']}:optimize")
    stop = await api.ok("GET", f"/{stop['id']}")
    depot = emu.config.team.main_depot
    meters = haversine(depot.latitude, depot.longitude, 51.55, -0.1278)
    seconds = meters / (emu.config.driving_speed_kmh / 3.6)
    assert stop["estimatedTravelDistance"] == pytest.approx(meters, abs=1.0)
    assert stop["estimatedTravelDuration"] == pytest.approx(seconds, abs=1.0)
    # Cleo starts at 07:30 (UTC team); the plan is on 2025-06-02.
    start = datetime.datetime(2025, 6, 2, 7, 30, tzinfo=datetime.UTC).timestamp()
    assert stop["eta"]["estimatedArrivalAt"] == pytest.approx(start + seconds, abs=1.0)
    assert stop["stopPosition"] == 1


async def test_larger_plan_finishes_after_the_delay() -> None:
    clock = FakeClock()
    config = EmulatorConfig(
        speedup=1000,
        clock=clock,
        rate_limits=RateLimits.unlimited(),
        instant_optimization_max_stops=2,
        optimization_delay=30.0,
    )
    async with Emulator(config) as emu, open_api(emu) as api:
        await _check_delayed_optimization(api, clock)


async def _check_delayed_optimization(api: Api, clock: FakeClock) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 3)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is False
    assert operation["result"] is None
    assert operation["metadata"]["finishedAt"] is None
    running = await api.ok("GET", f"/{plan['id']}")
    assert (running["optimization"], running["writable"]) == ("optimizing", False)
    # A stop create lists plan_not_writable alone (official schema).
    answer = await api.call("POST", f"/{plan['id']}/stops", {"address": {"city": "X"}})
    assert (answer.status, answer.body["code"]) == (409, "plan_not_writable")
    answer = await api.call("POST", f"/{plan['id']}:optimize")
    assert (answer.status, answer.body["code"]) == (409, "plan_optimization_in_progress")
    answer = await api.call("POST", f"/{plan['id']}:distribute")
    assert (answer.status, answer.body["code"]) == (409, "plan_optimization_in_progress")
    # 30 s of contract time at speed-up 1000 is 30 ms of server time.
    clock.now += 0.029
    assert (await api.ok("GET", f"/{operation['id']}"))["done"] is False
    clock.now += 0.002
    done = await api.ok("GET", f"/{operation['id']}")
    assert done["done"] is True
    assert done["result"]["numOptimizedStops"] == 3
    assert (await api.ok("GET", f"/{plan['id']}"))["optimization"] == "optimized"


@pytest.mark.route_planning_emulator(instant_optimization_max_stops=0, optimization_delay=5.0)
async def test_delayed_optimization_finishes_on_its_own(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 2)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is False
    record = emu.state.operations[operation["id"].split("/")[1]]
    for _ in range(200):
        if record.done:
            break
        await asyncio.sleep(0.005)
    # The timer finished it without any request arriving (5 s / 1000 = 5 ms).
    assert record.done
    assert emu.state.plan(plan["id"].split("/")[1]).optimization == "optimized"


async def test_plan_without_drivers_fails_in_the_result(api: Api) -> None:
    plan = await api.plan(drivers=[])
    await api.import_stops(plan["id"], 2)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is True
    assert operation["result"]["code"] == "no_drivers_available"
    assert operation["result"]["message"].startswith("Plan has no drivers")
    plan = await api.ok("GET", f"/{plan['id']}")
    assert (plan["writable"], plan["optimization"], plan["routes"]) == (True, "creating", [])


async def test_impossible_time_window_is_skipped(api: Api) -> None:
    plan = await api.plan(drivers=["drivers/driver-ana"])
    early = {"address": {"city": "Early"}, "timing": {"latestAttemptTime": {"hour": 6, "minute": 0}}}
    fine = {"address": {"city": "Fine"}, "timing": {"earliestAttemptTime": {"hour": 13, "minute": 0}}}
    result = await api.ok("POST", f"/{plan['id']}/stops:import", [early, fine])
    early_id, fine_id = result["success"]
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["result"] == {
        "numOptimizedStops": 1,
        "skippedStops": [{"id": early_id, "reason": "impossible_time_window"}],
    }
    skipped = await api.ok("GET", f"/{early_id}")
    assert (skipped["route"], skipped["stopPosition"], skipped["eta"]) == (None, None, None)
    waited = await api.ok("GET", f"/{fine_id}")
    # A stop reached before its earliest time waits for it.
    thirteen = datetime.datetime(2025, 6, 2, 13, 0, tzinfo=datetime.UTC).timestamp()
    assert waited["eta"]["estimatedArrivalAt"] == thirteen


async def test_optimizing_an_optimized_plan_is_409(api: Api) -> None:
    plan = await api.optimized_plan()
    answer = await api.call("POST", f"/{plan['id']}:optimize")
    assert (answer.status, answer.body["code"]) == (409, "plan_already_optimized")


async def test_distribute_needs_an_optimized_plan_and_happens_once(api: Api) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 3)
    answer = await api.call("POST", f"/{plan['id']}:distribute")
    assert (answer.status, answer.body["code"]) == (409, "plan_not_optimized")
    await api.ok("POST", f"/{plan['id']}:optimize")
    distributed = await api.ok("POST", f"/{plan['id']}:distribute")
    assert distributed["distributed"] is True
    stop = (await stops_of(api, plan["id"]))[0]
    assert stop["route"]["state"]["distributed"] is True
    assert isinstance(stop["route"]["state"]["distributedAt"], float)
    route = await api.ok("GET", f"/{stop['route']['id']}")
    assert route["state"]["distributed"] is True
    answer = await api.call("POST", f"/{plan['id']}:distribute")
    assert (answer.status, answer.body["code"]) == (409, "plan_already_distributed")


async def test_live_changes_stay_pending_until_reoptimize_and_redistribute(api: Api) -> None:
    plan = await api.optimized_plan(stops=4)
    await api.ok("POST", f"/{plan['id']}:distribute")
    before = await stops_of(api, plan["id"])
    kept, updated, deleted = before[0], before[1], before[2]

    created = await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": {"city": "New"}})
    changed = await api.ok("POST", f"/{updated['id']}:liveUpdate", {"notes": "changed"})
    gone = await api.ok("POST", f"/{deleted['id']}:liveDelete")
    assert (created["pending"], changed["pending"], gone["pending"]) == (True, True, True)
    assert changed["stop"]["notes"] == "changed"

    # Nothing is applied yet.
    assert (await api.ok("GET", f"/{plan['id']}"))["optimization"] == "editing"
    assert [s["id"] for s in await stops_of(api, plan["id"])] == [s["id"] for s in before]
    assert (await api.ok("GET", f"/{updated['id']}"))["notes"] is None
    assert (await api.call("GET", f"/{created['stop']['id']}")).status == 404

    # Redistributing or saving needs a re-optimization first.
    for action in (":redistribute", ":save"):
        answer = await api.call("POST", f"/{plan['id']}{action}")
        assert (answer.status, answer.body["code"]) == (409, "plan_not_optimized")

    operation = await api.ok("POST", f"/{plan['id']}:reoptimize", {})
    assert operation["done"] is True
    assert operation["result"]["numOptimizedStops"] == 4
    assert (await api.ok("GET", f"/{plan['id']}"))["optimization"] == "preview"
    assert (await api.ok("GET", f"/{updated['id']}"))["notes"] is None

    plan_after = await api.ok("POST", f"/{plan['id']}:redistribute")
    assert (plan_after["optimization"], plan_after["distributed"]) == ("optimized", True)
    after = {s["id"]: s for s in await stops_of(api, plan["id"]) if s["type"] == "stop"}
    before_ids = {s["id"] for s in before if s["type"] == "stop"}
    assert set(after) == before_ids - {deleted["id"]} | {created["stop"]["id"]}
    assert after[kept["id"]]["notes"] is None
    assert after[updated["id"]]["notes"] == "changed"
    assert after[created["stop"]["id"]]["route"] is not None
    assert sum(r["stopCount"] for r in {s["route"]["id"]: s["route"] for s in after.values()}.values()) == 4
    assert all(s["route"]["state"]["distributed"] for s in after.values())


async def test_a_deletion_alone_still_needs_reoptimization_then_save(api: Api) -> None:
    plan = await api.optimized_plan(stops=3)
    stop = (await stops_of(api, plan["id"]))[0]
    await api.ok("POST", f"/{stop['id']}:liveDelete")
    answer = await api.call("POST", f"/{plan['id']}:save")
    assert (answer.status, answer.body["code"]) == (409, "plan_not_optimized")
    await api.ok("POST", f"/{plan['id']}:reoptimize")
    answer = await api.call("POST", f"/{plan['id']}:save")
    assert answer.status == 204
    assert (await api.call("GET", f"/{stop['id']}")).status == 404
    saved = await api.ok("GET", f"/{plan['id']}")
    assert (saved["optimization"], saved["distributed"]) == ("optimized", False)


async def test_a_live_change_after_reoptimizing_needs_another_reoptimization(api: Api) -> None:
    plan = await api.optimized_plan(stops=3)
    stop = (await stops_of(api, plan["id"]))[0]
    await api.ok("POST", f"/{stop['id']}:liveUpdate", {"notes": "a"})
    await api.ok("POST", f"/{plan['id']}:reoptimize")
    await api.ok("POST", f"/{stop['id']}:liveUpdate", {"notes": "b"})
    answer = await api.call("POST", f"/{plan['id']}:save")
    assert (answer.status, answer.body["code"]) == (409, "plan_not_optimized")
    await api.ok("POST", f"/{plan['id']}:reoptimize")
    await api.ok("POST", f"/{plan['id']}:save")
    assert (await api.ok("GET", f"/{stop['id']}"))["notes"] == "b"


async def test_live_create_then_delete_cancels_out(api: Api) -> None:
    plan = await api.optimized_plan(stops=2)
    created = await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": {"city": "Tmp"}})
    await api.ok("POST", f"/{created['stop']['id']}:liveUpdate", {"notes": "x"})
    await api.ok("POST", f"/{created['stop']['id']}:liveDelete")
    answer = await api.call("POST", f"/{plan['id']}:reoptimize")
    assert (answer.status, answer.body["code"]) == (409, "plan_already_optimized")


async def test_reoptimize_rules(api: Api) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 2)
    # A writable plan is optimized (the files list no plan_not_optimized for :reoptimize).
    operation = await api.ok("POST", f"/{plan['id']}:reoptimize")
    assert operation["done"] is True
    assert (await api.ok("GET", f"/{plan['id']}"))["optimization"] == "optimized"
    answer = await api.call("POST", f"/{plan['id']}:reoptimize")
    assert (answer.status, answer.body["code"]) == (409, "plan_already_optimized")
    await api.ok("POST", f"/{plan['id']}:distribute")
    stop = (await stops_of(api, plan["id"]))[0]
    await api.ok("POST", f"/{stop['id']}:liveUpdate", {"notes": "x"})
    answer = await api.call("POST", f"/{plan['id']}:reoptimize", {"optimizationType": "reorder_all_stops"})
    assert (answer.status, answer.body["code"]) == (409, "plan_optimization_not_supported")
    operation = await api.ok(
        "POST", f"/{plan['id']}:reoptimize", {"optimizationType": "reorder_changed_stops"}
    )
    assert operation["done"] is True


async def test_live_calls_on_a_writable_plan_apply_at_once(api: Api) -> None:
    plan = await api.plan()
    created = await api.ok("POST", f"/{plan['id']}/stops:liveCreate", {"address": {"city": "Now"}})
    assert created["pending"] is False
    assert (await api.ok("GET", f"/{created['stop']['id']}"))["address"]["address"] == "Now"
    updated = await api.ok("POST", f"/{created['stop']['id']}:liveUpdate", {"notes": "n"})
    assert updated["pending"] is False
    assert (await api.ok("GET", f"/{created['stop']['id']}"))["notes"] == "n"
    assert (await api.ok("POST", f"/{created['stop']['id']}:liveDelete")) == {"pending": False}
    assert (await api.call("GET", f"/{created['stop']['id']}")).status == 404


@pytest.mark.route_planning_emulator(instant_optimization_max_stops=0, optimization_delay=600.0)
async def test_live_calls_while_optimizing_are_409_and_delete_still_works(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 2)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["done"] is False
    answer = await api.call("POST", f"/{plan['id']}/stops:liveCreate", {"address": {"city": "X"}})
    assert (answer.status, answer.body["code"]) == (409, "plan_optimization_in_progress")
    # Plan PATCH lists plan_not_writable alone (official schema).
    answer = await api.call("PATCH", f"/{plan['id']}", {"title": "x"})
    assert (answer.status, answer.body["code"]) == (409, "plan_not_writable")
    assert (await api.call("DELETE", f"/{plan['id']}")).status == 204
    assert (await api.call("GET", f"/{operation['id']}")).status == 200


@pytest.mark.route_planning_emulator(instant_optimization_max_stops=100)
async def test_max_stops_are_honoured(api: Api) -> None:
    # Dan takes at most 40 stops; with him alone the rest are skipped.
    plan = await api.plan(drivers=["drivers/driver-dan"])
    await api.import_stops(plan["id"], 45)
    operation = await api.ok("POST", f"/{plan['id']}:optimize")
    assert operation["result"]["numOptimizedStops"] == 40
    assert {s["reason"] for s in operation["result"]["skippedStops"]} == {"impossible_number_of_stops"}
    assert len(operation["result"]["skippedStops"]) == 5


async def test_first_and_last_are_honoured(api: Api) -> None:
    plan = await api.plan(drivers=["drivers/driver-ana"])
    body = [
        {"address": {"city": "Last"}, "optimizationOrder": "last"},
        {"address": {"city": "Middle 1"}},
        {"address": {"city": "First"}, "optimizationOrder": "first"},
        {"address": {"city": "Middle 2"}},
    ]
    ids = (await api.ok("POST", f"/{plan['id']}/stops:import", body))["success"]
    await api.ok("POST", f"/{plan['id']}:optimize")
    positions = {stop_id: (await api.ok("GET", f"/{stop_id}"))["stopPosition"] for stop_id in ids}
    assert positions[ids[2]] == 1
    assert positions[ids[0]] == 4


async def test_optimization_is_deterministic(api: Api) -> None:
    results = []
    for _ in range(2):
        plan = await api.plan()
        await api.import_stops(plan["id"], 12)
        await api.ok("POST", f"/{plan['id']}:optimize")
        stops = await stops_of(api, plan["id"])
        results.append([(s["address"]["address"], s["route"]["driver"], s["stopPosition"]) for s in stops])
    assert results[0] == results[1]
