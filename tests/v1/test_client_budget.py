"""A v0.2b client and a v1 client of one key share one budget in one process:
one rate-limit backend, one set of limits, every window kept across both."""

from __future__ import annotations

import asyncio

from support.fake_transport import FakeService, answer
from support.virtual_time import run_virtual

from route_planning_async import InMemoryBackend, RateLimits, RetryPolicy, Rule
from route_planning_async import RoutePlanningClient as V02bClient
from route_planning_async._core import Request, Response
from route_planning_async._rate_limits._limits import Category
from route_planning_async.v1 import RoutePlanningClient as V1Client

PLAN = {"id": "plans/p1", "title": "Monday", "starts": {"day": 23, "month": 11, "year": 2026}}


class Clocked(FakeService):
    """A scripted service that notes the loop's time of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[tuple[float, str]] = []

    async def send(self, request: Request) -> Response:
        self.times.append((asyncio.get_running_loop().time(), request.category.value))
        return await super().send(request)


def test_a_v0_2b_and_a_v1_client_share_one_budget_through_one_backend() -> None:
    limits = RateLimits.public_docs().replace(Category.READ, Rule(3, 1.0))
    backend = InMemoryBackend()
    old, new = Clocked(), Clocked()
    old.on("GET", "/plans/p1", forever=answer(PLAN))
    new.on("GET", "/depots/d1", forever=answer({"id": "depots/d1", "name": "North"}))
    settings = {"rate_limits": limits, "retry": RetryPolicy(attempts=1), "rate_limit_backend": backend}

    async def main() -> None:
        async with (
            V02bClient(
                "one-key", base_url="https://api.example.test/public/v0.2b", transport=old, **settings
            ) as v0,
            V1Client(
                "one-key", base_url="https://api.example.test/public/v1", transport=new, **settings
            ) as v1,
        ):
            await asyncio.gather(
                *(v0.plans.get("p1") for _ in range(6)), *(v1.depots.get("d1") for _ in range(6))
            )

    run_virtual(main)
    times = sorted(at for at, _ in old.times + new.times)
    assert len(times) == 12
    # Together, never more than 3 reads in any second: 12 reads take until t=3.
    for index in range(3, len(times)):
        assert times[index] - times[index - 3] >= 1.0 - 1e-9
    assert max(times) == 3.0
    # Each client alone would have finished its 6 reads by t=1.
    assert max(at for at, _ in old.times) > 1.0 or max(at for at, _ in new.times) > 1.0


def test_both_versions_name_the_same_categories_for_what_they_share() -> None:
    from route_planning_async.v0_2b._endpoints import ENDPOINTS as V02B
    from route_planning_async.v1._endpoints import ENDPOINTS as V1

    shared = set(V02B) & set(V1)
    assert len(shared) == 40  # v0.2b has 40 operations; v1 all of them and 12 more
    assert all(V02B[name].category is V1[name].category for name in shared)
