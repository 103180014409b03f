"""The team's members (v1): create, change, remove, import.

The team starts with no members made through the API. A member's e-mail is its
identity in the team: a create or an import entry whose e-mail a member already
has is refused (409, or a ``failed`` entry of the import), which is what makes a
repeated import harmless. A ``linkedDriverId`` must name a team driver (404
``Driver not found``) and every depot a depot of the team (422).
"""

from __future__ import annotations

from typing import Any

from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._store._collections import OrderedStore
from route_planning_async.emulator._store._records import MemberRecord
from route_planning_async.emulator._store._store import Imported, Store, import_each

__all__ = ["TeamMembers"]

_CONFLICT = (
    "The member could not be created because of a conflict, such as a member already existing with "
    "the same email."
)


class TeamMembers(Store):
    """The team's members, by bare id."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.members: OrderedStore[MemberRecord] = OrderedStore()
        """Members by bare id, in creation order."""

    def member(self, member_id: str) -> MemberRecord:
        """The member, or 404 ``Member not found``."""
        record = self.members.get(member_id)
        if record is None:
            raise Problem(404, "Member not found", None)
        return record

    def _check_member_refs(self, fields: dict[str, Any], prefix: str) -> None:
        driver_id = fields.get("linkedDriverId")
        if driver_id is not None and self._drivers.get(driver_id) is None:
            raise Problem.not_found("Driver not found", param=f"{prefix}linkedDriverId")
        for index, depot_id in enumerate(fields.get("depots") or ()):
            if depot_id not in self._depots:
                raise Problem(422, "Depot not found", None, f"{prefix}depots[{index}]")

    def _new_member(self, fields: dict[str, Any], prefix: str = "") -> MemberRecord:
        email = fields.get("email")
        if email is not None and any((m.email or "").lower() == email.lower() for m in self.members.values()):
            raise Problem(409, _CONFLICT, None, f"{prefix}email")
        self._check_member_refs(fields, prefix)
        record = MemberRecord(
            self.new_id(),
            fields["role"],
            name=fields.get("name"),
            email=email,
            display_name=fields.get("displayName"),
            linked_driver_id=fields.get("linkedDriverId"),
            depots=list(fields.get("depots") or ()),
        )
        self.members.add(record.id, record)
        return record

    def create_member(self, fields: dict[str, Any]) -> MemberRecord:
        """POST /members with a validated body."""
        return self._new_member(fields)

    def import_members(self, items: list[dict[str, Any]]) -> Imported[MemberRecord]:
        """POST /members:import: a member that fails is refused, the others go on."""
        return import_each(items, lambda index, fields: self._new_member(fields, f"[{index}]."))

    def update_member(self, member_id: str, fields: dict[str, Any]) -> MemberRecord:
        """PATCH /members/<id>: only the fields given change (a null role keeps the role)."""
        record = self.member(member_id)
        self._check_member_refs(fields, "")
        if "name" in fields:
            record.name = fields["name"]
        if "displayName" in fields:
            record.display_name = fields["displayName"]
        if fields.get("role") is not None:
            record.role = fields["role"]
        if "depots" in fields:
            record.depots = list(fields["depots"] or ())
        return record

    def delete_member(self, member_id: str) -> None:
        """DELETE /members/<id>."""
        self.member(member_id)
        self.members.remove(member_id)
