"""The GET the overhead benchmark compares: raw aiohttp's and the client's, at one concurrency.

Shared by the benchmark (``bench_overhead.py``, which times both calls) and the
child it runs under valgrind (``_instructions.py``, which counts their
instructions), so both measure the very same calls. ``bench_decode.py`` sends
the same raw header.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from route_planning_async import RoutePlanningClient

__all__ = ["CONCURRENCY", "get_calls", "raw_headers"]

CONCURRENCY = 16
"""GETs in flight at once, on both sides."""


def raw_headers(api_key: str) -> dict[str, str]:
    """What a raw aiohttp user sends: the Basic header of the contract."""
    return {"Authorization": "Basic " + base64.b64encode(f"{api_key}:".encode()).decode()}


def get_calls(
    session: aiohttp.ClientSession, client: RoutePlanningClient, base_url: str, api_key: str, plan_id: str
) -> tuple[Callable[[], Awaitable[Any]], Callable[[], Awaitable[Any]]]:
    """The two calls compared: raw aiohttp's GET of a plan (plus json.loads), and the client's."""
    url = f"{base_url}/{plan_id}"
    headers = raw_headers(api_key)

    async def raw_get() -> Any:
        async with session.get(url, headers=headers) as resp:
            body = await resp.read()
            if resp.status != 200:
                raise RuntimeError(f"raw GET answered {resp.status}")
            return json.loads(body)

    async def client_get() -> Any:
        return await client.plans.get(plan_id)

    return raw_get, client_get
