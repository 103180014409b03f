"""A scripted :class:`~route_planning_async.Transport` for tests that need no socket.

``FakeService`` answers each ``(method, path)`` from a script of answers given
with :meth:`FakeService.on`, in order, and records every request it receives.
A request nobody scripted, or one more than the script holds, fails loudly: it
raises ``AssertionError`` at the call (which reaches the caller, since the
scheduler retries only transport errors and answers) and is kept in
``unexpected``, which :meth:`FakeService.assert_done` checks at the end of the
test, so an error swallowed on the way still fails the test.

It runs on any aiohttp version and on the virtual-time loop
(``support.virtual_time``): an answer can take ``latency`` seconds of the
loop's clock.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from route_planning_async._core import Request, Response

Answer = Response | Callable[[Request], Response]
"""A ready answer, or a function of the request that makes one (it may raise)."""


def answer(body: Any = None, *, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """A JSON answer (no body for ``None``)."""
    raw = b"" if body is None else json.dumps(body).encode()
    given = {"Content-Type": "application/json"} if body is not None else {}
    return Response(status, {**given, **(headers or {})}, raw)


@attrs.frozen
class Sent:
    """One request as the service received it, its body decoded."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    body: Any
    weight: int

    @classmethod
    def of(cls, request: Request) -> Sent:
        body = None if request.body is None else json.loads(request.body)
        return cls(request.method, request.path, request.query, body, request.weight)


class FakeService:
    """Answers scripted per ``(method, path)``; fails loudly on anything else."""

    def __init__(self, *, latency: float = 0.0) -> None:
        self.latency = latency
        """Seconds (of the running loop's clock) each answer takes."""
        self.requests: list[Request] = []
        """Every request received, in order."""
        self.unexpected: list[str] = []
        """What was received without a scripted answer."""
        self._script: dict[tuple[str, str], deque[Answer]] = {}
        self._forever: dict[tuple[str, str], Answer] = {}

    def on(self, method: str, path: str, *answers: Answer, forever: Answer | None = None) -> FakeService:
        """Script the answers to ``method path`` (path without the query), in order;
        ``forever`` answers every request after them."""
        self._script.setdefault((method, path), deque()).extend(answers)
        if forever is not None:
            self._forever[(method, path)] = forever
        return self

    @property
    def sent(self) -> list[Sent]:
        """Every request received, decoded."""
        return [Sent.of(request) for request in self.requests]

    def sent_to(self, method: str, path: str) -> list[Sent]:
        """The requests received for one ``method path``."""
        return [s for s in self.sent if (s.method, s.path) == (method, path)]

    async def send(self, request: Request) -> Response:
        self.requests.append(request)
        if self.latency:
            await asyncio.sleep(self.latency)
        key = (request.method, request.path)
        queued = self._script.get(key)
        if queued:
            scripted = queued.popleft()
        elif key in self._forever:
            scripted = self._forever[key]
        else:
            self.unexpected.append(request.describe())
            raise AssertionError(f"unexpected request: {request.describe()} {request.query}")
        return scripted(request) if callable(scripted) else scripted

    def assert_done(self) -> None:
        """No unexpected request came, and every scripted answer was used."""
        assert self.unexpected == []
        left = {f"{method} {path}": len(queue) for (method, path), queue in self._script.items() if queue}
        assert left == {}, f"scripted answers never asked for: {left}"
