"""The answers of v0.2b that are its own: a live change, which holds a v0.2b stop
(operations and import outcomes are shared: ``route_planning_async/_models/``)."""

from __future__ import annotations

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._models import LiveChangeFields
from route_planning_async.v0_2b._models._resources import Stop

__all__ = ["LiveChange"]


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
