"""v1 team members (``client.members``): create, change, delete, import."""

from __future__ import annotations

from collections.abc import AsyncIterable, Iterable, Sequence
from typing import Unpack

from route_planning_async._checks import _ids
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

        Keyword Args:
            name (str | None): Full name, 1 to 255 characters.
            display_name (str | None): Name shown in the apps, 1 to 255 characters.
            depots (Sequence[str] | None): 1 to 50 ``depots/<id>`` (bare ids accepted, duplicates dropped);
                None: the team's main depot; not given: the main depot on a create, unchanged on an update.
            role (str | None): The member's role: ``admin``, ``depot-manager``, ``dispatcher`` or
                ``read-only``.

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

        Keyword Args:
            on_progress (ProgressCallback | None): Called (synchronously) with an :class:`ImportProgress`
                each time a batch finishes, and once more with ``final=True`` at the end, also when the
                import is cancelled or raises. Default None.
            keep_ids (bool): Keep the ids of the created members (packed, a few bytes each); False keeps
                only counts and failures. Default True.
            at_least_once (bool): Resend a batch whose outcome is ambiguous even when its members have no
                key (email) to look them up by; they may be duplicated. Default False.
            batch_size (int | None): How many members one request carries, 1 to 50 (and at most a weighted
                rule's amount); None: 50. Default None.
            max_in_flight (int | None): Batches sent concurrently; None: as many as one window of each
                ``member_import`` rule admits (at least 2, at most 32). Default None.
            max_resends (int): How many times the members of one batch are sent again after ambiguous
                failures. Default 3.
            settle_delay (float): Seconds to wait, after a request got no answer, before looking up its
                members; also the least wait before the late-commit check. Default 2.0.
            max_failed_batches (int | None): Stop reading the input after this many batches in a row were
                rejected as a whole (4xx): the import then raises that error. None never stops. A 401, or
                another error every batch would get, stops it at once. Default 3.
            skip_existing (bool): Read the keys (email) already in the collection once, paging through it,
                and send only the rows whose key is not there: they are reported ``skipped``. Resumes an
                interrupted import. Default False.
            allow_duplicate_keys (bool): Accept two rows with the same key (email); such rows are then
                imported as if they had no key (no lookup, no skip). Otherwise the import raises
                :class:`~route_planning_async.ValidationError` naming both positions before anything is
                sent. Default False.
            dedupe (bool): Delete the extra members that the late-commit check finds (a key stored twice),
                keeping the one the report names; otherwise they are only reported in
                :attr:`ImportReport.duplicates`. Never for a key two rows may share: past a stream's first
                100,000 keyed rows, whose keys are not checked for repeats, duplicates are reported, not
                deleted. Default False.
            deadline (float | datetime.datetime | None): Seconds from the start, or an aware absolute time:
                then nothing more is sent, requests in flight are abandoned (``unknown``), rows never sent
                are ``not_created``, and the report is returned. Default None.
            max_transport_failures (int | None): The breaker: after this many transport failures in a row
                (timeouts, refused or lost connections), stop sending and looking up; the report is returned
                with the rest ``not_created`` and the ambiguous ``unknown``. None never trips. Default 5.
            stop_event (asyncio.Event | None): When set, no new batch is sent: the batches whose request is
                on the wire finish, the rest is ``not_created``, and the report is returned. Default None.

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
