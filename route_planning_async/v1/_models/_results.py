"""The answers of v1 that are its own: a live change (it holds a v1 stop), the
outcomes of depot and member imports, and one item of a stop search (operations
and the other import outcomes are shared: ``route_planning_async/_models/``)."""

from __future__ import annotations

from typing import Any

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._models import LiveChangeFields
from route_planning_async.v1._models._resources import Stop, UnassignedStop

__all__ = [
    "DepotImportFailure",
    "DepotImportResult",
    "LiveChange",
    "MemberImportFailure",
    "MemberImportResult",
    "StopSearchResult",
]


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class LiveChange(LiveChangeFields):
    """The answer of a live call: the change waits for re-optimization.

    Attributes:
        pending (bool): True while the change waits for ``reoptimize`` and ``redistribute`` or ``save``.
        stop (Stop | None): The stop as it will be (None for a live delete).
    """

    stop: Stop | None = attrs.field(
        default=None, metadata=described("The stop as it will be (None for a live delete).")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DepotImportFailure:
    """A depot of a batch import that was not imported.

    Attributes:
        message (str): Why it failed.
        depot (dict[str, Any]): The service's echo of the failed depot, as JSON.
    """

    message: str = attrs.field(metadata=described("Why it failed."))
    depot: dict[str, Any] = attrs.field(
        factory=dict, metadata=described("The service's echo of the failed depot, as JSON.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class DepotImportResult:
    """The answer of a depot batch import (``POST /depots:import``): per-depot failures
    do not fail the call.

    Attributes:
        success (list[str]): ``depots/<id>`` of the imported depots, in input order.
        failed (list[DepotImportFailure]): The depots that were not imported, and why.
    """

    success: list[str] = attrs.field(
        factory=list, metadata=described("``depots/<id>`` of the imported depots, in input order.")
    )
    failed: list[DepotImportFailure] = attrs.field(
        factory=list, metadata=described("The depots that were not imported, and why.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class MemberImportFailure:
    """A member of a batch import that was not imported.

    Attributes:
        message (str): Why it failed.
        member (dict[str, Any]): The service's echo of the failed member, as JSON.
    """

    message: str = attrs.field(metadata=described("Why it failed."))
    member: dict[str, Any] = attrs.field(
        factory=dict, metadata=described("The service's echo of the failed member, as JSON.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class MemberImportResult:
    """The answer of a member batch import (``POST /members:import``): per-member
    failures do not fail the call.

    Attributes:
        success (list[str]): ``members/<id>`` of the imported members, in input order.
        failed (list[MemberImportFailure]): The members that were not imported, and why.
    """

    success: list[str] = attrs.field(
        factory=list, metadata=described("``members/<id>`` of the imported members, in input order.")
    )
    failed: list[MemberImportFailure] = attrs.field(
        factory=list, metadata=described("The members that were not imported, and why.")
    )


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class StopSearchResult:
    """One item of a stop search (``GET /stops:search``): a stop of a plan or an
    unassigned stop, told apart by ``type``.

    Attributes:
        type (str): ``stop`` or ``unassignedStop``; a newer kind is kept as a string.
        stop (Stop | None): The stop, for ``type`` ``stop``.
        unassigned_stop (UnassignedStop | None): The unassigned stop, for ``type`` ``unassignedStop``.
    """

    type: str = attrs.field(
        metadata=described("``stop`` or ``unassignedStop``; a newer kind is kept as a string.")
    )
    stop: Stop | None = attrs.field(default=None, metadata=described("The stop, for ``type`` ``stop``."))
    unassigned_stop: UnassignedStop | None = attrs.field(
        default=None, metadata=described("The unassigned stop, for ``type`` ``unassignedStop``.")
    )

    @property
    def found(self) -> Stop | UnassignedStop | None:
        """The stop or unassigned stop found; None for a kind this version does not know."""
        return self.stop if self.stop is not None else self.unassigned_stop
