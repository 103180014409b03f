"""Per-request latency on the client side, from aiohttp's tracing hooks."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import aiohttp


class Latencies:
    """Start and end (``time.monotonic``, the emulator's clock) of every request of a session."""

    def __init__(self) -> None:
        self.records: list[tuple[str, str, float, float]] = []
        """(method, url, start, end) of each finished request."""
        self.config = aiohttp.TraceConfig()
        self.config.on_request_start.append(self._start)
        self.config.on_request_end.append(self._end)

    async def _start(self, session: Any, ctx: SimpleNamespace, params: Any) -> None:
        ctx.started = time.monotonic()

    async def _end(self, session: Any, ctx: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
        self.records.append((params.method, str(params.url), ctx.started, time.monotonic()))

    def clear(self) -> None:
        """Forget what was recorded (setup traffic)."""
        self.records.clear()

    def durations(self, suffix: str = "") -> list[float]:
        """Seconds of each request whose URL path ends with ``suffix``."""
        return [end - start for _, url, start, end in self.records if url.split("?")[0].endswith(suffix)]

    def last_started(self, suffix: str = "") -> tuple[float, float] | None:
        """(start, end) of the request (path ending with ``suffix``) that started last."""
        chosen = [(s, e) for _, url, s, e in self.records if url.split("?")[0].endswith(suffix)]
        return max(chosen) if chosen else None

    def session(self, limit: int = 100) -> aiohttp.ClientSession:
        """A session with these hooks and the library's pool size."""
        return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=limit), trace_configs=[self.config])
