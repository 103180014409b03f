"""The batch rules of v1's own imports: depots and members (the stop and driver batches,
the depot of an unassigned stop import and ``:reoptimize`` are every version's,
``route_planning_async/_inputs/_requests.py``)."""

from __future__ import annotations

from route_planning_async._inputs import check_items
from route_planning_async.v1._inputs._depots import DepotInput
from route_planning_async.v1._inputs._limits import MAX_DEPOT_IMPORT_BATCH, MAX_MEMBER_IMPORT_BATCH
from route_planning_async.v1._inputs._members import MemberInput

__all__ = ["check_depot_batch", "check_member_batch"]


def check_depot_batch(depots: object, field: str = "depots") -> list[DepotInput]:
    """The depots of a batch import as a list: 1 to 100, each a :class:`DepotInput`
    (``POST /depots:import``)."""
    return check_items(depots, DepotInput, field, MAX_DEPOT_IMPORT_BATCH, "depots")


def check_member_batch(members: object, field: str = "members") -> list[MemberInput]:
    """The members of a batch import as a list: 1 to 50, each a :class:`MemberInput`
    (``POST /members:import``)."""
    return check_items(members, MemberInput, field, MAX_MEMBER_IMPORT_BATCH, "members")
