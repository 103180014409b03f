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
    """The body of a plan create (contract, POST /plans).

    Keyword Args:
        title (str): 1 to 255 characters.
        starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
        drivers (list[str]): ``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50.
        depot (str | None): ``depots/<id>``; None or not given means the team's main depot.
    """


@fields_documented
@attrs.frozen(kw_only=True)
class PlanUpdate(PlanChanges):
    """The body of a plan PATCH: only the fields given are changed. Same rules as
    :class:`PlanInput`.

    Keyword Args:
        title (str): 1 to 255 characters.
        starts (datetime.date): The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`.
        drivers (list[str]): ``drivers/<id>`` (bare ids accepted); replaces the plan's whole list.
        depot (str | None): ``depots/<id>``; None means the team's main depot.
    """
