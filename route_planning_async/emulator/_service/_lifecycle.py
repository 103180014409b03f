"""The plan lifecycle: save and distribution, where live changes and optimizations meet.

:class:`Lifecycle` is where a plan moves between states. Plain writes need a
writable plan (``_edits.py``); once optimized a plan takes live changes
(``_live.py``), which wait until a re-optimization (``_optimizations.py``) has
previewed them and ``:save`` or ``:redistribute`` applies them (here).

Plan lifecycle (contract, States and transitions; the ``optimization`` values are
the public OpenAPI document's)::

    creating ──:optimize──> optimizing ──done──> optimized (writable=false)
       ^                        │failure              │ live calls
       └────────────────────────┘                     v
                                   optimized <── editing ──:reoptimize──> optimizing ──> preview
                                       ^                                                   │
                                       └──────────── :save or :redistribute ───────────────┘
"""

from __future__ import annotations

from collections.abc import Callable

from route_planning_async.emulator._rules import _problems as problems
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._service._live import LiveEdits
from route_planning_async.emulator._service._optimizations import Optimizations
from route_planning_async.emulator._store._records import PlanRecord, StopRecord

__all__ = ["Lifecycle"]


class Lifecycle(LiveEdits, Optimizations):
    """The store, its plain writes, and the state machine of plans and operations."""

    def _apply_preview(self, plan: PlanRecord) -> None:
        operation = self.operations.get(plan.preview_operation or "")
        if operation is None or operation.outcome is None:
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)
        for stop_id, change in operation.pending.items():
            if change.kind == "delete":
                plan.stops.remove(stop_id)
            elif change.kind == "create" and change.record is not None:
                self.add_stop(plan, change.record)
            elif change.record is not None:
                plan.stops.replace(stop_id, change.record)
        plan.pending.clear()
        plan.preview_operation = None
        self._apply_outcome(plan, operation.outcome)
        plan.optimization = "optimized"

    def distribute(self, plan: PlanRecord) -> PlanRecord:
        """POST /plans/<id>:distribute: only an optimized plan, only once."""
        self.require_not_running(plan)
        if plan.distributed:
            raise Problem.conflict(*problems.PLAN_ALREADY_DISTRIBUTED)
        if not plan.optimized_before:
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)
        self._distribute_routes(plan)
        self._allocated(plan, lambda record: True)
        return plan

    def _allocated(self, plan: PlanRecord, changed: Callable[[StopRecord], bool]) -> None:
        """``stop.allocated`` for the routed stops ``changed`` picks (the service's webhook events)."""
        if not self.stop_events:
            return
        for record in list(plan.stops.values()):
            if record.route_id is not None and not record.terminal and changed(record):
                self.emit("stop.allocated", record)

    def _driver_of(self, record: StopRecord) -> str | None:
        route = self.routes.get(record.route_id) if record.route_id is not None else None
        return None if route is None else route.driver_id

    def _distribute_routes(self, plan: PlanRecord) -> None:
        now = self.config.wall_clock()
        plan.distributed = True
        for route_id in plan.route_ids:
            route = self.routes.get(route_id)
            if route is not None and route.distributed_at is None:
                route.distributed_at = now

    def _require_preview(self, plan: PlanRecord, *, distributing: bool) -> None:
        """409 unless a re-optimization's preview waits: ``plan_already_distributed`` only where
        the official schemas list it (``:redistribute``; ``:save`` lists ``plan_not_optimized``)."""
        self.require_not_running(plan)
        if plan.preview_operation is None:
            # Re-optimization is required after any live change (Stops rule 5).
            if distributing and plan.distributed and not plan.pending:
                raise Problem.conflict(*problems.PLAN_ALREADY_DISTRIBUTED)
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)

    def redistribute(self, plan: PlanRecord) -> PlanRecord:
        """POST /plans/<id>:redistribute: apply the re-optimized live changes and distribute."""
        self._require_preview(plan, distributing=True)
        # Routes are rebuilt by every optimization: a stop is allocated anew when its driver
        # changed, when it changed itself, or when the plan is distributed for the first time.
        before = {record.id: self._driver_of(record) for record in plan.stops.values()}
        changed, first = set(plan.pending), not plan.distributed
        self._apply_preview(plan)
        self._distribute_routes(plan)
        self._allocated(
            plan,
            lambda record: first or record.id in changed or before.get(record.id) != self._driver_of(record),
        )
        return plan

    def save(self, plan: PlanRecord) -> None:
        """POST /plans/<id>:save: apply the re-optimized live changes without distributing."""
        self._require_preview(plan, distributing=False)
        self._apply_preview(plan)
