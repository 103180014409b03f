"""The plan lifecycle: live changes, optimization operations, save and distribution.

:class:`Lifecycle` is where a plan moves between states. Plain writes need a
writable plan (``_edits.py``); once optimized a plan takes live changes, which wait
as :class:`PendingChange` records until a re-optimization has previewed them and
``:save`` or ``:redistribute`` applies them. An optimization is an
:class:`OperationRecord` that finishes when the server clock passes its deadline
(:meth:`Lifecycle.settle`, called before every request and by the app's timers).

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

import datetime
from collections.abc import Callable
from typing import Any, Literal

from route_planning_async.emulator import _problems as problems
from route_planning_async.emulator._bodies import ETA_SPREAD, NOT_OPTIMIZED, failure_echo, terminal_body
from route_planning_async.emulator._edits import Edits
from route_planning_async.emulator._optimizer import OptDriver, OptStop, Outcome, optimize
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._records import (
    CompactStops,
    OperationRecord,
    PendingChange,
    PlanRecord,
    RouteRecord,
    StopRecord,
)

__all__ = ["Lifecycle"]


def _seconds(time_of_day: dict[str, int] | None) -> int | None:
    if time_of_day is None:
        return None
    return time_of_day["hour"] * 3600 + time_of_day["minute"] * 60


class Lifecycle(Edits):
    """The store, its plain writes, and the state machine of plans and operations."""

    # ------------------------------------------------------------ live changes

    def _require_live(self, plan: PlanRecord) -> None:
        self.require_stop_collections(plan)
        self.require_not_running(plan)

    def _mark_edited(self, plan: PlanRecord) -> None:
        plan.optimization = "editing"
        plan.preview_operation = None

    def live_create(self, plan: PlanRecord, fields: dict[str, Any]) -> tuple[bool, StopRecord]:
        """POST /plans/<id>/stops:liveCreate: pending on an optimized plan, immediate otherwise."""
        self._require_live(plan)
        record = self.build_stop(plan, fields)
        if plan.writable:
            return False, self.add_stop(plan, record)
        plan.pending[record.id] = PendingChange("create", record)
        self._mark_edited(plan)
        return True, record

    def _current(self, plan: PlanRecord, stop_id: str) -> StopRecord:
        change = plan.pending.get(stop_id)
        if change is not None:
            if change.record is None:
                raise Problem.not_found("Stop not found", "stop_not_found")
            return change.record
        return self.editable_stop(plan, stop_id)

    def live_update(self, plan: PlanRecord, stop_id: str, patch: dict[str, Any]) -> tuple[bool, StopRecord]:
        """POST /plans/<id>/stops/<id>:liveUpdate."""
        self._require_live(plan)
        record = self._current(plan, stop_id)
        updated = self.patched_stop(record, patch)
        if plan.writable:
            plan.stops.replace(stop_id, updated)
            return False, updated
        previous = plan.pending.get(stop_id)
        kind: Literal["create", "update"] = "create" if previous and previous.kind == "create" else "update"
        plan.pending[stop_id] = PendingChange(kind, updated)
        self._mark_edited(plan)
        return True, updated

    def live_delete(self, plan: PlanRecord, stop_id: str) -> bool:
        """POST /plans/<id>/stops/<id>:liveDelete."""
        self._require_live(plan)
        self._current(plan, stop_id)
        if plan.writable:
            plan.stops.remove(stop_id)
            return False
        previous = plan.pending.get(stop_id)
        if previous is not None and previous.kind == "create":
            del plan.pending[stop_id]
        else:
            plan.pending[stop_id] = PendingChange("delete", None)
        self._mark_edited(plan)
        return True

    # ------------------------------------------------- starting an optimization

    def _opt_drivers(self, plan: PlanRecord) -> list[OptDriver]:
        result = []
        for driver_id in plan.driver_ids:
            driver = self._drivers.get(driver_id)
            if driver is None or not driver.active:
                continue
            start = driver.start_time or self.team.default_start_time
            result.append(
                OptDriver(f"drivers/{driver.id}", start.hour * 3600 + start.minute * 60, driver.max_stops)
            )
        return result

    def _opt_stop(self, record: StopRecord, pinned: str | None) -> OptStop:
        timing = record.body.get("timing") or {}
        duration = timing.get("estimatedAttemptDuration") or self.team.default_attempt_duration
        return OptStop(
            record.body["id"],
            record.latitude,
            record.longitude,
            record.body.get("optimizationOrder") or "default",
            _seconds(timing.get("earliestAttemptTime")),
            _seconds(timing.get("latestAttemptTime")),
            float(duration),
            frozenset(f"drivers/{ref}" for ref in record.allowed_driver_ids),
            pinned,
        )

    def _run_optimizer(
        self, plan: PlanRecord, records: list[StopRecord], pinned: dict[str, str]
    ) -> tuple[Outcome | None, tuple[str, str] | None]:
        drivers = self._opt_drivers(plan)
        if not drivers:
            return None, problems.NO_DRIVERS_AVAILABLE
        depot = self._depots[plan.depot_id]
        stops = [self._opt_stop(record, pinned.get(record.id)) for record in records]
        outcome = optimize(
            (depot.latitude, depot.longitude), drivers, stops, self.config.driving_speed_kmh / 3.6
        )
        return outcome, None

    def _new_operation(
        self,
        plan: PlanRecord,
        kind: Literal["optimize", "reoptimize"],
        now: float,
        outcome: Outcome | None,
        failure: tuple[str, str] | None,
        num_stops: int,
        pending: dict[str, PendingChange],
    ) -> OperationRecord:
        if num_stops <= self.config.instant_optimization_max_stops:
            delay = 0.0
        else:
            delay = self.config.scaled(
                self.config.optimization_delay + self.config.optimization_delay_per_stop * num_stops
            )
        operation = OperationRecord(
            self.new_id(),
            plan.id,
            kind,
            self.config.wall_clock(),
            now + delay,
            outcome,
            failure,
            num_stops,
            pending=pending,
        )
        self.operations[operation.id] = operation
        self._operation_order.append(operation.id)
        plan.running_operation = operation.id
        plan.optimization = "optimizing"
        plan.writable = False
        if delay == 0.0:
            self._finish(operation)
        return operation

    def start_optimization(self, plan: PlanRecord, now: float) -> OperationRecord:
        """POST /plans/<id>:optimize."""
        self.require_not_running(plan)
        if not plan.writable:
            raise Problem.conflict(*problems.PLAN_ALREADY_OPTIMIZED)
        records = [record for record in plan.stops.values() if not record.terminal]
        outcome, failure = self._run_optimizer(plan, records, {})
        count = len(plan.stops) if isinstance(plan.stops, CompactStops) else len(records)
        return self._new_operation(plan, "optimize", now, outcome, failure, count, {})

    def start_reoptimization(self, plan: PlanRecord, optimization_type: str, now: float) -> OperationRecord:
        """POST /plans/<id>:reoptimize: optimizes the plan as the pending live changes leave it."""
        self.require_not_running(plan)
        if not plan.optimized_before or plan.writable:
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)
        if not plan.pending:
            raise Problem.conflict(*problems.PLAN_ALREADY_OPTIMIZED)
        if plan.distributed and optimization_type != "reorder_changed_stops":
            raise Problem.conflict(*problems.PLAN_OPTIMIZATION_NOT_SUPPORTED)
        records = self._with_pending(plan)
        pinned: dict[str, str] = {}
        if optimization_type != "redistribute_stops_between_drivers":
            for record in records:
                change = plan.pending.get(record.id)
                if record.route_id is None or record.route_id not in self.routes:
                    continue
                if optimization_type == "reorder_changed_stops" and change is not None:
                    continue
                pinned[record.id] = f"drivers/{self.routes[record.route_id].driver_id}"
        outcome, failure = self._run_optimizer(plan, records, pinned)
        return self._new_operation(
            plan, "reoptimize", now, outcome, failure, len(records), dict(plan.pending)
        )

    def _with_pending(self, plan: PlanRecord) -> list[StopRecord]:
        records = []
        for record in plan.stops.values():
            if record.terminal:
                continue
            change = plan.pending.get(record.id)
            if change is None:
                records.append(record)
            elif change.record is not None:
                records.append(change.record)
        records.extend(
            change.record
            for change in plan.pending.values()
            if change.kind == "create" and change.record is not None
        )
        return records

    # -------------------------------------------------- finishing an operation

    def settle(self, now: float) -> None:
        """Finish every operation whose deadline has passed."""
        for operation in list(self.operations.values()):
            if not operation.done and operation.deadline <= now:
                self._finish(operation)

    def _finish(self, operation: OperationRecord) -> None:
        operation.done = True
        operation.finished_at = self.config.wall_clock()
        plan = self.plans.get(operation.plan_id)
        if plan is None or plan.running_operation != operation.id:
            return
        plan.running_operation = None
        if operation.failure is not None or operation.outcome is None:
            if plan.optimized_before:
                plan.optimization = "editing" if plan.pending else "optimized"
            else:
                plan.optimization = "creating"
                plan.writable = True
            return
        if operation.kind == "optimize":
            self._apply_outcome(plan, operation.outcome)
            plan.optimization = "optimized"
            plan.optimized_before = True
        elif plan.pending == operation.pending:
            plan.optimization = "preview"
            plan.preview_operation = operation.id
        else:
            plan.optimization = "editing"

    def _apply_outcome(self, plan: PlanRecord, outcome: Outcome) -> None:
        for route_id in plan.route_ids:
            old = self.routes.pop(route_id, None)
            for stop_id in old.terminal_ids if old is not None else ():
                plan.stops.remove(stop_id)
        plan.route_ids = []
        placed: dict[str, tuple[str, Any]] = {}
        midnight = datetime.datetime.combine(plan.starts, datetime.time(0, 0), self._tz).timestamp()
        for driver_ref, visits in outcome.routes.items():
            driver_id = driver_ref.split("/", 1)[1]
            driver = self._drivers[driver_id]
            title = plan.title if self.config.route_title == "plan" else driver.name or driver_id
            route = RouteRecord(self.new_id(), plan.id, driver_id, title, len(visits))
            if plan.distributed:
                route.distributed_at = self.config.wall_clock()
            self.routes[route.id] = route
            plan.route_ids.append(route.id)
            for visit in visits:
                placed[visit.stop_id] = (route.id, visit)
            if not isinstance(plan.stops, CompactStops):
                self._add_terminals(plan, route, len(visits))
        for record in list(plan.stops.values()):
            if record.terminal:
                continue
            body = record.body
            hit = placed.get(body["id"])
            if hit is None:
                record.route_id = None
                body.update(
                    stopPosition=None,
                    estimatedTravelDuration=None,
                    estimatedTravelDistance=None,
                    eta=None,
                    etaNullReason=dict(NOT_OPTIMIZED),
                )
                continue
            route_id, visit = hit
            arrival = round(midnight + visit.arrival_seconds)
            record.route_id = route_id
            body.update(
                stopPosition=visit.position,
                estimatedTravelDuration=visit.travel_seconds,
                estimatedTravelDistance=visit.travel_meters,
                eta={
                    "estimatedArrivalAt": arrival,
                    "estimatedEarliestArrivalAt": arrival - ETA_SPREAD,
                    "estimatedLatestArrivalAt": arrival + ETA_SPREAD,
                },
                etaNullReason=None,
            )
        plan.writable = False

    def _add_terminals(self, plan: PlanRecord, route: RouteRecord, count: int) -> None:
        """The route's ``start`` (position 0) and ``end`` (position ``count + 1``) stops, at
        the plan's depot, appended to the plan's stop list."""
        depot = self._depots[plan.depot_id]
        where = (depot.latitude, depot.longitude, depot.name)
        ids = []
        for kind, position in (("start", 0), ("end", count + 1)):
            stop_id = self.new_id()
            body = terminal_body(plan.id, stop_id, kind, position, where)
            record = StopRecord(stop_id, plan.id, body, depot.latitude, depot.longitude, (), route.id)
            plan.stops.add(stop_id, record)
            ids.append(stop_id)
        route.terminal_ids = tuple(ids)

    # ------------------------------------------ save, distribute, redistribute

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

    def _require_preview(self, plan: PlanRecord) -> None:
        self.require_not_running(plan)
        if plan.preview_operation is None:
            # Re-optimization is required after any live change (Stops rule 5).
            if plan.distributed and not plan.pending:
                raise Problem.conflict(*problems.PLAN_ALREADY_DISTRIBUTED)
            raise Problem.conflict(*problems.PLAN_NOT_OPTIMIZED)

    def redistribute(self, plan: PlanRecord) -> PlanRecord:
        """POST /plans/<id>:redistribute: apply the re-optimized live changes and distribute."""
        self._require_preview(plan)
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
        self._require_preview(plan)
        self._apply_preview(plan)

    # --------------------------------------------------------- operation list

    def operations_page(
        self, before: int, limit: int, keep: Callable[[OperationRecord], bool]
    ) -> tuple[list[OperationRecord], int, bool]:
        """GET /operations: newest first, up to ``limit`` kept operations that started
        before sequence number ``before`` (0: from the newest).

        Returns ``(operations, sequence number of the last one served, more left)``; an
        operation's sequence number is its 1-based place in start order. Operations that
        start after the first page was served are not on the later pages, so walking
        the pages never skips or repeats one.
        """
        found: list[OperationRecord] = []
        start = len(self._operation_order) if before == 0 else before - 1
        last = before
        for index in range(start - 1, -1, -1):
            operation = self.operations[self._operation_order[index]]
            if not keep(operation):
                continue
            if len(found) == limit:
                return found, last, True
            found.append(operation)
            last = index + 1
        return found, last, False

    # ------------------------------------- cancel and live import (public API documentation)

    def cancel_operation(self, operation_id: str) -> OperationRecord:
        """POST /operations/<id>:cancel: the operation ends canceled, without a result,
        and the plan goes back to where it was before (like a failed optimization)."""
        operation = self.operation(operation_id)
        if operation.done:
            raise Problem.conflict(*problems.OPERATION_ALREADY_DONE)
        operation.canceled = True
        operation.outcome = None
        operation.failure = None
        self._finish(operation)
        return operation

    def live_import(self, plan: PlanRecord, items: list[dict[str, Any]]) -> dict[str, Any]:
        """POST /plans/<id>/stops:liveImport: like ``live_create`` for each stop, per-stop
        failures in ``failed``; ``pending`` when the stops joined the editing session."""
        self._require_live(plan)
        success: list[str] = []
        failed: list[dict[str, Any]] = []
        pending = not plan.writable
        for index, fields in enumerate(items):
            try:
                record = self.build_stop(plan, fields, f"[{index}].")
            except Problem as problem:
                failed.append({"error": {"message": problem.message}, "stop": failure_echo(fields)})
                continue
            if pending:
                plan.pending[record.id] = PendingChange("create", record)
            else:
                self.add_stop(plan, record)
            success.append(record.body["id"])
        if pending and success:
            self._mark_edited(plan)
        return {"success": success, "failed": failed, "pending": pending}
