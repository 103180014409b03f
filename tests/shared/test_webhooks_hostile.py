"""Webhooks under awkward or hostile deliveries: bodies in pieces, redeliveries, deep JSON, byte secrets.

Each test runs the handler on a real aiohttp server on loopback. A body sent in
pieces sends each next piece only once the server has received the ones before
(told by its request's body stream), so every piece reaches the handler on its own.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import ClientSession, StreamReader, web
from aiohttp.test_utils import TestServer

from route_planning_async.webhooks import (
    SIGNATURE_HEADER,
    InvalidEventError,
    WebhookEvent,
    parse_event,
    sign,
    verify_signature,
    webhook_handler,
)

SECRET = "0123456789abcdef0123456789abcdef"
STOP = {"id": "plans/p1/stops/s1", "plan": "plans/p1", "address": {"address": "1 Main St"}}
MIB = 1024 * 1024


def envelope(data: Any = STOP, created: int = 1_700_000_000_123) -> bytes:
    return json.dumps(
        {"type": "stop.allocated", "version": "v0.2b", "created": created, "data": data}
    ).encode()


def signed(body: bytes) -> dict[str, str]:
    return {SIGNATURE_HEADER: sign(body, SECRET)}


class Receiver:
    """``webhook_handler`` on a loopback server; records each request it was given and its answer."""

    def __init__(self, on_event: Callable[[WebhookEvent], Awaitable[object]], **options: Any) -> None:
        self.handler = webhook_handler(SECRET, on_event, **options)
        self.requests: asyncio.Queue[web.Request] = asyncio.Queue()
        self.answered = 0
        self.pieces_received = 0
        self.progress = asyncio.Event()
        """Set when a request's body stream was fed bytes, or a request was answered."""
        app = web.Application()
        app.router.add_post("/hook", self.handle)
        self.server = TestServer(app)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        receiver = self

        class Observed(StreamReader):
            """The request's body stream, telling the receiver of each piece fed to it."""

            __slots__ = ()

            def feed_data(self, data: bytes, size: int = 0) -> None:
                super().feed_data(data, size)
                receiver.pieces_received += 1
                receiver.progress.set()

        request.content.__class__ = Observed
        self.requests.put_nowait(request)
        try:
            return await self.handler(request)
        finally:
            self.answered += 1
            self.progress.set()

    def pieces(self, parts: Iterable[bytes]) -> AsyncIterator[bytes]:
        """A chunked body: each part is sent once the server has received all before it."""

        async def body() -> AsyncIterator[bytes]:
            sent, request = 0, None
            answered = self.answered
            for part in parts:
                if sent:
                    request = request or await self.requests.get()
                    while request.content.total_bytes < sent and self.answered == answered:
                        self.progress.clear()
                        await self.progress.wait()
                yield part
                sent += len(part)

        return body()


@pytest_asyncio.fixture
async def session() -> AsyncIterator[ClientSession]:
    async with ClientSession() as session:
        yield session


async def post(
    session: ClientSession, receiver: Receiver, data: Any, headers: dict[str, str]
) -> tuple[int, str]:
    async with session.post(receiver.server.make_url("/hook"), data=data, headers=headers) as response:
        return response.status, await response.text()


def recorder() -> tuple[list[WebhookEvent], Callable[[WebhookEvent], Awaitable[None]]]:
    events: list[WebhookEvent] = []

    async def on_event(event: WebhookEvent) -> None:
        events.append(event)

    return events, on_event


# A body in more than one piece ----------------------------------------------------------


@pytest.mark.asyncio
async def test_a_signed_event_sent_chunked_in_several_pieces_is_accepted(session: ClientSession) -> None:
    events, on_event = recorder()
    receiver = Receiver(on_event)
    body = envelope()
    third = len(body) // 3
    parts = [body[:third], body[third : 2 * third], body[2 * third :]]
    async with receiver.server:
        assert await post(session, receiver, receiver.pieces(parts), signed(body)) == (200, "ok")
    assert receiver.pieces_received >= 2  # after the first, which may come with the head
    assert [event.data.id for event in events] == ["plans/p1/stops/s1"]  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_a_600_kb_signed_event_with_a_content_length_is_accepted(session: ClientSession) -> None:
    events, on_event = recorder()
    receiver = Receiver(on_event)
    body = envelope({**STOP, "notes": "x" * 600_000})
    async with receiver.server:
        assert await post(session, receiver, body, signed(body)) == (200, "ok")
    assert len(events) == 1
    assert events[0].data.notes == "x" * 600_000  # type: ignore[union-attr]


@pytest.mark.asyncio
async def test_a_2_mib_chunked_body_is_answered_413_not_401(session: ClientSession) -> None:
    events, on_event = recorder()
    receiver = Receiver(on_event)
    body = envelope({**STOP, "notes": "x" * (2 * MIB)})
    parts = [body[start : start + 64 * 1024] for start in range(0, len(body), 64 * 1024)]
    async with receiver.server:
        status, text = await post(session, receiver, receiver.pieces(parts), signed(body))
    assert (status, text) == (413, "body too large")
    assert events == []


@pytest.mark.asyncio
async def test_a_content_length_over_the_limit_is_answered_413_before_the_body_is_sent() -> None:
    events, on_event = recorder()
    receiver = Receiver(on_event)
    async with receiver.server:
        url = receiver.server.make_url("/hook")
        reader, writer = await asyncio.open_connection(url.host, url.port)
        head = f"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: {2 * MIB}\r\n"
        writer.write(f"{head}{SIGNATURE_HEADER}: {'0' * 64}\r\n\r\n".encode())
        await writer.drain()
        status_line = await reader.readline()
        writer.close()
        await writer.wait_closed()
    assert status_line.split()[1] == b"413"
    assert events == []


# Redeliveries ----------------------------------------------------------------------------


class WaitingForRunningDelivery(logging.Handler):
    """Sets :attr:`seen` when the handler says a redelivery waits for the delivery in progress."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if "in progress" in record.getMessage():
            self.seen.set()


@pytest_asyncio.fixture
async def waiting() -> AsyncIterator[WaitingForRunningDelivery]:
    logger = logging.getLogger("route_planning_async.webhooks")
    handler, level = WaitingForRunningDelivery(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


async def first_then_redelivery(
    session: ClientSession, receiver: Receiver, started: asyncio.Event, waiting: WaitingForRunningDelivery
) -> tuple[asyncio.Task[tuple[int, str]], asyncio.Task[tuple[int, str]]]:
    """The first delivery, running in ``on_event``; then a redelivery, arrived and waiting (or answered)."""
    body = envelope()
    first = asyncio.create_task(post(session, receiver, body, signed(body)))
    await started.wait()
    again = asyncio.create_task(post(session, receiver, body, signed(body)))
    seen = asyncio.create_task(waiting.seen.wait())
    await asyncio.wait({again, seen}, return_when=asyncio.FIRST_COMPLETED)
    seen.cancel()
    return first, again


@pytest.mark.asyncio
async def test_a_redelivery_during_a_first_delivery_that_then_fails_is_processed_not_lost(
    session: ClientSession, waiting: WaitingForRunningDelivery
) -> None:
    started, release = asyncio.Event(), asyncio.Event()
    calls: list[WebhookEvent] = []
    processed: list[WebhookEvent] = []

    async def on_event(event: WebhookEvent) -> None:
        calls.append(event)
        if len(calls) == 1:
            started.set()
            await release.wait()
            raise RuntimeError("database down")
        processed.append(event)

    receiver = Receiver(on_event, dedupe_window=10)
    async with receiver.server:
        first, again = await first_then_redelivery(session, receiver, started, waiting)
        release.set()
        assert (await first)[0] == 500
        assert await again == (200, "ok")
        body = envelope()
        assert await post(session, receiver, body, signed(body)) == (200, "duplicate")
    assert len(processed) == 1
    assert len(calls) == 2


@pytest.mark.asyncio
async def test_a_redelivery_during_or_after_a_successful_first_delivery_is_a_200_duplicate(
    session: ClientSession, waiting: WaitingForRunningDelivery
) -> None:
    started, release = asyncio.Event(), asyncio.Event()
    calls: list[WebhookEvent] = []

    async def on_event(event: WebhookEvent) -> None:
        calls.append(event)
        started.set()
        await release.wait()

    receiver = Receiver(on_event, dedupe_window=10)
    async with receiver.server:
        first, again = await first_then_redelivery(session, receiver, started, waiting)
        waited = not again.done()  # for the first delivery's outcome
        release.set()
        assert waited
        assert await first == (200, "ok")
        assert await again == (200, "duplicate")
        body = envelope()
        assert await post(session, receiver, body, signed(body)) == (200, "duplicate")
    assert len(calls) == 1


# Deeply nested JSON --------------------------------------------------------------------


DEEP = b'{"type": "stop.allocated", "data": ' + b"[" * 5000 + b"]" * 5000 + b"}"


def test_parse_event_refuses_deeply_nested_json_as_an_invalid_event() -> None:
    with pytest.raises(InvalidEventError, match="nests too deep"):
        parse_event(DEEP)


def test_the_depth_limit_holds_on_every_python() -> None:
    """Python 3.13's decoder reads nesting far past the recursion limit; the reader's bound
    (``_json.MAX_DEPTH``, measured on the text before decoding) still holds."""
    from route_planning_async._json import MAX_DEPTH

    def event(depth: int, inner: bytes = b"1") -> bytes:
        """An event of a version the library does not know (its data kept as JSON), ``depth`` deep."""
        data = b'{"k": ' + b"[" * (depth - 2) + inner + b"]" * (depth - 2) + b"}"
        return b'{"type": "stop.allocated", "version": "v9", "created": 1, "data": ' + data + b"}"

    kept = parse_event(event(MAX_DEPTH)).data
    assert isinstance(kept, dict)
    with pytest.raises(InvalidEventError, match="nests too deep"):
        parse_event(event(MAX_DEPTH + 1))
    # Brackets inside strings count for nothing.
    parse_event(event(MAX_DEPTH, b'"' + b"[" * 5000 + b'"'))


@pytest.mark.asyncio
async def test_the_handler_answers_400_to_a_signed_deeply_nested_body(session: ClientSession) -> None:
    events, on_event = recorder()
    receiver = Receiver(on_event)
    async with receiver.server:
        status, text = await post(session, receiver, DEEP, signed(DEEP))
    assert status == 400
    assert "nests too deep" in text
    assert events == []


# Secrets -----------------------------------------------------------------------------------


def test_a_bytes_secret_signs_and_verifies_as_its_str() -> None:
    body = envelope()
    assert verify_signature(body, sign(body, SECRET), SECRET.encode())
    assert sign(body, SECRET.encode()) == sign(body, SECRET)
    assert not verify_signature(body, sign(body, "f" * 32), SECRET.encode())


@pytest.mark.asyncio
async def test_the_handler_takes_a_bytes_secret(session: ClientSession) -> None:
    events, on_event = recorder()
    app = web.Application()
    app.router.add_post("/hook", webhook_handler(SECRET.encode(), on_event))
    body = envelope()
    async with TestServer(app) as server:
        async with session.post(server.make_url("/hook"), data=body, headers=signed(body)) as response:
            assert response.status == 200
    assert len(events) == 1


@pytest.mark.parametrize("secret", [None, 12345, ["a"], {"secret": SECRET}])
def test_a_secret_that_is_neither_str_nor_bytes_is_refused_by_type(secret: Any) -> None:
    with pytest.raises(TypeError, match=f"str or bytes, not {type(secret).__name__}"):
        verify_signature(b"{}", "00" * 32, secret)
    with pytest.raises(TypeError, match="str or bytes"):
        sign(b"{}", secret)
    with pytest.raises(TypeError, match="str or bytes"):
        webhook_handler(secret, recorder()[1])


def test_an_empty_bytes_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        verify_signature(b"{}", "00" * 32, b"")


@pytest.mark.parametrize("size", [math.nan, math.inf])
def test_a_body_bound_that_bounds_nothing_is_refused(size: float) -> None:
    async def on_event(event: object) -> None:
        """Never called."""

    with pytest.raises(ValueError, match="max_body_size must be a positive finite number"):
        webhook_handler("secret", on_event, max_body_size=size)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dedupe_window must not be negative or NaN"):
        webhook_handler("secret", on_event, dedupe_window=math.nan)
