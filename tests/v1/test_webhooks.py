"""Webhooks of v1: an event is decoded with the models of the version it names,
v1's models are imported only when a v1 event arrives, and v1's events, signed
with ``spoke-signature`` only, pass the handler."""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer

import route_planning_async as rp
from route_planning_async import v1
from route_planning_async.emulator import Emulator
from route_planning_async.webhooks import (
    LEGACY_SIGNATURE_HEADER,
    SIGNATURE_HEADER,
    WebhookEvent,
    WebhookEventType,
    parse_event,
    sign,
    webhook_handler,
)

SECRET = "0123456789abcdef0123456789abcdef"
V1_STOP = {
    "id": "plans/p1/stops/s1",
    "plan": "plans/p1",
    "address": {"address": "1 Main St", "addressLineOne": "1 Main St", "addressLineTwo": ""},
    "allowedDrivers": ["drivers/d1"],
    "clientId": "client-7",
    "eta": {"status": "pending"},
    "serviceInfo": {"status": "empty"},
}
V1_UNASSIGNED = {"id": "unassignedStops/u1", "depot": "depots/main", "trackingLink": "https://t/u1"}


def envelope(kind: str, data: Any, version: object = "v1", created: int = 1_700_000_000_123) -> bytes:
    return json.dumps({"type": kind, "version": version, "created": created, "data": data}).encode()


def test_a_v1_stop_event_is_a_v1_stop() -> None:
    event = parse_event(envelope("stop.allocated", V1_STOP))
    assert event.type is WebhookEventType.STOP_ALLOCATED
    assert event.version == "v1"
    assert type(event.data) is v1.Stop
    assert event.data.id == "plans/p1/stops/s1"
    assert event.data.address.address == "1 Main St"
    assert event.dedupe_key == ("stop.allocated", "plans/p1/stops/s1", event.created)


def test_a_v1_unassigned_stop_event_is_a_v1_unassigned_stop() -> None:
    event = parse_event(envelope("unassigned_stop.tracking_link_added", V1_UNASSIGNED))
    assert isinstance(event.data, v1.UnassignedStop)
    assert event.data.id == "unassignedStops/u1"


def test_an_unknown_v1_type_is_decoded_by_the_shape_of_its_id() -> None:
    assert isinstance(parse_event(envelope("stop.teleported", V1_STOP)).data, v1.Stop)
    assert isinstance(parse_event(envelope("unassigned_stop.moved", V1_UNASSIGNED)).data, v1.UnassignedStop)
    other = parse_event(envelope("route.started", {"id": "routes/r1"}))
    assert other.data == {"id": "routes/r1"}


def test_the_version_picks_the_models() -> None:
    older = parse_event(envelope("stop.allocated", {"id": "plans/p1/stops/s1"}, version="v0.2b"))
    assert type(older.data) is rp.Stop
    # The version without its "v" names the same version.
    assert isinstance(parse_event(envelope("stop.allocated", V1_STOP, version="1")).data, v1.Stop)
    assert isinstance(parse_event(envelope("stop.allocated", V1_STOP, version=1)).data, v1.Stop)


def test_an_event_of_an_unknown_version_keeps_its_data_as_json() -> None:
    event = parse_event(envelope("stop.allocated", V1_STOP, version="v9"))
    assert event.version == "v9"
    assert event.data == V1_STOP
    assert event.dedupe_key == ("stop.allocated", V1_STOP["id"], event.created)


def test_v1_models_are_imported_at_the_first_v1_event() -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from route_planning_async.webhooks import parse_event
        assert "route_planning_async.v1._models" not in sys.modules, "imported too early"
        parse_event({envelope("stop.allocated", {"id": "plans/p1/stops/s1"}, version="v0.2b")!r})
        assert "route_planning_async.v1._models" not in sys.modules, "imported for a v0.2b event"
        parse_event({envelope("stop.allocated", V1_STOP)!r})
        assert "route_planning_async.v1._models" in sys.modules
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest_asyncio.fixture
async def receiver() -> AsyncIterator[tuple[list[WebhookEvent], str]]:
    events: list[WebhookEvent] = []

    async def on_event(event: WebhookEvent) -> None:
        events.append(event)

    app = web.Application()
    app.router.add_post("/hook", webhook_handler(SECRET, on_event))
    async with TestServer(app) as server:
        yield events, str(server.make_url("/hook"))


@pytest.mark.asyncio
async def test_the_handler_takes_a_v1_event_signed_with_spoke_signature_only(receiver: Any) -> None:
    events, url = receiver
    body = envelope("stop.out_for_delivery", V1_STOP)
    async with ClientSession() as session:
        async with session.post(url, data=body, headers={SIGNATURE_HEADER: sign(body, SECRET)}) as answer:
            assert (answer.status, await answer.text()) == (200, "ok")
        async with session.post(url, data=body, headers={SIGNATURE_HEADER: sign(body, "f" * 32)}) as answer:
            assert answer.status == 401
    assert [(event.type, event.version) for event in events] == [("stop.out_for_delivery", "v1")]
    assert isinstance(events[0].data, v1.Stop)
    assert SIGNATURE_HEADER == "spoke-signature"


@pytest.mark.asyncio
async def test_the_emulator_sends_v1_events_that_the_handler_decodes_as_v1() -> None:
    events: list[WebhookEvent] = []
    headers: list[set[str]] = []

    async def on_event(event: WebhookEvent) -> None:
        events.append(event)

    @web.middleware
    async def record_headers(request: web.Request, handler: Any) -> web.StreamResponse:
        headers.append({name.lower() for name in request.headers})
        response: web.StreamResponse = await handler(request)
        return response

    app = web.Application(middlewares=[record_headers])
    app.router.add_post("/hook", webhook_handler(SECRET, on_event))
    async with TestServer(app) as receiver:
        url = str(receiver.make_url("/hook"))
        async with (
            Emulator(speedup=1000, webhook_url=url, webhook_secret=SECRET, webhook_version="v1") as emu,
            emu.client() as client,
        ):
            plan = await client.plans.create(
                title="Monday", starts=datetime.date(2026, 3, 2), drivers=["drivers/driver-ana"]
            )
            imported = await client.stops.import_batch(
                plan.id, [rp.StopInput(address=rp.AddressInput(address_line_one="1 Test St", city="London"))]
            )
            await client.plans.optimize_and_wait(plan.id)
            await client.plans.distribute(plan.id)
            await emu.webhooks.drain()
        assert emu.internal_errors == []
    assert [(str(event.type), event.version) for event in events] == [("stop.allocated", "v1")]
    assert isinstance(events[0].data, v1.Stop)
    assert events[0].data.id == imported.success[0]
    assert headers
    assert all(SIGNATURE_HEADER in names and LEGACY_SIGNATURE_HEADER not in names for names in headers)
