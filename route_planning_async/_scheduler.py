"""The rate-limit scheduler. (Placeholder: admits everything at once.)"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from route_planning_async._core import Request, Response
from route_planning_async._limits import Category, RateLimits
from route_planning_async._retry import RetryPolicy

__all__ = ["RateLimitBackend", "Scheduler", "SchedulerStats", "Send"]

Send = Callable[[Request], Awaitable[Response]]
SchedulerStats = Mapping[Category, object]


class RateLimitBackend(Protocol):
    """Where the sliding-window state lives."""


class Scheduler:
    """Admits every request into its category's limits, sends it, retries it."""

    def __init__(
        self, limits: RateLimits, retry: RetryPolicy, *, backend: RateLimitBackend | None = None
    ) -> None:
        self.limits = limits
        self.retry = retry

    @property
    def stats(self) -> SchedulerStats:
        return {}

    async def run(self, request: Request, send: Send) -> Response:
        """Wait for capacity, send, retry what may be retried; return the final answer."""
        return await send(request)

    async def aclose(self) -> None:
        """Release what the scheduler holds."""
