"""What a transport error tells, and what a body-less request puts on the wire.

Before, a refused connection took 10.7 s of retries that only DEBUG logging
showed: the final error did not say it had retried. Now every transport error
the scheduler gives up on ends with ``after N attempts over T s`` and carries
``attempts``, ``elapsed`` and ``history`` (each earlier attempt with its error
and duration).

And on aiohttp 3.14 (and 3.13 alike, over a real socket) a POST without a body,
such as ``:optimize``, went out with ``Content-Type: application/octet-stream``;
the contract wants no Content-Type without a body.
"""

from __future__ import annotations

import datetime
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestServer
from support.fake_transport import FakeService
from support.fixtures import BASE_URL, load
from support.virtual_time import run_virtual, virtual_loop

import route_planning_async as rp
from route_planning_async._core import Request, Response

PREFIX = "/public/v0.2b"


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# Attempts and elapsed time ------------------------------------------------------------


def test_a_refused_connection_says_it_was_tried_6_times_over_15_5_seconds() -> None:
    """The default policy's six attempts, with the largest backoff each time, in virtual time."""

    def refuse(request: Request) -> Response:
        raise rp.TransportError("cannot connect: refused", method="GET", request_url="u", maybe_sent=False)

    service = FakeService().on("GET", "/plans/p1", forever=refuse)

    async def main() -> rp.TransportError:
        policy = rp.RetryPolicy(jitter=lambda ceiling: ceiling)  # 0.5, 1, 2, 4, 8 s
        async with rp.RoutePlanningClient(
            "k-0123456789", base_url=BASE_URL, retry=policy, transport=service
        ) as client:
            with pytest.raises(rp.TransportError) as info:
                await client.plans.get("p1")
        assert virtual_loop().time() == pytest.approx(15.5)
        return info.value

    error = run_virtual(main)
    assert str(error).endswith("cannot connect: refused after 6 attempts over 15.5 s")
    assert error.attempts == 6
    assert error.elapsed == pytest.approx(15.5)
    assert [record.delay for record in error.history] == [0.5, 1.0, 2.0, 4.0, 8.0]
    assert all(record.duration == 0.0 for record in error.history)
    assert all(isinstance(record.error, rp.TransportError) for record in error.history)
    assert all(record.status is None for record in error.history)
    assert len(service.sent) == 6


def test_a_transport_error_on_the_first_attempt_says_so() -> None:
    def drop(request: Request) -> Response:
        raise rp.TransportError("reset", method="POST", request_url="u", maybe_sent=True)

    service = FakeService(latency=0.25).on("POST", "/plans", drop)

    async def main() -> rp.TransportError:
        async with rp.RoutePlanningClient("k-0123456789", base_url=BASE_URL, transport=service) as client:
            with pytest.raises(rp.TransportError) as info:
                await client.plans.create(title="t", starts=datetime.date(2026, 1, 5))
        return info.value

    error = run_virtual(main)
    # A POST that may have been applied is not repeated: one attempt.
    assert str(error).endswith("reset after 1 attempt over 0.250 s")
    assert (error.attempts, error.history) == (1, ())


@pytest.mark.asyncio
async def test_a_real_refused_connection_reports_its_attempts_and_their_errors() -> None:
    policy = rp.RetryPolicy(attempts=3, base=0.001, cap=0.001)
    async with rp.RoutePlanningClient(
        "k-0123456789",
        base_url=f"http://127.0.0.1:{closed_port()}{PREFIX}",
        rate_limits=rp.RateLimits.unlimited(),
        retry=policy,
    ) as client:
        with pytest.raises(rp.TransportError) as info:
            await client.plans.get("p1")
    error = info.value
    assert error.maybe_sent is False
    assert " after 3 attempts over " in str(error)
    assert error.attempts == 3
    assert len(error.history) == 2
    assert error.error_type == "aiohttp.ClientConnectorError"
    assert error.elapsed is not None
    assert error.elapsed >= sum(record.delay for record in error.history)
    for record in error.history:
        assert record.error is not None
        assert not record.error.maybe_sent
        assert record.duration is not None
        assert record.duration >= 0
        assert "cannot connect" in record.description
    assert "AttemptRecord(status=None" in repr(error.history[0])


# No Content-Type without a body ----------------------------------------------------------

SEEN = web.AppKey("seen", list[tuple[str, str, str | None]])


@pytest_asyncio.fixture
async def server() -> AsyncIterator[TestServer]:
    seen: list[tuple[str, str, str | None]] = []

    async def record(request: web.Request) -> web.Response:
        seen.append((request.method, request.path, request.headers.get("Content-Type")))
        if request.path.endswith(":optimize"):
            return web.json_response(load("operation_running.json"))
        return web.json_response(load("plan.json"))

    app = web.Application()
    app[SEEN] = seen
    app.router.add_route("*", PREFIX + "/{tail:.*}", record)
    test_server = TestServer(app, host="127.0.0.1")
    await test_server.start_server()
    try:
        yield test_server
    finally:
        await test_server.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("borrowed", [False, True], ids=["own session", "borrowed session"])
async def test_no_content_type_without_a_body_on_this_aiohttp(server: TestServer, borrowed: bool) -> None:
    session = aiohttp.ClientSession() if borrowed else None
    try:
        async with rp.RoutePlanningClient(
            "k-0123456789",
            base_url=f"http://127.0.0.1:{server.port}{PREFIX}",
            rate_limits=rp.RateLimits.unlimited(),
            retry=rp.RetryPolicy(attempts=1),
            session=session,
        ) as client:
            await client.plans.optimize("p1")
            await client.plans.update("p1", title="With a body")
            await client.plans.get("p1")
    finally:
        if session is not None:
            await session.close()
    assert server.app[SEEN] == [
        ("POST", f"{PREFIX}/plans/p1:optimize", None),
        ("PATCH", f"{PREFIX}/plans/p1", "application/json"),
        ("GET", f"{PREFIX}/plans/p1", None),
    ], aiohttp.__version__
