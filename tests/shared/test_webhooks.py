"""Webhooks: signatures, events, the aiohttp handler, and the emulator sending real events to it."""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import json
import logging
import pathlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestServer
from support.subprocess_pytest import run_pytest

from route_planning_async import AddressInput, DeliveryState, Stop, StopInput, UnassignedStop
from route_planning_async.emulator import Emulator
from route_planning_async.webhooks import (
    LEGACY_SIGNATURE_HEADER,
    SIGNATURE_HEADER,
    InvalidEventError,
    WebhookEvent,
    WebhookEventType,
    parse_event,
    sign,
    verify_signature,
    webhook_handler,
)

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
SECRET = "0123456789abcdef0123456789abcdef"
STOP = {"id": "plans/p1/stops/s1", "plan": "plans/p1", "address": {"address": "1 Main St"}}


def envelope(kind: str = "stop.allocated", data: Any = STOP, created: int = 1_700_000_000_123) -> bytes:
    return json.dumps({"type": kind, "version": "v0.2b", "created": created, "data": data}).encode()


def digest(body: bytes, secret: str = SECRET) -> bytes:
    return hmac.new(secret.encode(), body, hashlib.sha256).digest()


# Signatures -------------------------------------------------------------------


def test_a_hex_signature_verifies_in_either_case() -> None:
    body = envelope()
    assert sign(body, SECRET) == digest(body).hex()
    assert verify_signature(body, digest(body).hex(), SECRET)
    assert verify_signature(body, digest(body).hex().upper(), SECRET)


def test_a_base64_signature_verifies_standard_urlsafe_or_unpadded() -> None:
    body = envelope()
    assert verify_signature(body, base64.b64encode(digest(body)).decode(), SECRET)
    assert verify_signature(body, base64.urlsafe_b64encode(digest(body)).decode().rstrip("="), SECRET)


def test_a_tampered_body_fails() -> None:
    body = envelope()
    signature = sign(body, SECRET)
    assert not verify_signature(body.replace(b"s1", b"s2"), signature, SECRET)
    # The same JSON serialized again is not the body that was signed.
    assert not verify_signature(json.dumps(json.loads(body), indent=1).encode(), signature, SECRET)


def test_a_wrong_secret_fails() -> None:
    body = envelope()
    assert not verify_signature(body, sign(body, "f" * 32), SECRET)


def test_a_signature_as_ascii_bytes_verifies_and_a_missing_one_does_not() -> None:
    body = envelope()
    assert verify_signature(body, sign(body, SECRET).encode(), SECRET)
    assert verify_signature(body, bytearray(sign(body, SECRET).encode()), SECRET)
    assert not verify_signature(body, None, SECRET)
    assert not verify_signature(body, b"\xff" * 64, SECRET)


@pytest.mark.parametrize("signature", ["", "nothex", "ab" * 31, "==", sign(b"x", SECRET)[:-2]])
def test_a_malformed_signature_is_not_valid(signature: str) -> None:
    assert not verify_signature(envelope(), signature, SECRET)


def test_an_empty_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        verify_signature(b"{}", "00" * 32, "")


# Events -------------------------------------------------------------------------


def test_a_stop_event_parses_into_the_models() -> None:
    event = parse_event(envelope())
    assert event.type is WebhookEventType.STOP_ALLOCATED
    assert event.version == "v0.2b"
    assert event.created == datetime.datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=datetime.UTC)
    assert isinstance(event.data, Stop)
    assert event.data.id == "plans/p1/stops/s1"
    assert event.data.address.address == "1 Main St"


def test_an_unassigned_stop_event_parses_into_an_unassigned_stop() -> None:
    data = {"id": "unassignedStops/u1", "depot": "depots/main", "trackingLink": "https://t/u1"}
    event = parse_event(envelope("unassigned_stop.tracking_link_added", data))
    assert event.type == WebhookEventType.UNASSIGNED_STOP_TRACKING_LINK_ADDED
    assert isinstance(event.data, UnassignedStop)
    assert event.data.depot == "depots/main"


def test_an_unknown_event_type_still_parses() -> None:
    event = parse_event(envelope("stop.teleported"))
    assert event.type == "stop.teleported"
    assert not isinstance(event.type, WebhookEventType)
    assert isinstance(event.data, Stop)
    other = parse_event(envelope("route.started", {"id": "routes/r1", "title": "Ana"}))
    assert other.type == "route.started"
    assert other.data == {"id": "routes/r1", "title": "Ana"}
    assert parse_event(envelope("test.send_event", None)).data is None


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b"\xff\xfe",
        json.dumps({"version": "v0.2b", "created": 1, "data": STOP}).encode(),
        json.dumps({"type": "stop.allocated", "version": "v0.2b", "data": STOP}).encode(),
        json.dumps({"type": "stop.allocated", "version": "v0.2b", "created": "today"}).encode(),
        envelope(data=[1, 2]),
        envelope(data={"plan": "plans/p1"}),
    ],
)
def test_a_body_that_is_not_an_event_is_refused(body: bytes) -> None:
    with pytest.raises(InvalidEventError):
        parse_event(body)


# The handler ----------------------------------------------------------------------


Post = Callable[..., Awaitable[tuple[int, str]]]


@pytest_asyncio.fixture
async def receiver() -> AsyncIterator[tuple[list[WebhookEvent], Callable[..., Awaitable[Post]]]]:
    """``post = await serve(**handler options)``, then ``status, text = await post(body, headers)``."""
    events: list[WebhookEvent] = []
    servers: list[TestServer] = []
    async with ClientSession() as session:

        async def serve(**options: Any) -> Post:
            async def on_event(event: WebhookEvent) -> None:
                events.append(event)

            app = web.Application()
            app.router.add_post("/hook", webhook_handler(SECRET, on_event, **options))
            server = TestServer(app)
            await server.start_server()
            servers.append(server)

            async def post(body: bytes, headers: dict[str, str]) -> tuple[int, str]:
                async with session.post(server.make_url("/hook"), data=body, headers=headers) as response:
                    return response.status, await response.text()

            return post

        yield events, serve
    for server in servers:
        await server.close()


@pytest.mark.asyncio
async def test_the_handler_accepts_hex_base64_and_the_older_header_name(receiver: Any) -> None:
    events, serve = receiver
    post = await serve()
    body = envelope()
    assert await post(body, {SIGNATURE_HEADER: sign(body, SECRET)}) == (200, "ok")
    assert await post(body, {SIGNATURE_HEADER: base64.b64encode(digest(body)).decode()}) == (200, "ok")
    assert await post(body, {LEGACY_SIGNATURE_HEADER: sign(body, SECRET)}) == (200, "ok")
    assert [event.type for event in events] == ["stop.allocated"] * 3


@pytest.mark.asyncio
async def test_the_handler_refuses_a_missing_or_wrong_signature_without_calling_on_event(
    receiver: Any,
) -> None:
    events, serve = receiver
    post = await serve()
    body = envelope()
    assert (await post(body, {}))[0] == 401
    assert (await post(body, {SIGNATURE_HEADER: sign(body, "f" * 32)}))[0] == 401
    assert (await post(body + b" ", {SIGNATURE_HEADER: sign(body, SECRET)}))[0] == 401
    assert events == []


@pytest.mark.asyncio
async def test_the_handler_refuses_an_oversized_body_unread(receiver: Any) -> None:
    events, serve = receiver
    post = await serve(max_body_size=1000)
    big = envelope(data={**STOP, "notes": "x" * 2000})
    assert (await post(big, {SIGNATURE_HEADER: sign(big, SECRET)}))[0] == 413
    small = envelope()
    assert (await post(small, {SIGNATURE_HEADER: sign(small, SECRET)}))[0] == 200
    assert len(events) == 1


@pytest.mark.asyncio
async def test_the_handler_answers_400_to_a_signed_body_that_is_not_an_event(receiver: Any) -> None:
    events, serve = receiver
    post = await serve()
    body = b'{"hello": "world"}'
    status, text = await post(body, {SIGNATURE_HEADER: sign(body, SECRET)})
    assert status == 400
    assert "type" in text
    assert events == []


@pytest.mark.asyncio
async def test_the_handler_passes_unknown_event_types_on(receiver: Any) -> None:
    events, serve = receiver
    post = await serve()
    body = envelope("stop.teleported")
    assert (await post(body, {SIGNATURE_HEADER: sign(body, SECRET)}))[0] == 200
    assert events[0].type == "stop.teleported"


@pytest.mark.asyncio
async def test_the_dedupe_window_drops_repeated_deliveries_and_is_bounded(receiver: Any) -> None:
    events, serve = receiver
    post = await serve(dedupe_window=2)
    first, second, third = (envelope(created=t) for t in (1000, 2000, 3000))
    for body in (first, first, second, first, third, first):
        assert (await post(body, {SIGNATURE_HEADER: sign(body, SECRET)}))[0] == 200
    # first is remembered until two newer events pushed it out of the window.
    assert [event.created.timestamp() for event in events] == [1.0, 2.0, 3.0, 1.0]


@pytest.mark.asyncio
async def test_events_kept_as_json_about_different_things_are_not_duplicates(receiver: Any) -> None:
    events, serve = receiver
    post = await serve(dedupe_window=10)
    bodies = [
        json.dumps({"type": "route.started", "version": "v0.2b", "created": 1000, "data": data}).encode()
        for data in ({"id": "routes/r1"}, {"id": "routes/r2"}, {"name": "a"}, {"name": "b"}, {"name": "a"})
    ]
    for body in bodies:
        assert (await post(body, {SIGNATURE_HEADER: sign(body, SECRET)}))[0] == 200
    # Each subject once: the second {"name": "a"} is the only duplicate.
    expected = [{"id": "routes/r1"}, {"id": "routes/r2"}, {"name": "a"}, {"name": "b"}]
    assert [event.data for event in events] == expected


@pytest.mark.asyncio
async def test_a_failing_on_event_is_not_remembered_so_the_redelivery_is_handled() -> None:
    calls: list[WebhookEvent] = []

    async def on_event(event: WebhookEvent) -> None:
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("database down")

    app = web.Application()
    app.router.add_post("/hook", webhook_handler(SECRET, on_event, dedupe_window=10))
    body = envelope()
    async with TestServer(app) as server, ClientSession() as session:
        for expected in (500, 200, 200):
            headers = {SIGNATURE_HEADER: sign(body, SECRET)}
            async with session.post(server.make_url("/hook"), data=body, headers=headers) as response:
                assert response.status == expected
    assert len(calls) == 2


def test_the_handler_refuses_an_unusable_configuration() -> None:
    async def on_event(event: WebhookEvent) -> None:
        pass

    with pytest.raises(ValueError, match="empty"):
        webhook_handler("", on_event)
    with pytest.raises(ValueError, match="max_body_size"):
        webhook_handler(SECRET, on_event, max_body_size=0)
    with pytest.raises(ValueError, match="dedupe_window"):
        webhook_handler(SECRET, on_event, dedupe_window=-1)


# The emulator sends them ------------------------------------------------------------


class FakeSleep:
    """The emulator's ``sleep``: records the delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.mark.asyncio
async def test_the_emulator_delivers_signed_events_for_a_full_plan_lifecycle() -> None:
    events: list[WebhookEvent] = []

    async def on_event(event: WebhookEvent) -> None:
        events.append(event)

    app = web.Application()
    app.router.add_post("/hook", webhook_handler(SECRET, on_event))
    async with TestServer(app) as receiver:
        url = str(receiver.make_url("/hook"))
        async with (
            Emulator(speedup=1000, webhook_url=url, webhook_secret=SECRET, wall_clock=lambda: 1.7e9) as emu,
            emu.client() as client,
        ):
            plan = await client.plans.create(
                title="Monday", starts=datetime.date(2026, 3, 2), drivers=["drivers/driver-ana"]
            )
            stops = [
                StopInput(address=AddressInput(address_line_one=f"{n} Test St", city="London"))
                for n in (1, 2)
            ]
            imported = await client.stops.import_batch(plan.id, stops)
            assert imported.failed == []
            await client.plans.optimize_and_wait(plan.id)
            assert emu.webhooks.deliveries == []  # nothing happens to a stop before distribution
            await client.plans.distribute(plan.id)
            await emu.webhooks.drain()
            assert [(event.type, event.data.id) for event in events] == [  # type: ignore[union-attr]
                ("stop.allocated", stop_id) for stop_id in imported.success
            ]
            routed = sorted(
                [await client.stops.get(stop_id) for stop_id in imported.success],
                key=lambda stop: stop.stop_position or 0,
            )
            first, second = (stop.id for stop in routed)
            assert routed[0].route is not None
            await emu.simulate_route(routed[0].route.id, outcomes={second: DeliveryState.FAILED_NOT_HOME})
        assert emu.internal_errors == []

    assert all(delivery.delivered and delivery.attempts == 1 for delivery in emu.webhooks.deliveries)
    kinds = [(str(event.type), event.data.id) for event in events[2:]]  # type: ignore[union-attr]
    assert kinds == [
        ("stop.tracking_link_added", first),
        ("stop.tracking_link_added", second),
        ("stop.out_for_delivery", first),
        ("stop.out_for_delivery", second),
        ("stop.attempted_delivery", first),
        ("stop.departed", first),
        ("stop.attempted_delivery", second),
        ("stop.departed", second),
    ]
    assert {event.created for event in events} == {datetime.datetime.fromtimestamp(1.7e9, datetime.UTC)}
    delivered, failed = (event.data for event in events if event.type == "stop.attempted_delivery")
    assert isinstance(delivered, Stop)
    assert isinstance(failed, Stop)
    assert delivered.delivery_info is not None
    assert delivered.delivery_info.succeeded
    assert delivered.delivery_info.state == DeliveryState.DELIVERED_TO_RECIPIENT
    assert delivered.delivery_info.attempted_at == datetime.datetime.fromtimestamp(1.7e9, datetime.UTC)
    assert delivered.delivery_info.attempted_location is not None
    assert failed.delivery_info is not None
    assert not failed.delivery_info.succeeded
    assert failed.delivery_info.state == DeliveryState.FAILED_NOT_HOME
    # Each event shows the stop as it was then: no delivery info before the attempt.
    out = next(event.data for event in events if event.type == "stop.out_for_delivery")
    assert isinstance(out, Stop)
    assert out.delivery_info is None
    assert out.tracking_link is not None
    assert all(isinstance(event.data, Stop) and event.data.route is not None for event in events)


@pytest.mark.asyncio
async def test_failed_deliveries_are_retried_with_backoff_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    answers = [500, 503, 200, 500, 500, 500]
    received: list[bytes] = []

    async def flaky(request: web.Request) -> web.Response:
        body = await request.read()
        assert verify_signature(body, request.headers[SIGNATURE_HEADER], SECRET)
        received.append(body)
        return web.Response(status=answers[len(received) - 1])

    app = web.Application()
    app.router.add_post("/hook", flaky)
    sleep = FakeSleep()
    caplog.set_level(logging.INFO, "route_planning_async.emulator.webhooks")
    async with TestServer(app) as receiver:
        config = {"webhook_retries": 2, "webhook_backoff": 4.0, "speedup": 2.0, "sleep": sleep}
        async with Emulator(
            webhook_url=str(receiver.make_url("/hook")), webhook_secret=SECRET, **config
        ) as emu:
            retried = emu.webhooks.send("test.send_event", None)
            lost = emu.webhooks.send("stop.unknown_to_us", {"id": "x"})
            await emu.webhooks.drain()
    assert (retried.statuses, retried.delivered) == ([500, 503, 200], True)
    assert (lost.statuses, lost.delivered) == ([500, 500, 500], False)
    assert sleep.delays == [2.0, 4.0, 2.0, 4.0]  # 4 s, then 8 s, sped up twice
    assert received == [retried.body] * 3 + [lost.body] * 3
    assert "gave up after 3 attempts" in caplog.text
    assert "attempt 1 answered 500" in caplog.text


@pytest.mark.asyncio
async def test_the_emulator_masks_the_webhook_urls_credentials_and_query_and_its_secret(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sleep = FakeSleep()
    app = web.Application()
    async with TestServer(app) as gone:
        port = gone.port
    url = f"http://hook-user:hook-pass@127.0.0.1:{port}/hook?token=query-secret"
    caplog.set_level(logging.INFO, "route_planning_async.emulator.webhooks")
    async with Emulator(
        webhook_url=url, webhook_secret="secret-of-the-team", webhook_retries=1, sleep=sleep
    ) as emu:
        shown = repr(emu.config)
        emu.webhooks.send("test.send_event", None)
        await emu.webhooks.drain()
    masked = f"http://***@127.0.0.1:{port}/hook?***"
    assert f"webhook_url={masked!r}" in shown
    assert "webhook_secret='***'" in shown
    assert "gave up after 2 attempts" in caplog.text
    assert f"to {masked}: attempt 1 failed" in caplog.text
    for secret in ("hook-user", "hook-pass", "query-secret", "secret-of-the-team"):
        assert secret not in shown
        assert secret not in caplog.text


@pytest.mark.asyncio
async def test_an_unreachable_receiver_is_retried_then_given_up() -> None:
    sleep = FakeSleep()
    app = web.Application()
    async with TestServer(app) as gone:
        url = str(gone.make_url("/hook"))
    async with Emulator(webhook_url=url, webhook_retries=1, sleep=sleep) as emu:
        delivery = emu.webhooks.send("test.send_event", None)
        await emu.webhooks.drain()
    assert (delivery.statuses, delivery.delivered, sleep.delays) == ([None, None], False, [1.0])


@pytest.mark.asyncio
async def test_an_emulator_without_webhook_url_sends_nothing() -> None:
    async with Emulator(speedup=1000) as emu, emu.client() as client:
        plan = await client.plans.create(
            title="Monday", starts=datetime.date(2026, 3, 2), drivers=["drivers/driver-ana"]
        )
        await client.stops.create(plan.id, StopInput(address=AddressInput(address_line_one="1 Test St")))
        await client.plans.optimize_and_wait(plan.id)
        await client.plans.distribute(plan.id)
        route = (await client.plans.get(plan.id)).routes[0]
        await emu.simulate_route(route)
        assert emu.webhooks.deliveries == []
        with pytest.raises(RuntimeError, match="webhook_url"):
            emu.webhooks.send("test.send_event", None)
        with pytest.raises(LookupError):
            await emu.simulate_route("routes/nope")


# The README ---------------------------------------------------------------------------


def _readme_app_and_test() -> tuple[str, str]:
    """The receiving app of the README, and its end-to-end test of the webhooks guide."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Webhooks") : text.index("## The emulator, in your own tests")]
    [app] = re.findall(r"```python\n(.*?)```", section, re.S)
    guide = (README.parent / "docs" / "webhooks.md").read_text(encoding="utf-8")
    [test] = re.findall(r"```python\n(.*?)```", guide, re.S)
    return app, test


def test_the_readme_app_and_its_emulator_test_run_as_written(tmp_path: pathlib.Path) -> None:
    app, test = _readme_app_and_test()
    (tmp_path / "app.py").write_text(app, encoding="utf-8")
    (tmp_path / "test_app.py").write_text(test, encoding="utf-8")
    result = run_pytest(tmp_path, importable=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_the_readme_app_handles_v1_events(tmp_path: pathlib.Path) -> None:
    # The same app and test, the emulator sending v1's events: the receiver must see them too
    # (the test asserts that the delivery the app printed reached stdout).
    app, test = _readme_app_and_test()
    sent_as_v1 = test.replace("webhook_secret=SECRET)", 'webhook_secret=SECRET, webhook_version="v1")')
    assert sent_as_v1 != test
    (tmp_path / "app.py").write_text(app, encoding="utf-8")
    (tmp_path / "test_app.py").write_text(sent_as_v1, encoding="utf-8")
    result = run_pytest(tmp_path, importable=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


@pytest.mark.asyncio
async def test_a_redistribution_allocates_only_the_stops_it_changed() -> None:
    heard: list[tuple[str, str]] = []
    async with Emulator(speedup=1000) as emu, emu.client() as client:
        emu.state.stop_events.append(lambda kind, record: heard.append((kind, record.body["id"])))
        plan = await client.plans.create(
            title="Monday", starts=datetime.date(2026, 3, 2), drivers=["drivers/driver-ana"]
        )
        stops = [
            StopInput(address=AddressInput(address_line_one=f"{n} Test St", city="London")) for n in (1, 2, 3)
        ]
        ids = (await client.stops.import_batch(plan.id, stops)).success
        await client.plans.optimize_and_wait(plan.id)
        await client.plans.distribute(plan.id)
        assert sorted(heard) == sorted(("stop.allocated", stop_id) for stop_id in ids)
        heard.clear()
        await client.stops.live_update(ids[1], notes="Ring twice")
        operation = await client.plans.reoptimize(plan.id, optimization_type="reorder_changed_stops")
        await client.operations.wait(operation)
        await client.plans.redistribute(plan.id)
        assert heard == [("stop.allocated", ids[1])]
