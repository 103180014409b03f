"""Optimization operations: starting one, finishing it, canceling it, listing them.

An optimization is an :class:`OperationRecord` that finishes when the server
clock passes its deadline (:meth:`Optimizations.settle`, called before every
request and by the app's timers). ``:optimize`` places a writable plan's stops
on routes; ``:reoptimize`` previews the pending live changes, which ``:save`` or
``:redistribute`` then applies (``_lifecycle.py``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any, Literal

from route_planning_async.emulator._routing._optimizer import OptDriver, OptStop, Outcome, optimize
from route_planning_async.emulator._rules import _problems as problems
from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._service._edits import Edits
from route_planning_async.emulator._store._bodies import ETA_SPREAD, NOT_OPTIMIZED, terminal_body
from route_planning_async.emulator._store._records import (
    CompactStops,
    OperationRecord,
    PendingChange,
    PlanRecord,
    RouteRecord,
    StopRecord,
)

__all__ = ["Optimizations"]


def _seconds(time_of_day: dict[str, int] | None) -> int | None:
    if time_of_day is None:
        return None
    return time_of_day["hour"] * 3600 + time_of_day["minute"] * 60


class Optimizations(Edits):
    """The store, its plain writes, and the optimization operations of plans."""

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
        # The official schemas take any integer; a duration below 1 s is taken as the team's.
        given = timing.get("estimatedAttemptDuration")
        duration = given if given is not None and given >= 1 else self.team.default_attempt_duration
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
        """POST /plans/<id>:reoptimize: optimizes the plan as the pending live changes leave it.

        A writable plan has no live changes waiting: it is optimized as ``:optimize`` does (the
        official schemas list no ``plan_not_optimized`` for ``:reoptimize``, and every code of
        ``:optimize`` is one of its own).
        """
        self.require_not_running(plan)
        if not plan.optimized_before or plan.writable:
            return self.start_optimization(plan, now)
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
        ids = []
        for kind, position in (("start", 0), ("end", count + 1)):
            stop_id = self.new_id()
            body = terminal_body(plan.id, stop_id, kind, position, depot)
            record = StopRecord(stop_id, plan.id, body, depot.latitude, depot.longitude, (), route.id)
            plan.stops.add(stop_id, record)
            ids.append(stop_id)
        route.terminal_ids = tuple(ids)

    # ------------------------------------------ cancel (public API documentation)

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
