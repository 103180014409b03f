"""v1's depots and members: made, changed, made main, removed and imported."""

from __future__ import annotations

import pytest

from .conftest import V1Api

START = {"addressLineOne": "3 Mile End Road", "city": "London"}


def _depot(name: str, **overrides: object) -> dict[str, object]:
    return {
        "name": name,
        "routeOverrides": {"startAddress": START, "startTime": {"hour": 8, "minute": 0}, **overrides},
    }


@pytest.mark.asyncio
async def test_a_depot_is_made_changed_and_removed(api: V1Api) -> None:
    depot = await api.ok(
        "POST", "/depots", _depot("East", endTime={"hour": 17, "minute": 0}, roadSide="left_only")
    )
    overrides = depot["routeOverrides"]
    assert overrides["endTime"] == {"hour": 17, "minute": 0}
    assert overrides["roadSide"] == "left_only"
    assert overrides["startAddress"]["addressLineOne"] == "3 Mile End Road"
    moved = await api.ok(
        "PATCH",
        f"/{depot['id']}",
        {
            "routeOverrides": {
                "startAddress": {"addressLineOne": "4 Bow Road"},
                "startTime": {"hour": 9, "minute": 0},
            }
        },
    )
    assert moved["name"] == "East"
    assert moved["routeOverrides"]["startAddress"]["addressLineOne"] == "4 Bow Road"
    assert (await api.ok("GET", f"/{depot['id']}"))["routeOverrides"]["startTime"] == {"hour": 9, "minute": 0}
    assert (await api.checked("DELETE", f"/{depot['id']}")).status == 204
    assert (await api.checked("GET", f"/{depot['id']}")).status == 404


@pytest.mark.asyncio
async def test_the_main_depot_and_a_depot_in_use_cannot_be_removed(api: V1Api) -> None:
    main = await api.checked("DELETE", "/depots/main")
    assert main.status == 400
    assert main.body["message"] == "Depot cannot be deleted"
    await api.ok(
        "POST",
        "/plans",
        {"title": "North", "starts": {"day": 2, "month": 3, "year": 2026}, "depot": "depots/north"},
    )
    assert (await api.checked("DELETE", "/depots/north")).status == 400
    assert (await api.checked("POST", "/depots/nowhere:setMain")).status == 404


@pytest.mark.asyncio
async def test_depot_bodies_are_checked(api: V1Api) -> None:
    missing = await api.checked("POST", "/depots", {"name": "No overrides"})
    assert (missing.status, missing.body["param"]) == (400, "routeOverrides")
    no_time = await api.checked("POST", "/depots", {"name": "X", "routeOverrides": {"startAddress": START}})
    assert (no_time.status, no_time.body["param"]) == (400, "routeOverrides.startTime")
    bad = await api.checked("POST", "/depots:import", [_depot("A"), _depot("B", roadSide="middle")])
    assert (bad.status, bad.body["param"]) == (400, "[1].routeOverrides.roadSide")


@pytest.mark.asyncio
async def test_a_depot_import_refuses_what_cannot_be_placed_and_stores_the_rest(api: V1Api) -> None:
    marker = api.emu.config.ungeocodable_marker
    lost = _depot("Lost", startAddress={"addressLineOne": f"{marker} nowhere"})
    answer = await api.ok("POST", "/depots:import", [_depot("Found"), lost])
    assert len(answer["success"]) == 1
    assert answer["failed"][0]["depot"]["name"] == "Lost"


@pytest.mark.asyncio
async def test_members_are_made_changed_removed_and_imported_once_by_e_mail(api: V1Api) -> None:
    member = await api.ok(
        "POST",
        "/members",
        {
            "role": "depot-manager",
            "email": "mo@example.com",
            "name": "Mo",
            "linkedDriverId": "drivers/driver-ana",
            "depots": ["depots/north"],
        },
    )
    assert member["linkedDriverId"] == "drivers/driver-ana"
    assert member["depots"] == ["depots/north"]
    taken = await api.checked("POST", "/members", {"role": "admin", "email": "MO@example.com"})
    assert taken.status == 409
    unknown = await api.checked("POST", "/members", {"role": "admin", "linkedDriverId": "drivers/nobody"})
    assert unknown.status == 404
    bad_role = await api.checked("POST", "/members", {"role": "owner"})
    assert (bad_role.status, bad_role.body["param"]) == (400, "role")
    changed = await api.ok("PATCH", f"/{member['id']}", {"displayName": "M", "role": None})
    assert (changed["displayName"], changed["roles"]) == ("M", ["depot-manager"])
    imported = await api.ok(
        "POST",
        "/members:import",
        [
            {"role": "dispatcher", "email": "mo@example.com"},
            {"role": "dispatcher", "email": "zo@example.com"},
        ],
    )
    assert len(imported["success"]) == 1
    assert imported["failed"][0]["member"]["email"] == "mo@example.com"
    assert (await api.checked("DELETE", f"/{member['id']}")).status == 204
    assert (await api.checked("DELETE", f"/{member['id']}")).status == 404
    assert (await api.checked("PATCH", f"/{member['id']}", {"name": "Gone"})).status == 404


@pytest.mark.asyncio
async def test_a_member_without_depots_works_at_the_main_depot_and_keeps_them_when_not_sent(
    api: V1Api,
) -> None:
    # The v1 document: "If set to null or not provided, the team's Main depot will be set".
    member = await api.ok("POST", "/members", {"role": "dispatcher", "email": "lu@example.com"})
    assert member["depots"] == ["depots/main"]
    moved = await api.ok("PATCH", f"/{member['id']}", {"depots": ["depots/north"]})
    assert moved["depots"] == ["depots/north"]
    # A PATCH without depots changes only what it sends; a null depots is the main depot again.
    assert (await api.ok("PATCH", f"/{member['id']}", {"name": "Lu"}))["depots"] == ["depots/north"]
    assert (await api.ok("PATCH", f"/{member['id']}", {"depots": None}))["depots"] == ["depots/main"]
    imported = await api.ok("POST", "/members:import", [{"role": "dispatcher", "email": "ki@example.com"}])
    # v1 reads a member only in the answer of a change: one that leaves depots alone.
    assert (await api.ok("PATCH", f"/{imported['success'][0]}", {"name": "Ki"}))["depots"] == ["depots/main"]
