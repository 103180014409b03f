"""v1 team members (``client.members``): create, change, delete, import."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Sequence
from typing import Unpack

from route_planning_async import _ids
from route_planning_async._client import checked
from route_planning_async._core import Request
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._import import ImportOptions, ImportReport, options_documented, run_import
from route_planning_async.v1._converter import unstructure
from route_planning_async.v1._import_targets import MEMBER_ROWS, MembersTarget
from route_planning_async.v1._inputs import MemberInput, MemberUpdate, MemberUpdateFields, check_member_batch
from route_planning_async.v1._models import Member, MemberImportResult
from route_planning_async.v1.resources._common import V1Namespace


class Members(V1Namespace):
    """v1 members of the team: dispatchers, depot managers, admins (``client.members``).

    The v1 document has no call that reads members back; writes are in the
    write category, the import in a category of its own (``member_import``).
    """

    __slots__ = ()

    async def create(self, member: MemberInput) -> Member:
        """Add a member from a :class:`MemberInput` (its role is required).

        Args:
            member: The member.

        Returns:
            The new :class:`Member`.
        """
        body = unstructure(checked(member, MemberInput, "member"))
        return await self._fetch(self._endpoint("members.create").request(json=body), Member)

    @keywords_documented(keywords_of(MemberUpdate, types=MemberUpdateFields))
    async def update(
        self, member_id: str, update: MemberUpdate | None = None, /, **fields: Unpack[MemberUpdateFields]
    ) -> Member:
        """Change a member's ``name``, ``display_name``, ``role`` or ``depots`` (``PATCH``).

        Args:
            member_id: ``members/<id>`` or ``<id>``.
            update: A :class:`MemberUpdate`; or give its fields as keywords (not both).

        Returns:
            The changed :class:`Member`.
        """
        body = unstructure(self._table.update(MemberUpdate, update, fields))
        return await self._fetch(
            self._endpoint("members.update").request(_path(member_id), json=body), Member
        )

    async def delete(self, member_id: str) -> None:
        """Remove a member from the team (204).

        Args:
            member_id: ``members/<id>`` or ``<id>``.
        """
        await self._client._execute(self._endpoint("members.delete").request(_path(member_id)))

    async def import_batch(self, members: Sequence[MemberInput]) -> MemberImportResult:
        """Import 1 to 50 members in one request (``member_import`` category).

        Args:
            members: The members.

        Returns:
            The :class:`MemberImportResult`: the new ids, and the members refused with why.
        """
        return await self._fetch(self._import_request(members), MemberImportResult)

    def _import_request(self, members: Sequence[MemberInput]) -> Request:
        items = check_member_batch(members)
        return self._endpoint("members.import_batch").request(json=[unstructure(item) for item in items])

    @options_documented(MEMBER_ROWS)
    async def import_many(
        self, members: Iterable[MemberInput] | AsyncIterable[MemberInput], **options: Unpack[ImportOptions]
    ) -> ImportReport[MemberInput]:
        """Import any number of members in batches of up to 50, each exactly once where it
        can be: the natural key is the e-mail (without case). Members cannot be listed in
        v1, so a batch whose answer was lost cannot be looked up: its rows are reported
        ``unknown`` rather than sent twice.

        Args:
            members: :class:`MemberInput` objects, an iterable or an async iterable (read lazily).

        Returns:
            An :class:`ImportReport` with ``members/<id>`` ids.

        Raises:
            ValidationError: A bad option or row (``members[<position>]``), before it is sent.
        """
        client = self._client
        return await run_import(
            MembersTarget(self), members, limits=client.rate_limits, clock=client._clock, **options
        )


def _path(member_id: str) -> dict[str, str]:
    return {"member": _ids.member_id(member_id)}
