"""Part 4: every answer of the emulator in a full workflow is valid under the official
response schemas.

For each version (its workflow in :data:`WORKFLOWS`), the library's client drives
a whole day (plans, stops, imports, unassigned stops, optimization, distribution,
live edits, re-optimization, a driven route, lists and errors) against the
emulator, at the version's base path, through a transport that records every
exchange. Each answer is then validated against the version's document for its
path, method and status. Nothing is filtered but the document's own listed defects
(``Version.validation``: ``KNOWN_DIFFERENCES`` with side "response").
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

import route_planning_async as rp
from route_planning_async._core import Request, Response, auth_header
from route_planning_async._transport import AiohttpTransport
from route_planning_async.emulator import Emulator, TeamConfig

from . import workflow_v0_2b, workflow_v1
from .schema import document
from .versions import VERSIONS, Version

pytestmark = pytest.mark.asyncio


class Recording:
    """A transport that keeps every exchange it carries."""

    def __init__(self, inner: AiohttpTransport) -> None:
        self.inner = inner
        self.exchanges: list[tuple[Request, Response]] = []

    async def send(self, request: Request) -> Response:
        response = await self.inner.send(request)
        self.exchanges.append((request, response))
        return response


def _template(version: Version, method: str, path: str) -> str:
    """The document's path template of a request path (``/plans/abc`` -> ``/plans/{planId}``)."""
    for template, methods in document(version.schema)["paths"].items():
        if method.lower() not in methods:
            continue
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/:]+", re.escape(template))
        if re.fullmatch(pattern, path):
            return template
    raise AssertionError(f"{method} {path} is not in the document")


@pytest.fixture(params=VERSIONS, ids=lambda version: version.name)
def version(request: pytest.FixtureRequest) -> Version:
    """Each version in turn."""
    chosen: Version = request.param
    return chosen


@pytest_asyncio.fixture
async def recorded(version: Version) -> AsyncIterator[tuple[Emulator, Any, Recording]]:
    team = TeamConfig(capacity_unit="kilogram")
    # Plans of up to 20 stops are optimized at once; a larger one takes an hour
    # (3.6 s sped up), so that its optimization can be canceled while it runs.
    slow_above_20: dict[str, Any] = {"instant_optimization_max_stops": 20, "optimization_delay": 3600.0}
    unlimited = rp.RateLimits.unlimited()
    async with Emulator(speedup=1000, rate_limits=unlimited, team=team, **slow_above_20) as emu:
        connector = aiohttp.TCPConnector(ssl=emu.ssl_context)
        async with aiohttp.ClientSession(connector=connector) as session:
            headers = {"Authorization": auth_header(emu.api_key, "basic")}
            base_url = emu.base_url_for(version.name)
            assert base_url == emu.origin + version.emulator_base_path
            inner = AiohttpTransport(session, base_url, headers, ssl_context=emu.ssl_context, timeout=None)
            recording = Recording(inner)
            async with version.client(
                emu.api_key,
                base_url=base_url,
                rate_limits=rp.RateLimits.unlimited(),
                retry=rp.RetryPolicy(attempts=1),
                transport=recording,
            ) as client:
                yield emu, client, recording
        assert emu.internal_errors == []


Workflow = Callable[[Emulator, Any], Awaitable[None]]
WORKFLOWS: dict[str, tuple[Workflow, tuple[tuple[str, str, int], ...]]] = {
    "v0.2b": (workflow_v0_2b.workflow, workflow_v0_2b.REACHED),
    "v1": (workflow_v1.workflow, workflow_v1.REACHED),
}
"""Per version: the workflow, and the answers (method, template, status) it must reach."""

PATCHED_DEFECTS: dict[str, list[str]] = {"v0.2b": ["error_one_of_overlap"], "v1": ["error_one_of_overlap"]}
"""Per version: the defects of its document that response validation patches."""


async def test_every_answer_of_a_full_workflow_is_official(
    version: Version, recorded: tuple[Emulator, Any, Recording]
) -> None:
    emu, client, recording = recorded
    workflow, reached = WORKFLOWS[version.name]
    await workflow(emu, client)
    seen: set[tuple[str, str, int]] = set()
    problems: list[str] = []
    for request, response in recording.exchanges:
        template = _template(version, request.method, request.path)
        body = json.loads(response.body) if response.body else None
        seen.add((request.method, template, response.status))
        for error in version.validation.response_errors(template, request.method, response.status, body):
            problems.append(f"{request.method} {request.path} -> {response.status}: {error}")
    assert problems == []
    # The workflow reached every kind of answer it is meant to check.
    assert len(recording.exchanges) > 30
    for answered in reached:
        assert answered in seen


async def test_only_defects_of_the_document_are_patched(version: Version) -> None:
    # The emulator follows the document's shapes; what validation patches is its defects.
    patched = [d.name for d in version.validation.KNOWN_DIFFERENCES if d.side == "response"]
    assert patched == PATCHED_DEFECTS[version.name]
