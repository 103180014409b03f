"""Fixtures for the emulator's v1 tests: raw HTTP calls below ``/public/v1`` and ``/public/v0.2b``.

The tests speak HTTP through aiohttp directly (never through the library's client);
every answer of :meth:`V1Api.checked` is validated against the official v1 document.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import attrs
import pytest_asyncio

from emulator.openapi import V0_2B, V1
from route_planning_async.emulator import Emulator
from route_planning_async.emulator.v1._routes import ROUTE_TABLE

__all__ = ["Answer", "V1Api", "template_of"]

_UNSET: Any = object()

_TEMPLATES = sorted(V1.document()["paths"], key=len, reverse=True)


def template_of(path: str) -> str:
    """The v1 document's path template a concrete path (without its query) matches."""
    path = path.split("?", 1)[0]
    for template in _TEMPLATES:
        pattern = re.sub(r"\\\{\w+\\\}", "[^/:]+", re.escape(template))
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"no v1 path template matches {path}")


@attrs.frozen
class Answer:
    """One HTTP answer."""

    status: int
    body: Any
    headers: Mapping[str, str]


class V1Api:
    """Raw HTTP calls to one emulator, below either version's base path."""

    def __init__(self, session: aiohttp.ClientSession, emulator: Emulator) -> None:
        self.session = session
        self.emu = emulator
        auth = base64.b64encode(f"{emulator.api_key}:".encode()).decode()
        self._auth = {"Authorization": f"Basic {auth}"}
        self.seen: set[str] = set()
        """The names of the v1 routes answered through :meth:`checked`."""

    async def call(
        self, method: str, path: str, body: Any = _UNSET, *, version: str = "v1", params: Any = None
    ) -> Answer:
        """``method`` ``base_url_for(version) + path``; ``body`` is sent as JSON."""
        headers = dict(self._auth)
        data = None
        if body is not _UNSET:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        url = self.emu.base_url_for(version) + path
        async with self.session.request(
            method, url, data=data, headers=headers, params=params, ssl=self.emu.ssl_context
        ) as response:
            raw = await response.read()
            parsed = json.loads(raw) if raw else None
            return Answer(response.status, parsed, response.headers)

    async def checked(self, method: str, path: str, body: Any = _UNSET, **kwargs: Any) -> Answer:
        """The v1 call, its answer validated against the v1 document."""
        answer = await self.call(method, path, body, **kwargs)
        V1.validate_response(template_of(path), method, answer.status, answer.body)
        self.seen.add(ROUTE_TABLE.match(method, path.split("?", 1)[0])[0].name)
        return answer

    async def ok(self, method: str, path: str, body: Any = _UNSET, **kwargs: Any) -> Any:
        """The v1 call's JSON body, validated, asserting a 2xx answer."""
        answer = await self.checked(method, path, body, **kwargs)
        assert 200 <= answer.status < 300, (answer.status, answer.body)
        return answer.body

    async def v0(self, method: str, path: str, template: str, body: Any = _UNSET) -> Any:
        """The v0.2b call's JSON body, validated against the v0.2b document, asserting a 2xx."""
        answer = await self.call(method, path, body, version="v0.2b")
        V0_2B.validate_response(template, method, answer.status, answer.body)
        assert 200 <= answer.status < 300, (answer.status, answer.body)
        return answer.body


@pytest_asyncio.fixture
async def api(emu: Emulator) -> AsyncIterator[V1Api]:
    """Raw HTTP calls to the running emulator."""
    async with aiohttp.ClientSession() as session:
        yield V1Api(session, emu)
