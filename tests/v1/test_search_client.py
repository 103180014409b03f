"""The v1 stop search end to end: filters built in Python, sent by the client, answered by the emulator."""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from route_planning_async import BadRequestError, ValidationError
from route_planning_async.emulator import Emulator
from route_planning_async.v1 import (
    AddressInput,
    PlanInput,
    RecipientInput,
    RoutePlanningClient,
    Stop,
    StopInput,
    UnassignedStop,
    UnassignedStopInput,
)
from route_planning_async.v1.search import field

pytestmark = pytest.mark.asyncio


def _address(line: str) -> AddressInput:
    return AddressInput(address_line_one=line, city="London", latitude=51.5, longitude=-0.12)


@pytest_asyncio.fixture
async def client() -> AsyncIterator[RoutePlanningClient]:
    async with Emulator(speedup=1000) as emu, emu.client(api_version="v1") as client:
        drivers = await client.drivers.list().collect()
        plan = await client.plans.create(
            PlanInput(title="search", starts=datetime.date(2026, 6, 1), drivers=[drivers[0].id])
        )
        stops = [
            StopInput(
                address=_address("1 Gate Street"),
                recipient=RecipientInput(external_id="s-1"),
                notes="Gate code 1234",
                package_count=3,
                barcodes=["AB-1"],
            ),
            StopInput(
                address=_address("2 Park Road"),
                recipient=RecipientInput(external_id="s-2"),
                activity="pickup",
                package_count=1,
            ),
            StopInput(address=_address("3 Mill Lane"), recipient=RecipientInput(external_id="s-3")),
        ]
        assert (await client.stops.import_batch(plan.id, stops)).failed == []
        await client.unassigned_stops.create(
            UnassignedStopInput(
                address=_address("4 Gatehouse Row"), recipient=RecipientInput(external_id="u-1"), notes="gate"
            )
        )
        yield client
    assert emu.internal_errors == []


def _external_ids(hits: list[Stop | UnassignedStop]) -> list[str]:
    return [hit.recipient.external_id or "" for hit in hits]


async def test_a_built_filter_finds_what_it_says(client: RoutePlanningClient) -> None:
    gate = field("notes").contains("GATE")
    found = await client.stops.search(filter=gate, sort_field="packageCount").collect()
    assert _external_ids(found) == ["s-1", "u-1"]
    assert [type(hit) for hit in found] == [Stop, UnassignedStop]

    either = (field("activity") == "pickup") | gate & (field("packageCount") >= 3)
    assert sorted(_external_ids(await client.stops.search(filter=either).collect())) == ["s-1", "s-2"]
    grouped = ((field("activity") == "pickup") | gate) & (field("packageCount") >= 3)
    assert _external_ids(await client.stops.search(filter=grouped).collect()) == ["s-1"]
    assert _external_ids(await client.stops.search(filter=field("barcodes") == "AB-1").collect()) == ["s-1"]
    assert _external_ids(await client.stops.search(filter=field("notes").is_null()).collect()) == [
        "s-2",
        "s-3",
    ]


async def test_a_raw_filter_text_and_keywords_are_sent_as_written(client: RoutePlanningClient) -> None:
    text = 'recipient.externalId = "s-3" or recipient.externalId = "u-1"'
    assert sorted(_external_ids(await client.stops.search(filter=text).collect())) == ["s-3", "u-1"]
    by_keyword = await client.stops.search(keyword="gatehouse").collect()
    assert _external_ids(by_keyword)[0] == "u-1"
    by_size = await client.stops.search(
        sort_field="packageCount", sort_order="desc", max_page_size=2
    ).collect()
    assert _external_ids(by_size)[:2] == ["s-1", "s-2"]


async def test_a_bad_filter_is_refused_by_the_builder_or_by_the_service(client: RoutePlanningClient) -> None:
    with pytest.raises(ValidationError, match="cannot contain"):
        field("notes") == 'say "hi"'  # noqa: B015 - building it raises
    with pytest.raises(ValidationError, match="at most 2048 characters"):
        await client.stops.search(filter="x" * 2049).collect()
    with pytest.raises(BadRequestError) as caught:
        await client.stops.search(filter='colour = "red"').collect()
    assert caught.value.param == "filter"
    assert "unknown field 'colour' (at character 1)" in caught.value.message


# Hardening, fourth round: every text a search sends is checked before sending.

_LONE = "caf\udce9"  # "café" read as Latin-1 bytes with surrogateescape
_NOWHERE = "http://127.0.0.1:9/public/v1"  # never reached: every search here is refused first


@pytest.mark.parametrize(
    "search",
    [
        {"keyword": _LONE},
        {"filter": f'notes = "{_LONE}"'},
        {"page_token": _LONE},
    ],
)
async def test_a_search_text_with_a_lone_surrogate_is_refused_before_sending(search: dict[str, str]) -> None:
    # The search is refused when it is made: no paginator, so nothing can be sent.
    async with RoutePlanningClient("key", base_url=_NOWHERE) as client:
        with pytest.raises(ValidationError, match="cannot be encoded as UTF-8"):
            client.stops.search(**search)  # type: ignore[arg-type]


async def test_a_filter_nested_1200_deep_is_refused_before_sending() -> None:
    expression = field("packageCount") == 0
    for level in range(1200):
        other = field("packageCount") == level
        expression = (expression | other) if level % 2 else (expression & other)
    async with RoutePlanningClient("key", base_url=_NOWHERE) as client:
        with pytest.raises(ValidationError, match="at most 64 levels"):
            client.stops.search(filter=expression)


async def test_a_filter_text_nested_1000_deep_is_answered_400_at_the_first_attempt(
    client: RoutePlanningClient,
) -> None:
    text = "(" * 1000 + 'notes = "x"' + ")" * 1000
    with pytest.raises(BadRequestError) as caught:
        await client.stops.search(filter=text).collect()
    assert (caught.value.code, caught.value.param) == ("invalid_argument", "filter")
    assert list(caught.value.history) == []
