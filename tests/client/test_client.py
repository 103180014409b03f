"""The client's life cycle and hygiene, over real loopback sockets (no mocks).

The API key must never leak (repr, error text, logs); plain http:// is refused
but for loopback hosts; a borrowed session is left open and an own one closed;
a given transport carries every request, and is neither opened nor closed by
the client; the client is entered once and must be entered before use.
"""

from __future__ import annotations

import ast
import base64
import datetime
import logging
import socket
import ssl
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web
from aiohttp.test_utils import TestServer
from support.fake_transport import FakeService, answer
from support.fixtures import load

import route_planning_async as rp
from route_planning_async._client import BaseClient, ClientCalls, Namespace, VersionTable
from route_planning_async._core import Request, Response
from route_planning_async._rate_limits._limits import Category
from route_planning_async.v1 import RoutePlanningClient as V1Client

KEY = "sk-live-0123456789abcdef"
KEY_FORMS = (KEY, base64.b64encode(f"{KEY}:".encode()).decode())
PREFIX = "/public/v0.2b"
SEEN = web.AppKey("seen", list[dict[str, str]])
M = TypeVar("M")


def assert_no_key(*texts: object) -> None:
    for text in texts:
        for form in KEY_FORMS:
            assert form not in str(text)


def make_client(base_url: str, **kwargs: Any) -> rp.RoutePlanningClient:
    return rp.RoutePlanningClient(
        KEY,
        base_url=base_url,
        rate_limits=rp.RateLimits.unlimited(),
        retry=rp.RetryPolicy(attempts=1),
        **kwargs,
    )


@pytest_asyncio.fixture
async def server() -> AsyncIterator[TestServer]:
    seen: list[dict[str, str]] = []

    async def plan(request: web.Request) -> web.Response:
        seen.append(dict(request.headers))
        return web.json_response(load("plan.json"))

    async def denied(request: web.Request) -> web.Response:
        seen.append(dict(request.headers))
        return web.json_response({"message": "Unauthorized"}, status=401)

    app = web.Application()
    app[SEEN] = seen
    app.router.add_get(f"{PREFIX}/plans/p1", plan)
    app.router.add_get(f"{PREFIX}/plans/denied", denied)
    test_server = TestServer(app, host="127.0.0.1")
    await test_server.start_server()
    try:
        yield test_server
    finally:
        await test_server.close()


def base_url_of(server: TestServer) -> str:
    return f"http://127.0.0.1:{server.port}{PREFIX}"


def is_closed(session: aiohttp.ClientSession) -> bool:
    return session.closed


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# The key never leaks -----------------------------------------------------------


def test_repr_hides_the_key() -> None:
    client = rp.RoutePlanningClient(KEY, base_url="https://api.example.test/public/v0.2b")
    assert_no_key(repr(client), str(client), repr(client.plans), repr(client.stops.list("p1")))
    assert "api.example.test" in repr(client)


@pytest.mark.asyncio
async def test_key_is_sent_but_not_in_a_401_error(server: TestServer) -> None:
    async with make_client(base_url_of(server)) as client:
        plan = await client.plans.get("p1")
        with pytest.raises(rp.AuthenticationError) as info:
            await client.plans.get("denied")
    assert plan.id == "plans/p1"
    # It did go over the wire, as Basic base64("key:") ...
    assert server.app[SEEN][0]["Authorization"] == f"Basic {KEY_FORMS[1]}"
    # ... and it is nowhere in the error.
    error = info.value
    assert error.status == 401
    assert_no_key(str(error), repr(error), error.args, vars(error), error.headers, error.body)


@pytest.mark.asyncio
async def test_key_is_not_in_a_transport_error() -> None:
    async with make_client(f"http://127.0.0.1:{closed_port()}{PREFIX}") as client:
        with pytest.raises(rp.TransportError) as info:
            await client.plans.get("p1")
    error = info.value
    assert error.maybe_sent is False
    chain: list[BaseException] = []
    cause: BaseException | None = error
    while cause is not None:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    assert_no_key(*(str(e) for e in chain), *(repr(e) for e in chain), vars(error))


@pytest.mark.asyncio
async def test_key_is_not_logged_at_debug(server: TestServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with make_client(base_url_of(server)) as client:
        await client.plans.get("p1")
        with pytest.raises(rp.AuthenticationError):
            await client.plans.get("denied")
    async with make_client(f"http://127.0.0.1:{closed_port()}{PREFIX}") as client:
        with pytest.raises(rp.TransportError):
            await client.plans.get("p1")
    # Logging was live: the loopback server's access log saw both requests.
    assert len([r for r in caplog.records if r.name == "aiohttp.access"]) == 2
    for record in caplog.records:
        assert_no_key(record.getMessage(), record.args, record.exc_text or "", vars(record))


# Base URL rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    "base_url",
    [
        "http://api.example.test/public/v0.2b",
        "http://10.0.0.1/public/v0.2b",
        "http://localhost.example.test/public/v0.2b",
        "http://128.0.0.1/public/v0.2b",
        "ftp://127.0.0.1/public/v0.2b",
        "https://user:secret@api.example.test/public/v0.2b",
        "https://api.example.test/public/v0.2b?x=1",
        "api.example.test/public/v0.2b",
    ],
)
def test_unsafe_base_urls_are_refused(base_url: str) -> None:
    with pytest.raises(rp.ConfigurationError):
        rp.RoutePlanningClient(KEY, base_url=base_url)


@pytest.mark.parametrize(
    "base_url",
    [
        "https://api.example.test/public/v0.2b",
        "https://api.example.test:8443/public/v0.2b/",
        "http://127.0.0.1:8080/public/v0.2b",
        "http://127.255.0.7/public/v0.2b",
        "http://[::1]:9000/public/v0.2b",
        "http://localhost:9000/public/v0.2b",
        "http://LOCALHOST/public/v0.2b",
    ],
)
def test_https_and_loopback_http_are_accepted(base_url: str) -> None:
    client = rp.RoutePlanningClient(KEY, base_url=base_url)
    assert client.base_url.lower() == base_url.rstrip("/").lower()


def test_an_empty_key_is_refused() -> None:
    with pytest.raises(rp.ConfigurationError):
        rp.RoutePlanningClient("", base_url="https://api.example.test/public/v0.2b")


# Session ownership and the context -------------------------------------------------


@pytest.mark.asyncio
async def test_a_borrowed_session_is_left_open(server: TestServer) -> None:
    async with aiohttp.ClientSession() as session:
        async with make_client(base_url_of(server), session=session) as client:
            assert (await client.plans.get("p1")).id == "plans/p1"
        assert not session.closed
        # Still usable by its owner.
        async with session.get(f"{base_url_of(server)}/plans/p1") as answer:
            assert answer.status == 200
    assert session.closed


@pytest.mark.asyncio
async def test_an_own_session_is_closed(server: TestServer) -> None:
    client = make_client(base_url_of(server))
    async with client:
        await client.plans.get("p1")
        own = client._session
        assert own is not None
        assert not is_closed(own)
    assert is_closed(own)
    with pytest.raises(rp.RoutePlanningError, match="not open"):
        await client.plans.get("p1")


@pytest.mark.asyncio
async def test_entering_twice_is_refused() -> None:
    client = make_client("https://api.example.test/public/v0.2b")
    async with client:
        with pytest.raises(rp.RoutePlanningError, match="already open"):
            await client.__aenter__()
    # Closed, it cannot be opened again, and says so (not "already open").
    with pytest.raises(
        rp.RoutePlanningError, match="was closed and cannot be opened again; create a new one"
    ):
        await client.__aenter__()


@pytest.mark.asyncio
async def test_using_a_client_without_async_with_is_a_clear_error() -> None:
    client = make_client("https://api.example.test/public/v0.2b")
    with pytest.raises(rp.RoutePlanningError, match="async with RoutePlanningClient"):
        await client.plans.get("p1")
    # Listing fails the same way on first iteration.
    with pytest.raises(rp.RoutePlanningError, match="async with"):
        await client.depots.list().collect()


# The transport seam ---------------------------------------------------------------


class BorrowedTransport:
    """A transport with close methods of its own, which the client must not call."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.closed = 0

    async def send(self, request: Request) -> Response:
        return await self.service.send(request)

    def close(self) -> None:
        self.closed += 1

    async def aclose(self) -> None:
        self.closed += 1


@pytest.mark.asyncio
async def test_a_given_transport_carries_every_request_and_no_session_is_opened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[object] = []

    def no_session(*args: object, **kwargs: object) -> None:
        opened.append((args, kwargs))
        raise AssertionError("the client opened an aiohttp session")

    monkeypatch.setattr(aiohttp, "ClientSession", no_session)
    plan = load("plan.json")
    service = FakeService()
    service.on("POST", "/plans", answer(plan))
    service.on("GET", "/plans/p1", answer(plan))
    service.on("GET", "/depots", answer({"depots": [], "nextPageToken": None}))
    service.on("POST", "/plans/p1:save", answer(status=204))

    async with make_client("https://api.example.test/public/v0.2b", transport=service) as client:
        await client.plans.create(title="Monday", starts=datetime.date(2026, 11, 23))
        await client.plans.get("plans/p1")
        await client.depots.list().collect()
        await client.plans.save("p1")
        assert client._session is None

    assert opened == []
    service.assert_done()
    assert [request.describe() for request in service.requests] == [
        "POST /plans",
        "GET /plans/p1",
        "GET /depots",
        "POST /plans/p1:save",
    ]
    # Paths relative to the base URL, and no credentials in what the transport gets.
    for request in service.requests:
        assert request.path.startswith("/")
        assert "example.test" not in request.path
        assert_no_key(repr(request), request.body or b"")


@pytest.mark.asyncio
async def test_a_transport_with_a_session_or_ssl_is_refused() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(rp.ConfigurationError, match="transport="):
            make_client("https://api.example.test/public/v0.2b", transport=FakeService(), session=session)
    with pytest.raises(rp.ConfigurationError, match="transport="):
        make_client(
            "https://api.example.test/public/v0.2b",
            transport=FakeService(),
            ssl=ssl.create_default_context(),
        )


@pytest.mark.asyncio
async def test_a_borrowed_transport_is_not_closed() -> None:
    service = FakeService()
    plan = answer(load("plan.json"))
    service.on("GET", "/plans/p1", plan, plan)
    transport = BorrowedTransport(service)

    async with make_client("https://api.example.test/public/v0.2b", transport=transport) as client:
        assert (await client.plans.get("p1")).id == "plans/p1"
    assert transport.closed == 0
    with pytest.raises(rp.RoutePlanningError, match="not open"):
        await client.plans.get("p1")
    # Still usable by its owner, here by another client.
    async with make_client("https://api.example.test/public/v0.2b", transport=transport) as again:
        assert (await again.plans.get("p1")).id == "plans/p1"
    assert transport.closed == 0
    service.assert_done()


def test_a_misspelt_setting_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="'time_out'"):
        rp.RoutePlanningClient(KEY, time_out=5)  # type: ignore[call-arg]


class _Things(Namespace[ClientCalls]):
    """A namespace of a made-up API version: one read of a JSON object."""

    __slots__ = ()

    _table = VersionTable(
        {},
        structure=lambda data, model: model(**data),
        structure_list=lambda data, model: [model(**item) for item in data],
        unstructure=lambda value: value,
    )

    async def get(self, thing_id: str) -> dict[str, Any]:
        return await self._fetch(Request("GET", f"/things/{thing_id}", Category.READ), dict)


class _VersionNineClient(BaseClient):
    """A client of a made-up API version: its own address and namespaces, the shared rest."""

    default_base_url = "https://api.example.test/public/v9"

    def _bind_namespaces(self) -> None:
        self.things = _Things(self)


@pytest.mark.asyncio
async def test_another_version_is_a_small_subclass_of_the_base_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ROUTE_PLANNING_BASE_URL", raising=False)
    service = FakeService()
    service.on("GET", "/things/t1", answer({"name": "one"}), answer(["not", "an", "object"]))
    async with _VersionNineClient(KEY, transport=service, rate_limits=rp.RateLimits.unlimited()) as client:
        assert client.base_url == "https://api.example.test/public/v9"
        assert repr(client) == "<_VersionNineClient base_url='https://api.example.test/public/v9'>"
        assert await client.things.get("t1") == {"name": "one"}
        with pytest.raises(rp.DecodeError, match="expected a JSON object") as info:
            await client.things.get("t1")
        assert info.value.request_url == "https://api.example.test/public/v9/things/t1"
        assert isinstance(client.with_options(timeout=5), _VersionNineClient)
    assert rp.RoutePlanningClient(KEY).base_url == rp.DEFAULT_BASE_URL


@pytest.mark.parametrize(
    "room",
    ["_client", "_scheduler", "_pagination", "_operations", "_workflows", "_errors"],
)
def test_the_shared_rooms_import_nothing_of_a_version(room: str) -> None:
    package = Path(rp.__file__).parent
    path = package / room
    files = sorted(path.glob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    for file in files:
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert "v0_2b" not in (node.module or ""), f"{file.name} imports {node.module}"


@pytest.mark.asyncio
@pytest.mark.parametrize(("client_class", "version"), [(rp.RoutePlanningClient, "v0.2b"), (V1Client, "v1")])
@pytest.mark.parametrize("attempts", [1, 3])
async def test_an_error_carries_the_full_url_whether_or_not_it_was_retried(
    client_class: Any, version: str, attempts: int
) -> None:
    base_url = f"https://api.example.test/public/{version}"
    service = FakeService()
    service.on("GET", "/plans/p1", forever=answer({"message": "down"}, status=503))
    async with client_class(
        "test-key",
        base_url=base_url,
        rate_limits=rp.RateLimits.unlimited(),
        retry=rp.RetryPolicy.testing(attempts=attempts),
        transport=service,
    ) as client:
        with pytest.raises(rp.ServerError) as caught:
            await client.plans.get("plans/p1")
    assert len(service.sent) == attempts
    assert len(caught.value.history) == attempts - 1
    assert caught.value.request_url == f"{base_url}/plans/p1"
    assert f"GET {base_url}/plans/p1" in str(caught.value)


def test_one_backend_holds_one_budget_the_origin_and_key_of_its_first_client() -> None:
    backend = rp.InMemoryBackend()
    origin = "https://api.example.test"
    rp.RoutePlanningClient(KEY, base_url=f"{origin}/public/v0.2b", rate_limit_backend=backend)
    # The same origin and key is the same budget, whichever version speaks.
    V1Client(KEY, base_url=f"{origin}/public/v1", rate_limit_backend=backend)
    # Another key, or another service, would be counted with it: refused before anything is sent.
    with pytest.raises(rp.ConfigurationError, match="budget of another API key: give each API key"):
        rp.RoutePlanningClient("sk-other", base_url=f"{origin}/public/v0.2b", rate_limit_backend=backend)
    with pytest.raises(rp.ConfigurationError, match=r"another service \(https://api.example.test\)"):
        rp.RoutePlanningClient(KEY, base_url="https://eu.example.test/public/v1", rate_limit_backend=backend)
    # The message never shows the key.
    with pytest.raises(rp.ConfigurationError) as raised:
        rp.RoutePlanningClient("sk-other", base_url=f"{origin}/public/v0.2b", rate_limit_backend=backend)
    assert "sk-other" not in str(raised.value)
    assert KEY not in str(raised.value)


class _LeasedBackend(rp.InMemoryBackend):
    """A backend whose in-flight slots expire after ``lease`` seconds (as Redis's do)."""

    def __init__(self, lease: float) -> None:
        super().__init__()
        self.lease = lease


def test_an_attempt_may_not_outlast_the_lease_of_its_slot() -> None:
    base_url = "https://api.example.test/public/v0.2b"
    lasts = r"last 30 s \(its lease\), no longer than the client's timeout of"
    # An attempt still out when its slot's lease ends would let others send past the limit.
    with pytest.raises(rp.ConfigurationError, match=f"{lasts} 60 s"):
        rp.RoutePlanningClient(KEY, base_url=base_url, rate_limit_backend=_LeasedBackend(30.0))
    with pytest.raises(rp.ConfigurationError, match=f"{lasts} 30 s"):
        rp.RoutePlanningClient(KEY, base_url=base_url, rate_limit_backend=_LeasedBackend(30.0), timeout=30)
    with pytest.raises(rp.ConfigurationError, match=r"the client has no timeout: .* under 30 s"):
        rp.RoutePlanningClient(KEY, base_url=base_url, rate_limit_backend=_LeasedBackend(30.0), timeout=None)
    leased = _LeasedBackend(30.0)
    client = rp.RoutePlanningClient(KEY, base_url=base_url, rate_limit_backend=leased, timeout=29)
    # A view's timeout is checked the same way; a shorter one is taken.
    too_long = r"timeout=300\.0 does not fit rate_limit_backend: .*30 s"
    with pytest.raises(rp.ConfigurationError, match=too_long):
        client.with_options(timeout=300)
    with pytest.raises(rp.ConfigurationError, match="the client has no timeout"):
        client.with_options(timeout=None)
    assert client.with_options(timeout=5)._call_timeout == 5.0
    # A backend whose slots do not expire takes any timeout.
    rp.RoutePlanningClient(KEY, base_url=base_url, rate_limit_backend=rp.InMemoryBackend(), timeout=None)
