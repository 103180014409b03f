"""What the v1 client makes of the answers of its official document.

The model of every 2xx JSON answer (those both documents share, and v1's own),
the properties no model holds and the keys renamed on encoding, each with its
reason: the ``decoding`` of the v1 row of ``versions.py``.
"""

from __future__ import annotations

from route_planning_async.v1 import _models

from .schema import SHARED_ANSWERS, SHARED_UNMODELLED, AnswerRow, Decoding, answers

__all__ = ["DECODING"]

_OWN: tuple[AnswerRow, ...] = (
    ("/depots", "post", "Depot"),
    ("/depots/{depotId}", "patch", "Depot"),
    ("/depots:import", "post", "DepotImportResult"),
    ("/routes", "get", "Route", "routes"),
    ("/routes/{routeId}/stops", "get", "Stop", "stops"),
    ("/members", "post", "Member"),
    ("/members/{memberId}", "patch", "Member"),
    ("/members:import", "post", "MemberImportResult"),
    ("/stops:search", "get", "StopSearchResult", "stops"),
)
"""The answers only the v1 document has."""

DECODING = Decoding(
    answers=answers(_models, SHARED_ANSWERS + _OWN),
    not_decoded={},
    unmodelled={
        **SHARED_UNMODELLED,
        "DepotImportResult.failed[].error": "its message is DepotImportFailure.message (the same hook)",
        "MemberImportResult.failed[].error": "its message is MemberImportFailure.message (the same hook)",
    },
    renamed_on_encode={
        # As in v0.2b, ImportFailure keeps the echo of an unassigned stop as "stop". A
        # search item's "unassignedStop" is its own attribute and keeps its name.
        "unassignedStop": "stop",
    },
)
