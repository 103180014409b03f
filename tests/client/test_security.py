"""The key never leaks through an error, whatever the service (or something posing as it) answers.

Before, on a malformed status line ``TransportError.__cause__`` was aiohttp's
``ClientResponseError``, whose ``request_info`` held the ``Authorization``
header (``Basic <base64 of the key>``, or the raw key with Bearer): it showed in
``%r`` logging of the cause, in ``vars()``, and in error trackers that dump
exception attributes.

Here every error the library raises, under every fault the emulator injects
(``emulator/_traffic/_faults.py``) and under hostile answers of a raw socket server
(malformed status lines, broken headers, bodies cut short, the key echoed
back), is walked: ``__cause__``, ``__context__``, ``args``, ``vars()``,
``__slots__``, ``__notes__``, mappings and sequences inside them (``history``,
``request_headers``...), recursively, with ``str`` and ``repr`` of everything
reached. Neither the key nor its Basic base64 form nor the header value may
appear anywhere. (Traceback frames are not walked: a frame of the client's own
code holds the client, as any caller's frame would.)
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import re
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import aiohttp
import attrs
import multidict
import pytest
import pytest_asyncio
import yarl

import route_planning_async as rp
from route_planning_async.emulator import Emulator
from route_planning_async.emulator._traffic._faults import Fault, FaultKind

KEY = "sk-live-5ecr3t-7f3a9c2e41d0"
AUTH_SCHEMES = ("basic", "bearer")


def key_forms(key: str = KEY) -> tuple[str, ...]:
    basic = base64.b64encode(f"{key}:".encode()).decode()
    return (key, basic, f"Basic {basic}", f"Bearer {key}")


# The walker ---------------------------------------------------------------------


def reachable_texts(root: object, max_depth: int = 12) -> Iterator[tuple[str, str]]:
    """``(path, text)`` for ``str`` and ``repr`` of everything reachable from ``root``."""
    seen: set[int] = set()
    stack: list[tuple[str, object, int]] = [("error", root, 0)]
    while stack:
        path, obj, depth = stack.pop()
        if obj is None or isinstance(obj, bool | int | float) or id(obj) in seen or depth > max_depth:
            continue
        seen.add(id(obj))
        if isinstance(obj, bytes | bytearray):
            yield path, obj.decode("latin-1")
            continue
        if isinstance(obj, str):
            yield path, obj
            continue
        yield path, repr(obj)
        yield path, str(obj)
        for name, child in _children(obj):
            stack.append((f"{path}{name}", child, depth + 1))


def _children(obj: object) -> Iterator[tuple[str, object]]:
    if isinstance(obj, BaseException):
        yield ".args", obj.args
        yield ".__cause__", obj.__cause__
        yield ".__context__", obj.__context__
        yield ".__notes__", getattr(obj, "__notes__", None)
    if isinstance(obj, Mapping | multidict.MultiDictProxy | multidict.CIMultiDictProxy):
        for key, value in obj.items():
            yield f"[{key!r}]", key
            yield f"[{key!r}]", value
        return
    if isinstance(obj, list | tuple | set | frozenset):
        for index, item in enumerate(obj):
            yield f"[{index}]", item
    if isinstance(obj, yarl.URL):
        return
    if attrs.has(type(obj)):
        for field in attrs.fields(type(obj)):
            yield f".{field.name}", getattr(obj, field.name, None)
    for cls in type(obj).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if isinstance(slot, str) and not slot.startswith("__"):
                yield f".{slot}", getattr(obj, slot, None)
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        for name, value in vars(obj).items():
            yield f".{name}", value


def assert_no_key(error: BaseException, forms: tuple[str, ...] = key_forms()) -> None:
    for path, text in reachable_texts(error):
        for form in forms:
            assert form not in text, f"the key is reachable at {path}: {text[:200]!r}"


def test_the_walker_finds_a_key_kept_the_way_aiohttp_keeps_it() -> None:
    # What the library raised before: a TransportError whose cause is aiohttp's error.
    info = aiohttp.RequestInfo(
        yarl.URL("http://127.0.0.1/public/v0.2b/plans/p1"),
        "GET",
        multidict.CIMultiDictProxy(multidict.CIMultiDict({"Authorization": key_forms()[2]})),
    )
    cause = aiohttp.ClientResponseError(info, (), status=400, message="Invalid status line")
    error = rp.TransportError("ClientResponseError", method="GET", request_url="u", maybe_sent=True)
    error.__cause__ = cause
    with pytest.raises(AssertionError, match=r"reachable at error.__cause__"):
        assert_no_key(error)
    with pytest.raises(AssertionError):
        # Even in a dump of the attributes alone.
        assert_no_key(rp.RoutePlanningError(vars(cause)))


def assert_redacted_transport_error(error: BaseException, attempts: int) -> None:
    assert isinstance(error, rp.TransportError)
    assert error.__cause__ is None
    assert error.__context__ is None or isinstance(error.__context__, rp.RoutePlanningError)
    assert error.attempts == attempts
    assert error.elapsed is not None
    assert error.elapsed >= 0
    assert f"after {attempts} attempt" in str(error)
    assert error.error_type is not None
    assert error.error_type.startswith(("aiohttp.", "builtins."))
    assert "authorization" not in {name.lower() for name in error.request_headers}
    for record in error.history:
        assert record.error is None or isinstance(record.error, rp.TransportError)


# Every fault of the emulator ------------------------------------------------------

STARTS = datetime.date(2026, 11, 23)

# Two attempts of anything retryable, no waits, a 429 raised at once.
RETRY = rp.RetryPolicy(attempts=2, base=0, cap=0, honour_retry_after=False, learning=None, max_wait=0)


@pytest_asyncio.fixture(params=AUTH_SCHEMES)
async def emulator(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Emulator, str]]:
    async with Emulator(api_key=KEY, speedup=1000, rate_limits=rp.RateLimits.unlimited(), seed=18) as emu:
        yield emu, request.param
    assert emu.internal_errors == []


CALLS: dict[str, Callable[[rp.RoutePlanningClient, str], Any]] = {
    "GET": lambda client, plan_id: client.plans.get(plan_id),
    "POST": lambda client, plan_id: client.plans.create(title="Leak", starts=STARTS),
    "PATCH": lambda client, plan_id: client.plans.update(plan_id, title="Still no leak"),
    "DELETE": lambda client, plan_id: client.plans.delete(plan_id),
}

# ``delay`` becomes an error through a client timeout shorter than the delay:
# 0.5 s against 1.5 s leaves a second of margin for a loaded machine either
# way. Its answers keep the emulator's shutdown waiting, so only one retried
# and one unretried method are tried.
DELAY, TIMEOUT = 1.5, 0.5
# ``hang`` and ``late_commit`` end with the emulator closing the connection,
# which the client (its timeout a minute) waits for: any delay takes that path.
HELD = 0.05
CASES = [
    (kind, method)
    for kind in FaultKind
    for method in sorted(CALLS)
    if kind is not FaultKind.DELAY or method in ("GET", "POST")
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("kind", "method"), CASES)
async def test_no_error_under_any_fault_reaches_the_key(
    emulator: tuple[Emulator, str], kind: FaultKind, method: str
) -> None:
    emu, auth = emulator
    async with emu.client(auth=auth) as setup:
        plan = await setup.plans.create(title="Target", starts=STARTS)
    timeout = TIMEOUT if kind is FaultKind.DELAY else 60.0
    async with emu.client(auth=auth, retry=RETRY, timeout=timeout) as client:
        emu.faults.add(Fault(kind, delay=DELAY if kind is FaultKind.DELAY else HELD))
        with pytest.raises(rp.RoutePlanningError) as info:
            await CALLS[method](client, plan.id)
        emu.faults.clear()
    error = info.value
    assert_no_key(error)
    if isinstance(error, rp.TransportError):
        # GET and DELETE are retried once after an attempt without an answer.
        assert_redacted_transport_error(error, 2 if method in ("GET", "DELETE") else 1)


@pytest.mark.asyncio
async def test_a_wrong_key_in_a_401_does_not_leak() -> None:
    wrong = "sk-live-wrong-0000000000"
    async with Emulator(api_key=KEY, speedup=1000, rate_limits=rp.RateLimits.unlimited()) as emu:
        async with emu.client(retry=RETRY) as right:
            plan = await right.plans.create(title="Target", starts=STARTS)
        for auth in AUTH_SCHEMES:
            async with rp.RoutePlanningClient(
                wrong, base_url=emu.base_url, ssl=emu.ssl_context, auth=auth, retry=RETRY
            ) as client:
                with pytest.raises(rp.AuthenticationError) as info:
                    await client.plans.get(plan.id)
            assert_no_key(info.value, key_forms(wrong) + key_forms())


# Hostile answers from a raw socket ------------------------------------------------------

HOSTILE: dict[str, Callable[[bytes], bytes]] = {
    "bad status code": lambda auth: b"HTTP/1.1 abc Broken\r\nContent-Length: 0\r\n\r\n",
    "status line echoing the key": lambda auth: b"HTTP/1.1 2x0 " + auth + b"\r\n\r\n",
    "not HTTP at all": lambda auth: b"SSH-2.0-OpenSSH_9.6 " + auth + b"\r\n\r\n",
    "header echoing the key without a colon": lambda auth: (
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" + auth + b"\r\n\r\n{}"
    ),
    "header with a NUL": lambda auth: (
        b"HTTP/1.1 200 OK\r\nX-A: " + auth + b"\x00\r\nContent-Length: 0\r\n\r\n"
    ),
    "body cut short": lambda auth: (
        b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"k": "' + auth
    ),
    "broken chunks": lambda auth: (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + auth + b"\r\n0\r\n\r\n"
    ),
    "closed without an answer": lambda auth: b"",
    "a JSON 400 quoting the key": lambda auth: _json_answer(b"400 Bad Request", auth),
    "a JSON 500 quoting the key": lambda auth: _json_answer(b"500 Internal Server Error", auth),
    "an error header quoting the key": lambda auth: (
        b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: " + auth + b"\r\nContent-Length: 0\r\n\r\n"
    ),
}


def _json_answer(status: bytes, auth: bytes) -> bytes:
    """A well-formed JSON error answer whose message and param echo the request's credentials."""
    body = b'{"message": "bad header ' + auth + b'", "code": "invalid_argument", "param": "' + auth + b'"}'
    head = b"HTTP/1.1 " + status + b"\r\nConnection: close\r\nContent-Type: application/json"
    head += b"\r\nContent-Length: "
    return head + str(len(body)).encode() + b"\r\n\r\n" + body


async def _read_request(reader: asyncio.StreamReader) -> bytes:
    """The request's ``Authorization`` value (its body, if any, is read and ignored)."""
    head = await reader.readuntil(b"\r\n\r\n")
    auth = b""
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"authorization":
            auth = value.strip()
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length:
        await reader.readexactly(length)
    return auth


@pytest.mark.asyncio
@pytest.mark.parametrize("auth_scheme", AUTH_SCHEMES)
@pytest.mark.parametrize("hostile", sorted(HOSTILE))
async def test_no_hostile_answer_reaches_the_key(hostile: str, auth_scheme: Any) -> None:
    seen: list[bytes] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            auth = await _read_request(reader)
            seen.append(auth)
            writer.write(HOSTILE[hostile](auth))
            await writer.drain()
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with rp.RoutePlanningClient(
            KEY,
            base_url=f"http://127.0.0.1:{port}/public/v0.2b",
            auth=auth_scheme,
            rate_limits=rp.RateLimits.unlimited(),
            retry=RETRY,
        ) as client:
            with pytest.raises(rp.RoutePlanningError) as info:
                await client.plans.get("p1")
    finally:
        server.close()
        await server.wait_closed()
    # The key did go out (so the errors had it within reach) ...
    assert seen
    assert all(any(form.encode() in auth for form in key_forms()) for auth in seen)
    # ... and it is nowhere in what was raised.
    error = info.value
    assert_no_key(error)
    if isinstance(error, rp.TransportError):
        # A GET is retried once after an answer it could not read.
        assert_redacted_transport_error(error, 2)
        assert len(seen) == 2


@pytest.mark.asyncio
async def test_a_malformed_status_line_keeps_a_redacted_copy_of_what_is_useful() -> None:
    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_request(reader)
        writer.write(b"HTTP/1.1 abc Broken\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with rp.RoutePlanningClient(
            KEY,
            base_url=f"http://127.0.0.1:{port}/public/v0.2b",
            rate_limits=rp.RateLimits.unlimited(),
            retry=rp.RetryPolicy(attempts=1),
        ) as client:
            with pytest.raises(rp.TransportError) as info:
                await client.plans.get("p1")
    finally:
        server.close()
        await server.wait_closed()
    error = info.value
    assert error.method == "GET"
    assert error.request_url == f"http://127.0.0.1:{port}/public/v0.2b/plans/p1"
    assert error.error_type == "aiohttp.ClientResponseError"
    assert error.status == 400
    assert error.maybe_sent
    assert error.request_headers["Accept"] == "application/json"
    assert "Authorization" not in error.request_headers
    assert error.__cause__ is None
    assert error.__context__ is None
    assert str(error).endswith("after 1 attempt over " + str(error).rsplit(" over ", 1)[1])
    assert_no_key(error)


def test_every_test_the_docs_security_section_names_exists() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "client.md").read_text(encoding="utf-8")
    section = page[page.index("## Security") :]
    named = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", section)
    assert len(named) >= 12
    root = Path(__file__).resolve().parents[2]
    for path, test in named:
        source = (root / path).read_text(encoding="utf-8")
        if test:
            assert re.search(rf"^(async )?def {test}\(", source, re.M), f"{path}::{test} is gone"
