"""Scripted, seeded fault injection over real sockets."""

from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest

from emulator.conftest import Api
from route_planning_async import Category
from route_planning_async.emulator import Emulator, Fault, FaultKind

pytestmark = pytest.mark.asyncio

STOPS = [{"address": {"city": f"C{i}"}} for i in range(3)]


async def test_error_after_commit_stores_the_import_then_answers_500(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    emu.faults.add(Fault("error_after_commit", route="stops.import_batch", nth=2))
    first = await api.call("POST", f"/{plan['id']}/stops:import", STOPS)
    second = await api.call("POST", f"/{plan['id']}/stops:import", STOPS)
    third = await api.call("POST", f"/{plan['id']}/stops:import", STOPS)
    assert [first.status, second.status, third.status] == [200, 500, 200]
    assert second.body["code"] == "internal_error"
    # The ambiguous failure: the second batch was stored although the answer was 500.
    assert emu.state.stop_count(plan["id"].split("/")[1]) == 9
    [event] = emu.faults.events
    assert (event.route, event.fault.kind) == ("stops.import_batch", FaultKind.ERROR_AFTER_COMMIT)
    assert emu.log.records[event.request_seq - 1].fault == "error_after_commit"


async def test_error_before_commit_stores_nothing(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    emu.faults.add(Fault("error", route="stops.import_batch", status=503))
    answer = await api.call("POST", f"/{plan['id']}/stops:import", STOPS)
    assert answer.status == 503
    assert emu.state.stop_count(plan["id"].split("/")[1]) == 0


async def test_drop_closes_the_connection_without_an_answer(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    emu.faults.add(Fault("drop", route="plans.create", nth=1))
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await api.call("POST", "/plans", {"title": "Never", "starts": {"day": 1, "month": 6, "year": 2025}})
    assert [p.title for p in emu.state.plans.values()] == [plan["title"]]
    dropped = emu.log.select(route="plans.create")[-1]
    assert (dropped.status, dropped.fault) == (None, "drop")


async def test_aiohttp_resends_a_dropped_get_once(api: Api, emu: Emulator) -> None:
    # aiohttp retries an idempotent request once when the server disconnects, so a
    # single dropped GET is invisible to the caller but the server sees it twice.
    plan = await api.plan()
    emu.faults.add(Fault("drop", route="plans.get", nth=1))
    assert (await api.call("GET", f"/{plan['id']}")).status == 200
    assert [r.status for r in emu.log.select(route="plans.get")] == [None, 200]
    emu.faults.add(Fault("drop", route="plans.get", times=2))
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await api.call("GET", f"/{plan['id']}")


async def test_drop_after_commit_keeps_the_change(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("drop_after_commit", route="plans.create"))
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await api.call("POST", "/plans", {"title": "Ghost", "starts": {"day": 1, "month": 6, "year": 2025}})
    [plan] = emu.state.plans.values()
    assert plan.title == "Ghost"


async def test_malformed_json_answers_are_cut_short(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("malformed_json", route="depots.list"))
    answer = await api.call("GET", "/depots")
    assert answer.status == 200
    assert answer.headers["Content-Type"].startswith("application/json")
    with pytest.raises(ValueError, match=r"Expecting|Unterminated"):
        json.loads(answer.raw)


async def test_malformed_json_on_an_empty_answer(api: Api, emu: Emulator) -> None:
    plan = await api.plan()
    emu.faults.add(Fault("malformed_json", route="plans.delete"))
    answer = await api.call("DELETE", f"/{plan['id']}")
    assert answer.status == 200
    with pytest.raises(ValueError, match="Unterminated"):
        json.loads(answer.raw)
    assert len(emu.state.plans) == 0


async def test_injected_rate_limit_has_retry_after(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("rate_limit", category="read", nth=2, retry_after=2.0))
    statuses = [(await api.call("GET", "/depots")).status for _ in range(3)]
    assert statuses == [200, 429, 200]
    answer_headers = emu.log.records[1]
    assert answer_headers.fault == "rate_limit"


async def test_injected_rate_limit_retry_after_is_scaled(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("rate_limit", route="depots.list", retry_after=2.0))
    answer = await api.call("GET", "/depots")
    # 2 s of contract time at speed-up 1000.
    assert (answer.status, answer.headers["Retry-After"]) == (429, "0.002")


async def test_delay_slows_the_answer(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("delay", route="depots.list", delay=0.3, times=1))
    started = time.perf_counter()
    assert (await api.call("GET", "/depots")).status == 200
    assert time.perf_counter() - started >= 0.3
    started = time.perf_counter()
    await api.call("GET", "/depots")
    assert time.perf_counter() - started < 0.3


async def test_a_delayed_answer_can_time_a_client_out(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("delay", route="depots.list", delay=0.5, times=1))
    with pytest.raises(asyncio.TimeoutError):
        await api.session.get(
            emu.base_url + "/depots",
            headers={"Authorization": f"Bearer {emu.api_key}"},
            ssl=emu.ssl_context,
            timeout=aiohttp.ClientTimeout(total=0.1),
        )


async def _statuses(api: Api, emu: Emulator, seed: int) -> list[int]:
    emu.faults.clear()
    emu.faults.seed(seed)
    emu.faults.add(Fault("error", category=Category.READ, probability=0.3, status=502))
    return [(await api.call("GET", "/depots")).status for _ in range(40)]


async def test_probabilities_are_seeded(api: Api, emu: Emulator) -> None:
    first = await _statuses(api, emu, 7)
    again = await _statuses(api, emu, 7)
    other = await _statuses(api, emu, 8)
    assert first == again
    assert first != other
    assert set(first) == {200, 502}
    assert 4 <= first.count(502) <= 20


async def test_matching_by_method_and_times(api: Api, emu: Emulator) -> None:
    emu.faults.add(Fault("error", method="post", times=2))
    body = {"title": "T", "starts": {"day": 1, "month": 6, "year": 2025}}
    statuses = [(await api.call("POST", "/plans", body)).status for _ in range(3)]
    assert statuses == [500, 500, 200]
    assert (await api.call("GET", "/depots")).status == 200
    assert emu.faults.armed == []


async def test_first_matching_fault_wins_and_every_fault_counts(api: Api, emu: Emulator) -> None:
    errors = emu.faults.add(Fault("error", route="depots.list", nth=1))
    drops = emu.faults.add(Fault("rate_limit", route="depots.list", nth=2))
    statuses = [(await api.call("GET", "/depots")).status for _ in range(3)]
    assert statuses == [500, 429, 200]
    assert (errors.matched, errors.fired, drops.matched, drops.fired) == (1, 1, 2, 1)


async def test_remove_disarms(api: Api, emu: Emulator) -> None:
    fault = emu.faults.add(Fault("error", route="depots.list"))
    assert (await api.call("GET", "/depots")).status == 500
    emu.faults.remove(fault)
    assert (await api.call("GET", "/depots")).status == 200
