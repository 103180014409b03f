"""The network between client and service: a one-way delay with jitter, each way.

``EmulatorConfig.latency`` (real seconds, not sped up: it models the network, not
the service) plus a uniform draw in ``[0, latency_jitter]`` per direction and per
request, from a ``random.Random`` seeded by ``EmulatorConfig.seed``. The inbound
delay runs before anything else, so the request "arrives" (is counted by the rate
limiter, logged and handled) after it, as at a real service; the outbound delay
runs after the answer is made and before it is sent.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

__all__ = ["Link"]


class Link:
    """Delays each request on its way in and its answer on its way out."""

    def __init__(
        self,
        latency: float,
        jitter: float,
        seed: int,
        sleep: Callable[[float], Awaitable[object]],
    ) -> None:
        self.latency = latency
        """One-way delay, real seconds."""
        self.jitter = jitter
        """Up to this much more per direction, drawn uniformly."""
        self._rng = random.Random(f"link-{seed}")
        self._sleep = sleep

    @property
    def active(self) -> bool:
        """Whether the link delays anything."""
        return self.latency > 0 or self.jitter > 0

    def draw(self) -> float:
        """One one-way delay: ``latency`` plus a uniform share of ``jitter``."""
        return self.latency + (self._rng.uniform(0.0, self.jitter) if self.jitter > 0 else 0.0)

    async def inbound(self) -> None:
        """The request's way to the service."""
        if self.active:
            await self._sleep(self.draw())

    async def outbound(self) -> None:
        """The answer's way back."""
        if self.active:
            await self._sleep(self.draw())
