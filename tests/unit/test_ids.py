"""Resource ids (``_ids.py``): parsed, checked, and never able to break a URL."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from route_planning_async import ValidationError
from route_planning_async._checks._ids import (
    bare_id,
    depot_id,
    depot_ref,
    driver_ref,
    operation_id,
    plan_id,
    stop_ref,
    unassigned_stop_id,
)

UNSAFE = ["../etc", "a?b", "a#b", "", "x" * 51, "a b", "é", "a/b"]
"""Values no id may be: path steps, query and fragment marks, bad lengths, non-ASCII."""


@pytest.mark.parametrize("bad", [*UNSAFE, "plans/a/b"])
def test_ids_that_could_break_a_url_are_refused(bad: str) -> None:
    with pytest.raises(ValidationError):
        plan_id(bad)


def test_plan_ids_are_accepted_bare_or_serialized() -> None:
    assert plan_id("plans/Ab_9-x") == plan_id("Ab_9-x") == "Ab_9-x"


def test_the_longest_id_is_50_characters() -> None:
    assert bare_id("x" * 50, "id") == "x" * 50
    with pytest.raises(ValidationError, match="1 to 50 letters"):
        bare_id("x" * 51, "id")


@pytest.mark.parametrize(
    ("parse", "collection", "field"),
    [
        (plan_id, "plans", "plan_id"),
        (operation_id, "operations", "operation_id"),
        (unassigned_stop_id, "unassignedStops", "unassigned_stop_id"),
        (depot_id, "depots", "depot_id"),
    ],
)
def test_collection_ids_come_out_bare(parse: Callable[[object], str], collection: str, field: str) -> None:
    assert parse(f"{collection}/a1") == "a1"
    assert parse("a1") == "a1"
    # The prefix of another collection is not stripped: it is not a valid id.
    with pytest.raises(ValidationError) as caught:
        parse("routes/a1")
    assert caught.value.field == field
    with pytest.raises(ValidationError) as caught:
        parse(f"{collection}/")
    assert caught.value.field == field


@pytest.mark.parametrize("bad", UNSAFE)
def test_depot_ids_are_checked_like_every_other_id(bad: str) -> None:
    with pytest.raises(ValidationError, match="1 to 50 letters"):
        depot_id(bad)
    with pytest.raises(ValidationError, match="1 to 50 letters"):
        depot_id(f"depots/{bad}")


def test_a_depot_id_names_the_argument_it_came_from() -> None:
    assert depot_id("depots/d-1", "depot") == "d-1"
    with pytest.raises(ValidationError) as caught:
        depot_id("depots/x/y", "serialized_id")
    assert caught.value.field == "serialized_id"
    assert caught.value.rule == "must be 1 to 50 letters, digits, '-' or '_', got 'depots/x/y'"


@pytest.mark.parametrize("value", [None, 7, b"d1", ["d1"]])
def test_ids_that_are_not_strings_are_refused(value: object) -> None:
    for parse in (plan_id, depot_id, operation_id, unassigned_stop_id):
        with pytest.raises(ValidationError):
            parse(value)


def test_references_for_bodies_get_their_collection_prefix() -> None:
    assert driver_ref("d1") == driver_ref("drivers/d1") == "drivers/d1"
    assert depot_ref("d1") == depot_ref("depots/d1") == "depots/d1"
    # depot_id is depot_ref without the prefix.
    assert depot_ref("depots/d1") == "depots/" + depot_id("depots/d1")
    with pytest.raises(ValidationError) as caught:
        driver_ref("depots/d1", "allowed_drivers[2]")
    assert caught.value.field == "allowed_drivers[2]"


def test_stop_ids_must_be_serialized() -> None:
    assert stop_ref("plans/p1/stops/s1") == ("p1", "s1")
    with pytest.raises(ValidationError, match="plans/<planId>/stops/<stopId>"):
        stop_ref("s1")
    with pytest.raises(ValidationError, match="plans/<planId>/stops/<stopId>"):
        stop_ref("plans/p1/stop/s1")
    with pytest.raises(ValidationError):
        stop_ref("plans/p1/stops/../x")
    with pytest.raises(ValidationError) as caught:
        stop_ref("plans/p 1/stops/s1")
    assert caught.value.field == "stop_id"
