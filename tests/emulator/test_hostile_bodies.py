"""Bodies an adversary sends: deep nesting and numbers of hundreds of digits get a 400 naming the
problem, never a 500 (which tells a client a write may have been applied)."""

from __future__ import annotations

import pytest

from .conftest import Api

pytestmark = pytest.mark.asyncio

JSON = {"Content-Type": "application/json"}
DEEP = b"[" * 5000 + b"]" * 5000
HUGE = "9" * 401


async def test_a_deeply_nested_body_is_a_400_naming_the_nesting(api: Api) -> None:
    plan = await api.plan()
    for path in ("/plans", f"/{plan['id']}/stops:import"):
        answer = await api.call("POST", path, data=b'{"title": ' + DEEP + b"}", headers=JSON)
        assert answer.status == 400, (path, answer.status, answer.body)
        assert answer.body["code"] == "invalid_json"
        assert "nests too deep" in answer.body["message"]


async def test_a_plan_year_or_a_package_count_of_401_digits_is_a_400(api: Api) -> None:
    starts = '{"day": 2, "month": 6, "year": ' + HUGE + "}"
    answer = await api.call(
        "POST", "/plans", data=b'{"title": "t", "starts": ' + starts.encode() + b"}", headers=JSON
    )
    assert answer.status == 400, answer.body
    assert "more than 64 digits" in answer.body["message"]
    plan = await api.plan()
    stop = '{"address": {"addressName": "1 Main St"}, "packageCount": ' + HUGE + "}"
    answer = await api.call(
        "POST", f"/{plan['id']}/stops:import", data=b"[" + stop.encode() + b"]", headers=JSON
    )
    assert answer.status == 400, answer.body
    assert "more than 64 digits" in answer.body["message"]
