"""The bodies of a member create, import and update (v1: ``POST /members``,
``POST /members:import``, ``PATCH /members/<id>``).

A member is a person of the team who uses the dispatcher's tools, with a role;
its name, display name and depots, and the e-mail rule, are a driver's
(``_inputs/_drivers.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypedDict

import attrs

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import UNSET, UnsetType, one_of
from route_planning_async._docs import described, fields_documented
from route_planning_async._inputs import PersonFields, email_address

__all__ = ["MEMBER_ROLES", "MemberInput", "MemberUpdate", "MemberUpdateFields"]

MEMBER_ROLES: Final = frozenset({"admin", "depot-manager", "dispatcher", "read-only"})
"""The roles a member can be given (``owner`` and ``driver`` are read-only roles of the team)."""

_ROLE: Final = "``admin``, ``depot-manager``, ``dispatcher`` or ``read-only``"


def _linked_driver(value: str | UnsetType | None) -> str | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    return _ids.driver_ref(value, "linked_driver_id")


@fields_documented
@attrs.frozen(kw_only=True)
class MemberInput(PersonFields):
    """The body of a member create or batch import entry. The member's e-mail identifies
    it (``members.import_many`` uses it as the natural key).

    Keyword Args:
        name (str | None): Full name, 1 to 255 characters.
        display_name (str | None): Name shown in the apps, 1 to 255 characters.
        depots (list[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped);
            None: the team's main depot; not given: the main depot on a create, unchanged on an update.
        role (str): The member's role: ``admin``, ``depot-manager``, ``dispatcher`` or ``read-only``.
        email (str | None): E-mail address, 1 to 255 characters; set on create and import only.
        linked_driver_id (str | None): An existing driver to link the member to: ``drivers/<id>`` (a
            bare id accepted).
    """

    role: str = attrs.field(
        validator=one_of(MEMBER_ROLES, nullable=False), metadata=described(f"The member's role: {_ROLE}.")
    )
    email: str | UnsetType | None = attrs.field(
        default=UNSET,
        validator=email_address,
        metadata=described("E-mail address, 1 to 255 characters; set on create and import only."),
    )
    linked_driver_id: str | UnsetType | None = attrs.field(
        default=UNSET,
        converter=_linked_driver,
        metadata=described(
            "An existing driver to link the member to: ``drivers/<id>`` (a bare id accepted)."
        ),
    )


@fields_documented
@attrs.frozen(kw_only=True)
class MemberUpdate(PersonFields):
    """The body of a member PATCH: only the fields given are changed; ``depots`` is
    replaced whole. The e-mail and the linked driver cannot be changed.

    Keyword Args:
        name (str | None): Full name, 1 to 255 characters.
        display_name (str | None): Name shown in the apps, 1 to 255 characters.
        depots (list[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped);
            None: the team's main depot; not given: the main depot on a create, unchanged on an update.
        role (str | None): The member's role: ``admin``, ``depot-manager``, ``dispatcher`` or
            ``read-only``.
    """

    role: str | UnsetType | None = attrs.field(
        default=UNSET, validator=one_of(MEMBER_ROLES), metadata=described(f"The member's role: {_ROLE}.")
    )


class MemberUpdateFields(TypedDict, total=False):
    """The fields of :class:`MemberUpdate` as keyword arguments (``update(member_id, role=...)``),
    for the type checker: a misspelt or unknown field is an error before the code runs."""

    name: str | None
    display_name: str | None
    depots: Sequence[str] | None
    role: str | None
