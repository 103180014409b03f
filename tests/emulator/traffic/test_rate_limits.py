"""Server-side rate limits: exact sliding windows per API key and category (contract, Limits)."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from emulator.conftest import Answer, Api, FakeClock, basic
from route_planning_async import RateLimits, Rule
from route_planning_async.emulator import Emulator, PunishSustained

pytestmark = pytest.mark.asyncio

DEFAULT = RateLimits.default()


def clock_of(emu: Emulator) -> FakeClock:
    return cast(FakeClock, emu.config.clock)


async def burst(api: Api, count: int, method: str, path: str, body: Any = None) -> list[Answer]:
    answers = []
    for _ in range(count):
        answers.append(await (api.call(method, path) if body is None else api.call(method, path, body)))
    return answers


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_reads_10_per_second(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    answers = await burst(api, 11, "GET", "/depots")
    assert [a.status for a in answers] == [200] * 10 + [429]
    rejected = answers[-1]
    assert rejected.body["code"] == "rate_limit_exceeded"
    # At speed 1 the header is whole seconds.
    assert rejected.headers["Retry-After"] == "1"
    assert emu.log.records[-1].outcome == "rate_limited"
    assert emu.log.records[-1].reason == "window"
    # Other categories have their own windows.
    assert (
        await api.call("POST", "/plans", {"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}})
    ).status == 200
    clock.advance(0.5)
    assert (await api.call("GET", "/depots")).status == 429
    clock.advance(0.5)
    # The ten left the window; the rejected request counted too (count_rejected) and is still in it.
    assert [a.status for a in await burst(api, 10, "GET", "/depots")] == [200] * 9 + [429]
    assert emu.max_in_window("read") == 10


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_the_operation_list_is_a_read(api: Api, emu: Emulator) -> None:
    answers = await burst(api, 5, "GET", "/operations") + await burst(api, 5, "GET", "/depots")
    assert [a.status for a in answers] == [200] * 10
    rejected = await api.call("GET", "/operations", params={"filter[done]": "false"})
    assert (rejected.status, rejected.body["code"]) == (429, "rate_limit_exceeded")
    assert [r.category for r in emu.log.select(route="operations.list")] == ["read"] * 6
    clock_of(emu).advance(1.0)
    assert (await api.call("GET", "/operations")).status == 200


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_writes_5_per_second_with_a_sliding_window(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    body = {"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}}
    for _ in range(3):
        assert (await api.call("POST", "/plans", body)).status == 200
    clock.advance(0.5)
    for _ in range(2):
        assert (await api.call("POST", "/plans", body)).status == 200
    clock.advance(0.25)
    assert (await api.call("POST", "/plans", body)).status == 429
    clock.advance(0.125)
    assert (await api.call("POST", "/plans", body)).status == 429
    # A sliding window, not a fixed second: the first three leave it at t=1.0 exactly.
    clock.advance(0.125)
    assert (await api.call("POST", "/plans", body)).status == 200
    assert (await api.call("POST", "/plans", body)).status == 429
    assert emu.max_in_window("write") == 5


@pytest.mark.route_planning_emulator(
    speedup=1.0, rate_limits=DEFAULT, clock=FakeClock(), count_rejected=False
)
async def test_not_counting_rejected_requests(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    assert [a.status for a in await burst(api, 12, "GET", "/depots")] == [200] * 10 + [429] * 2
    clock.advance(1.0)
    assert [a.status for a in await burst(api, 10, "GET", "/depots")] == [200] * 10


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_continued_retrying_keeps_being_rejected(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    await burst(api, 10, "GET", "/depots")
    # Retrying 16 times a second (over the limit of 10) never gets through.
    for _ in range(32):
        clock.advance(0.0625)
        assert (await api.call("GET", "/depots")).status == 429
    # Slowing down lets the window drain.
    clock.advance(1.0)
    assert (await api.call("GET", "/depots")).status == 200


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_retry_after_says_when_the_window_frees(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    plan = await api.plan()
    await api.import_stops(plan["id"], 1)
    for _ in range(2):
        await api.call("POST", f"/{plan['id']}:optimize")
    clock.advance(20.0)
    # The third optimize call of the minute is admitted (and fails on the plan's state).
    assert (await api.call("POST", f"/{plan['id']}:optimize")).status == 409
    clock.advance(10.0)
    answer = await api.call("POST", f"/{plan['id']}:reoptimize")
    assert answer.status == 429
    # The first call leaves the window at t=60, 30 s from now.
    assert answer.headers["Retry-After"] == "30"


@pytest.mark.route_planning_emulator(
    speedup=1.0, rate_limits=DEFAULT, clock=FakeClock(), extra_api_keys=("second-key",)
)
async def test_windows_are_per_api_key(api: Api, emu: Emulator) -> None:
    assert [a.status for a in await burst(api, 11, "GET", "/depots")] == [200] * 10 + [429]
    other = await api.call("GET", "/depots", auth=basic("second-key"))
    assert other.status == 200


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_batch_import_10_requests_and_1000_stops_per_minute(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    stops = [{"address": {"city": f"C{i}"}} for i in range(100)]
    for _ in range(10):
        assert (await api.call("POST", f"/{plan['id']}/stops:import", stops)).status == 200
    assert (await api.call("POST", "/unassignedStops:import", {"unassignedStops": stops[:1]})).status == 429
    assert emu.max_in_window("batch_import") == 10
    assert emu.max_in_window("batch_import", per="weight") == 1000
    assert [r.weight for r in emu.log.select("batch_import")] == [100] * 10 + [1]


WEIGHTED = DEFAULT.replace("batch_import", Rule(100, 60.0), Rule(250, 60.0, per="weight"))


@pytest.mark.route_planning_emulator(
    speedup=1.0, rate_limits=WEIGHTED, clock=FakeClock(), count_rejected=False
)
async def test_the_weight_rule_counts_stops(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    plan = await api.plan()
    stops = [{"address": {"city": f"C{i}"}} for i in range(100)]
    for _ in range(2):
        assert (await api.call("POST", f"/{plan['id']}/stops:import", stops)).status == 200
    answer = await api.call("POST", f"/{plan['id']}/stops:import", stops)
    assert answer.status == 429
    assert answer.headers["Retry-After"] == "60"
    assert (await api.call("POST", f"/{plan['id']}/stops:import", stops[:50])).status == 200
    assert emu.max_in_window("batch_import", per="weight") == 250
    clock.advance(60.0)
    assert (await api.call("POST", f"/{plan['id']}/stops:import", stops)).status == 200


@pytest.mark.route_planning_emulator(speedup=100.0, rate_limits=DEFAULT)
async def test_speedup_divides_periods_and_retry_after(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    await api.import_stops(plan["id"], 1)
    # The first optimizes the writable plan, the next two find it optimized.
    answers = [await api.call("POST", f"/{plan['id']}:reoptimize") for _ in range(4)]
    assert [a.status for a in answers] == [200, 409, 409, 429]
    # 3 per minute at speed-up 100 is 3 per 0.6 s; the header is in (fractional) seconds,
    # and waiting exactly that long is enough.
    wait = float(answers[3].headers["Retry-After"])
    assert 0 < wait <= 0.6
    await asyncio.sleep(wait + 0.005)
    assert (await api.call("POST", f"/{plan['id']}:reoptimize")).status == 409


@pytest.mark.route_planning_emulator(speedup=10.0, rate_limits=DEFAULT)
async def test_a_too_fast_client_gets_429_and_the_log_shows_it(api: Api, emu: Emulator) -> None:
    body = {"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}}
    answers = await asyncio.gather(*(api.call("POST", "/plans", body) for _ in range(40)))
    statuses = [a.status for a in answers]
    assert statuses.count(429) >= 1
    assert set(statuses) <= {200, 429}
    rejected = emu.log.rejected("write")
    assert len(rejected) == statuses.count(429)
    assert all(r.status == 429 and not r.admitted for r in rejected)
    # Whatever got through never broke the window.
    assert emu.max_in_window("write") <= 5
    assert len(emu.state.plans) == statuses.count(200)


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_a_paced_client_is_never_rejected_and_uses_the_whole_limit(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    # Ten at once, once a second, for five seconds: exactly what a window of 10/s allows.
    for _ in range(5):
        assert [a.status for a in await burst(api, 10, "GET", "/depots")] == [200] * 10
        clock.advance(1.0)
    assert emu.log.rejected() == []
    assert emu.max_in_window("read") == 10
    assert emu.utilization("read") == pytest.approx(1.0)
    # Half the pace is half the utilization.
    emu.log.clear()
    for _ in range(5):
        await burst(api, 5, "GET", "/depots")
        clock.advance(1.0)
    assert emu.utilization("read") == pytest.approx(0.5)


@pytest.mark.route_planning_emulator(
    speedup=1.0,
    rate_limits=DEFAULT,
    clock=FakeClock(),
    punish_sustained=PunishSustained(threshold=0.8, after=3.0),
)
async def test_sustained_traffic_near_the_limit_is_punished(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    statuses = []
    # 9 reads per second (90 % of the limit) for five seconds.
    for _ in range(45):
        statuses.append((await api.call("GET", "/depots")).status)
        clock.advance(1 / 9)
    assert statuses[:27] == [200] * 27
    assert 429 in statuses[27:]
    assert {r.reason for r in emu.log.rejected("read")} == {"sustained"}
    # Backing off clears it.
    clock.advance(2.0)
    assert (await api.call("GET", "/depots")).status == 200


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_unauthorized_and_unknown_paths_take_no_slot(api: Api, emu: Emulator) -> None:
    for _ in range(20):
        await api.call("GET", "/depots", auth="Bearer wrong")
        await api.call("GET", "/nowhere")
    assert [a.status for a in await burst(api, 10, "GET", "/depots")] == [200] * 10


@pytest.mark.route_planning_emulator(speedup=1.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_reset_limits(api: Api, emu: Emulator) -> None:
    await burst(api, 11, "GET", "/depots")
    emu.reset_limits()
    assert (await api.call("GET", "/depots")).status == 200
