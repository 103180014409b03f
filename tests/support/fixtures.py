"""The JSON fixtures of ``tests/fixtures`` and a client on a scripted service."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import route_planning_async as rp
from support.fake_transport import FakeService

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
"""Answers of the service, one JSON file each (``plan.json``, ``stop.json``, ...)."""

BASE_URL = "https://api.example.test/public/v0.2b"
"""The base URL of the scripted clients: nothing listens there."""


def load(name: str) -> Any:
    """The parsed JSON of ``tests/fixtures/<name>``."""
    return json.loads((FIXTURES / name).read_text())


@asynccontextmanager
async def scripted_client(
    service: FakeService, api_key: str = "test-key", *, client: Callable[..., Any] = rp.RoutePlanningClient
) -> AsyncIterator[Any]:
    """A client without limits or retries whose every request goes to ``service``.

    ``client`` is the client class (a version's ``RoutePlanningClient``; v0.2b's by
    default). On a clean exit, checks that nothing unscripted was asked for and that
    every scripted answer was.
    """
    async with client(
        api_key,
        base_url=BASE_URL,
        rate_limits=rp.RateLimits.unlimited(),
        retry=rp.RetryPolicy(attempts=1),
        transport=service,
    ) as opened:
        yield opened
    service.assert_done()
