"""The bodies of a plan create and update (contract, POST and PATCH /plans): the fields
every version shares (``route_planning_async/_inputs/_plans.py``), and no more."""

from __future__ import annotations

import attrs

from route_planning_async._docs import fields_documented
from route_planning_async._inputs import PlanChanges, PlanFields

__all__ = ["PlanInput", "PlanUpdate"]


@fields_documented
@attrs.frozen(kw_only=True)
class PlanInput(PlanFields):
    """The body of a plan create (contract, POST /plans)."""


@fields_documented
@attrs.frozen(kw_only=True)
class PlanUpdate(PlanChanges):
    """The body of a plan PATCH: only the fields given are changed. Same rules as
    :class:`PlanInput`."""
