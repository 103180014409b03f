"""``client.with_options(timeout=..., retry=...)``: a view with other settings on the same scheduler.

Timeouts run on a silent server over a real socket (the aiohttp transport) and
on the virtual-time loop (a transport of the caller's own), so no test waits
for real seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from support.fake_transport import FakeService, answer
from support.fixtures import load
from support.virtual_time import run_virtual

import route_planning_async as rp
from route_planning_async._core import Request, Response

KEY = "test-key"
URL = "https://api.example.test/public/v0.2b"


class Silent:
    """A transport whose answers never come."""

    def __init__(self) -> None:
        self.requests: list[Request] = []

    async def send(self, request: Request) -> Response:
        self.requests.append(request)
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def test_a_view_shares_the_scheduler_and_the_limits() -> None:
    client = rp.RoutePlanningClient(KEY, base_url=URL)
    view = client.with_options(timeout=5)
    assert view._scheduler is client._scheduler
    assert view.rate_limits is client.rate_limits
    assert view.base_url == client.base_url
    assert view.plans._client is view  # the namespaces send through the view
    assert client.plans._client is client
    assert "with options" in repr(view)


def test_a_view_times_out_an_attempt_of_a_transport_of_your_own() -> None:
    async def main() -> tuple[rp.RequestTimeoutError, float, int]:
        silent = Silent()
        retry = rp.RetryPolicy(attempts=1)
        async with rp.RoutePlanningClient(KEY, base_url=URL, transport=silent, retry=retry) as client:
            started = asyncio.get_running_loop().time()
            with pytest.raises(rp.RequestTimeoutError) as caught:
                await client.with_options(timeout=2.5).plans.get("p1")
            return caught.value, asyncio.get_running_loop().time() - started, len(silent.requests)

    error, elapsed, sent = run_virtual(main)
    assert elapsed == pytest.approx(2.5)
    assert sent == 1
    assert "timed out after 2.5 s" in str(error)
    assert error.request_url == f"{URL}/plans/p1"


def test_a_view_with_another_retry_policy_retries_as_it_says() -> None:
    service = FakeService()
    service.on("GET", "/plans/p1", answer({"message": "boom"}, status=500), answer(load("plan.json")))
    service.on("GET", "/plans/p2", answer({"message": "boom"}, status=500))

    async def main() -> rp.ServerError:
        no_retries = rp.RetryPolicy(attempts=1)
        async with rp.RoutePlanningClient(KEY, base_url=URL, transport=service, retry=no_retries) as client:
            patient = client.with_options(retry=rp.RetryPolicy(attempts=3, base=0.01, cap=0.1))
            plan = await patient.plans.get("p1")  # the 500 is retried by the view's policy
            assert plan.id == load("plan.json")["id"]
            with pytest.raises(rp.ServerError) as caught:
                await client.plans.get("p2")  # the client's own policy: no retry
            return caught.value

    error = run_virtual(main)
    assert error.status == 500
    service.assert_done()


def test_a_view_of_a_view_keeps_the_earlier_options() -> None:
    client = rp.RoutePlanningClient(KEY, base_url=URL)
    policy = rp.RetryPolicy(attempts=2)
    view = client.with_options(retry=policy).with_options(timeout=None)
    assert view._call_retry is policy
    assert view._call_timeout is None
    assert view._owner is client


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), "10"])
def test_a_bad_timeout_for_a_view_is_a_configuration_error(timeout: object) -> None:
    client = rp.RoutePlanningClient(KEY, base_url=URL)
    with pytest.raises(rp.ConfigurationError, match="timeout must be"):
        client.with_options(timeout=timeout)  # type: ignore[arg-type]


def test_a_bad_retry_for_a_view_is_a_configuration_error() -> None:
    client = rp.RoutePlanningClient(KEY, base_url=URL)
    with pytest.raises(rp.ConfigurationError, match="retry must be a RetryPolicy"):
        client.with_options(retry=3)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_view_is_not_entered_and_closing_it_leaves_the_client_open() -> None:
    service = FakeService()
    service.on("GET", "/plans/p1", answer(load("plan.json")))
    async with rp.RoutePlanningClient(KEY, base_url=URL, transport=service) as client:
        view = client.with_options(timeout=10)
        with pytest.raises(rp.RoutePlanningError, match="open the client itself"):
            async with view:
                pass
        await view.aclose()
        assert (await client.plans.get("p1")).title
    service.assert_done()


@pytest_asyncio.fixture
async def silent_server() -> AsyncIterator[str]:
    """A loopback server that accepts connections and never answers."""
    writers: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}/public/v0.2b"
    for writer in writers:
        writer.close()
    server.close()
    await server.wait_closed()


@pytest.mark.asyncio
async def test_a_view_times_out_an_attempt_on_the_aiohttp_transport(silent_server: str) -> None:
    retry = rp.RetryPolicy(attempts=1)
    async with rp.RoutePlanningClient(KEY, base_url=silent_server, retry=retry, timeout=600) as client:
        with pytest.raises(rp.RequestTimeoutError) as caught:
            await client.with_options(timeout=0.05).plans.get("p1")
    assert caught.value.request_url == f"{silent_server}/plans/p1"
    assert caught.value.attempts == 1
