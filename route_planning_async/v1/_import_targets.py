"""Where the bulk importer sends v1's batches: the shared import targets
(``route_planning_async/_import_targets.py``) with v1's inputs, and v1's own:
depots (keyed by name) and members (keyed by e-mail).

Natural keys, and what happens without one: a stop's ``recipient.external_id``
and a driver's e-mail (else phone) as in v0.2b; a depot's ``name`` (every
depot has one: after an ambiguous failure the depots are listed and one of the
same name counts as created); a member's ``email``, compared without case. v1
has no call that lists members, so a member batch whose answer was lost cannot
be looked up: its rows are reported ``unknown`` rather than sent twice, and
``skip_existing`` cannot be used for members. A row without a key is sent once
and, when its answer is lost, reported ``unknown`` (never resent).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from typing import Any, ClassVar, Final, Protocol

import attrs

from route_planning_async._converter import camel_case
from route_planning_async._core import AttemptHooks, Request
from route_planning_async._errors import RoutePlanningError
from route_planning_async._import import BatchAnswer, Listing, Refusal, RowKind
from route_planning_async._import_targets import (
    DRIVER_ROWS,
    PLAN_STOP_ROWS,
    UNASSIGNED_STOP_ROWS,
    DriversTarget,
    LiveImport,
    LiveImportOptions,
    echoes_fields,
    filled,
)
from route_planning_async._pagination import Paginator
from route_planning_async._rate_limits._limits import Category
from route_planning_async.v1._inputs import (
    MAX_DEPOT_IMPORT_BATCH,
    MAX_MEMBER_IMPORT_BATCH,
    DepotInput,
    MemberInput,
)
from route_planning_async.v1._models import Depot, DepotImportResult, MemberImportResult

__all__ = [
    "DEPOT_ROWS",
    "DRIVER_ROWS",
    "MEMBER_ROWS",
    "PLAN_STOP_ROWS",
    "UNASSIGNED_STOP_ROWS",
    "DepotCalls",
    "DepotsTarget",
    "DriversTarget",
    "LiveImport",
    "LiveImportOptions",
    "MemberCalls",
    "MembersTarget",
    "depot_key",
    "member_key",
]

DEPOT_ROWS: Final = RowKind(
    rows="depots",
    key_name="name",
    max_batch=MAX_DEPOT_IMPORT_BATCH,
    category=Category.DEPOT_IMPORT,
    body_field="depots",
)
"""The depots of a depot import (``POST /depots:import``, 1 to 100 a request)."""

MEMBER_ROWS: Final = RowKind(
    rows="members",
    key_name="email",
    max_batch=MAX_MEMBER_IMPORT_BATCH,
    category=Category.MEMBER_IMPORT,
    body_field="members",
)
"""The members of a member import (``POST /members:import``, 1 to 50 a request)."""

_DEPOT_PAGE: Final = 20
"""Depots per page of the depot list (its largest page)."""

_MEMBER_IDENTITY: Final = tuple((name, camel_case(name)) for name in ("name", "display_name", "email"))
"""What a refused member's echo is compared on (attribute, wire name)."""


# Depots -----------------------------------------------------------------------------------


class DepotCalls(Protocol):
    """What a depot import calls of ``client.depots`` (v1's ``Depots`` is one)."""

    def _import_request(self, depots: Sequence[DepotInput]) -> Request: ...
    async def _fetch(
        self, request: Request, model: type[DepotImportResult], on_sent: AttemptHooks | None = None
    ) -> DepotImportResult: ...
    def list(
        self, *, max_page_size: int | None = None, page_token: str | None = None
    ) -> Paginator[Depot]: ...
    async def delete(self, depot_id: str) -> None: ...


def depot_key(depot: DepotInput) -> str | None:
    """A depot's natural key: its name (compared exactly)."""
    return filled(depot.name)


@attrs.frozen
class DepotsTarget:
    """The team's depots, as a bulk import target (``depots.import_many``).

    The natural key is the depot's name, compared exactly; every depot has one
    (``DepotInput.name`` is required). The depot list has no filter, so a
    lookup lists every depot and takes one of the key's name as that row's.
    A batch weighs one request whatever its size (``depot_import`` counts requests).
    """

    kind: ClassVar[RowKind] = DEPOT_ROWS
    item_type: ClassVar[type[DepotInput]] = DepotInput
    id_prefix: ClassVar[str] = "depots/"
    depots: DepotCalls

    def check(self, item: DepotInput, field: str) -> None:
        """Every valid :class:`DepotInput` is accepted."""

    def key(self, item: DepotInput) -> str | None:
        return depot_key(item)

    def key_field(self, item: DepotInput) -> str:
        return "name"

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        return filled(echo.get("name"))

    def echoes(self, item: DepotInput, echo: Mapping[str, Any]) -> bool:
        return echo.get("name") == item.name

    def weight(self, size: int) -> int:
        return 1

    async def send(self, batch: list[DepotInput], on_sent: AttemptHooks) -> BatchAnswer:
        result = await self.depots._fetch(self.depots._import_request(batch), DepotImportResult, on_sent)
        return BatchAnswer(
            created=result.success,
            refused=[Refusal(failure.message, failure.depot) for failure in result.failed],
        )

    async def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        async for depot in self.depots.list(max_page_size=_DEPOT_PAGE):
            if depot.name == key:
                yield depot.id, key

    async def existing(self) -> Listing:
        async for page in self.depots.list(max_page_size=_DEPOT_PAGE).pages():
            yield [(depot.id, depot.name) for depot in page.items]

    async def delete(self, item_id: str) -> None:
        await self.depots.delete(item_id)


# Members ----------------------------------------------------------------------------------


class MemberCalls(Protocol):
    """What a member import calls of ``client.members`` (v1's ``Members`` is one)."""

    def _import_request(self, members: Sequence[MemberInput]) -> Request: ...
    async def _fetch(
        self, request: Request, model: type[MemberImportResult], on_sent: AttemptHooks | None = None
    ) -> MemberImportResult: ...
    async def delete(self, member_id: str) -> None: ...


def member_key(member: MemberInput) -> str | None:
    """A member's natural key: the e-mail, case folded; None without one."""
    email = filled(member.email)
    return email.casefold() if email is not None else None


_NO_MEMBER_LIST: Final = "v1 has no call that lists members"


async def _failing(error: Exception) -> AsyncGenerator[Any, None]:
    """An async generator that raises ``error`` when it is first read."""
    nothing: tuple[Any, ...] = ()
    for item in nothing:
        yield item
    raise error


@attrs.frozen
class MembersTarget:
    """The team's members, as a bulk import target (``members.import_many``).

    The natural key is the e-mail (compared without case); a member without
    one is keyed by nothing, and two such rows are two members. v1 cannot list
    members: a lookup raises :class:`LookupError`, so the rows of a batch whose
    answer was lost are reported ``unknown`` (never sent twice), and
    ``skip_existing`` is refused.
    """

    kind: ClassVar[RowKind] = MEMBER_ROWS
    item_type: ClassVar[type[MemberInput]] = MemberInput
    id_prefix: ClassVar[str] = "members/"
    members: MemberCalls

    def check(self, item: MemberInput, field: str) -> None:
        """Every valid :class:`MemberInput` is accepted."""

    def key(self, item: MemberInput) -> str | None:
        return member_key(item)

    def key_field(self, item: MemberInput) -> str:
        return "email"

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        email = filled(echo.get("email"))
        return email.casefold() if email is not None else None

    def echoes(self, item: MemberInput, echo: Mapping[str, Any]) -> bool:
        return echoes_fields(item, echo, _MEMBER_IDENTITY)

    def weight(self, size: int) -> int:
        return 1

    async def send(self, batch: list[MemberInput], on_sent: AttemptHooks) -> BatchAnswer:
        result = await self.members._fetch(self.members._import_request(batch), MemberImportResult, on_sent)
        return BatchAnswer(
            created=result.success,
            refused=[Refusal(failure.message, failure.member) for failure in result.failed],
        )

    def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        return _failing(LookupError(_NO_MEMBER_LIST))

    def existing(self) -> Listing:
        return _failing(RoutePlanningError(f"{_NO_MEMBER_LIST}: skip_existing cannot be used for members"))

    async def delete(self, item_id: str) -> None:
        await self.members.delete(item_id)
