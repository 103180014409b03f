"""What the v0.2b client makes of the answers of its official document.

The model of every 2xx JSON answer (v0.2b's answers are those both documents
share), the properties no model holds and the keys renamed on encoding, each with
its reason: the ``decoding`` of the v0.2b row of ``versions.py``.
"""

from __future__ import annotations

from route_planning_async.v0_2b import _models

from .schema import SHARED_ANSWERS, SHARED_UNMODELLED, Decoding, answers

__all__ = ["DECODING"]

DECODING = Decoding(
    answers=answers(_models, SHARED_ANSWERS),
    not_decoded={},
    unmodelled=SHARED_UNMODELLED,
    renamed_on_encode={
        # An unassigned stop import echoes a failed stop under "unassignedStop";
        # ImportFailure keeps it as "stop" whichever import it came from.
        "unassignedStop": "stop",
    },
)
