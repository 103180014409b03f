"""Live changes: the stop changes a plan takes while it is optimized.

On a writable plan a live call is an ordinary write. On an optimized plan the
change waits as a :class:`PendingChange` and the plan is ``editing``, until a
re-optimization has previewed the changes and ``:save`` or ``:redistribute``
applies them (``_lifecycle.py``).
"""

from __future__ import annotations

from typing import Any, Literal

from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._service._edits import Edits
from route_planning_async.emulator._store._records import PendingChange, PlanRecord, StopRecord
from route_planning_async.emulator._store._store import Imported, import_each

__all__ = ["LiveEdits"]


class LiveEdits(Edits):
    """The store, its plain writes, and the live changes of stops."""

    def _require_live(self, plan: PlanRecord) -> None:
        self.require_stop_collections(plan)
        self.require_not_running(plan)

    def _mark_edited(self, plan: PlanRecord) -> None:
        plan.optimization = "editing"
        plan.preview_operation = None

    def _hold(self, plan: PlanRecord, record: StopRecord) -> None:
        """Keep a new stop pending until the plan's changes are saved."""
        plan.pending[record.id] = PendingChange("create", record)

    def live_create(self, plan: PlanRecord, fields: dict[str, Any]) -> tuple[bool, StopRecord]:
        """POST /plans/<id>/stops:liveCreate: pending on an optimized plan, immediate otherwise."""
        self._require_live(plan)
        record = self.build_stop(plan, fields)
        if plan.writable:
            return False, self.add_stop(plan, record)
        self._hold(plan, record)
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

    def live_import(self, plan: PlanRecord, items: list[dict[str, Any]]) -> tuple[bool, Imported[StopRecord]]:
        """POST /plans/<id>/stops:liveImport: like ``live_create`` for each stop, a stop that
        fails refused; also whether the stops joined the editing session (pending)."""
        self._require_live(plan)
        pending = not plan.writable
        imported = import_each(
            items,
            lambda index, fields: self.build_stop(plan, fields, f"[{index}]."),
            lambda record: self._hold(plan, record) if pending else self.add_stop(plan, record),
        )
        if pending and imported.stored:
            self._mark_edited(plan)
        return pending, imported
