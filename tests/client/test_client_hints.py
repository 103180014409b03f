"""An error's hint fits the call that got it.

Before, ``plans.reoptimize`` on a plan without pending live changes raised
``PlanAlreadyOptimizedError`` hinting "use plans.reoptimize (after live
changes) instead": the very call the user had just made.
"""

from __future__ import annotations

import pytest
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp

pytestmark = pytest.mark.asyncio

ALREADY_OPTIMIZED = {"message": "Plan already optimized", "code": "plan_already_optimized"}


async def test_reoptimize_without_pending_changes_hints_at_the_live_changes_not_at_itself() -> None:
    service = FakeService()
    service.on("POST", "/plans/p1:reoptimize", answer(ALREADY_OPTIMIZED, status=409))
    async with scripted_client(service) as client:
        with pytest.raises(rp.PlanAlreadyOptimizedError) as info:
            await client.plans.reoptimize("p1")
    hint = info.value.hint()
    assert hint is not None
    assert "no pending live changes" in hint
    assert "use plans.reoptimize" not in str(info.value)
    assert str(info.value).endswith(hint)


async def test_optimize_of_an_optimized_plan_still_points_to_reoptimize() -> None:
    service = FakeService()
    service.on("POST", "/plans/p1:optimize", answer(ALREADY_OPTIMIZED, status=409))
    async with scripted_client(service) as client:
        with pytest.raises(rp.PlanAlreadyOptimizedError) as info:
            await client.plans.optimize("p1")
    assert "plans.reoptimize" in str(info.value)
    assert "no pending live changes" not in str(info.value)
