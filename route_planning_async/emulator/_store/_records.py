"""The stored records: plans, stops, unassigned stops, routes, operations, live changes.

Plain data, no rules: the rooms of :class:`EmulatorState` (``_service/_state.py``) change
them, and each API version's views render them as JSON. A stop's body is kept in
v0.2b's JSON form; what a later version writes that v0.2b has no field for (v1's
``orderInfo.invoiceNumber`` and ``serviceInfo``, a plan's ``routeOverrides``) is
kept beside it, so each version reads back what it wrote. A plan keeps its stops in
an :class:`OrderedStore`, or in :class:`CompactStops` (ids, count and externalIds
only) when the emulator runs with ``keep_stops=False``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any, Literal

import attrs

from route_planning_async.emulator._routing._optimizer import Outcome
from route_planning_async.emulator._store._bodies import stop_body
from route_planning_async.emulator._store._collections import OrderedStore

__all__ = [
    "CompactStops",
    "MemberRecord",
    "OperationRecord",
    "PendingChange",
    "PlanRecord",
    "RouteRecord",
    "StopRecord",
    "UnassignedStopRecord",
]


@attrs.define
class StopRecord:
    """A stop of a plan: its JSON body (without ``route``) plus what the optimizer needs."""

    id: str
    """Bare stop id."""
    plan_id: str
    """Bare plan id."""
    body: dict[str, Any]
    """The stop's JSON representation, without ``route`` (rendered from the route record)."""
    latitude: float = 0.0
    """Where the geocoder placed it."""
    longitude: float = 0.0
    """Where the geocoder placed it."""
    allowed_driver_ids: tuple[str, ...] = ()
    """Bare driver ids from ``driver``/``allowedDrivers``."""
    route_id: str | None = None
    """Bare id of its route once optimized."""
    extra: dict[str, Any] = attrs.field(factory=dict)
    """What a version writes that the v0.2b body has no field for (``invoiceNumber``,
    ``serviceInfo``)."""
    created_at: float | None = None
    """Epoch seconds of its creation (v1's stop search reads it as ``createdAt``)."""

    @property
    def terminal(self) -> bool:
        """A route's ``start`` or ``end`` stop, made by an optimization (not by a caller)."""
        return bool(self.body.get("type", "stop") != "stop")

    @property
    def external_id(self) -> str | None:
        """``recipient.externalId``."""
        recipient = self.body.get("recipient") or {}
        value = recipient.get("externalId")
        return value if isinstance(value, str) else None


@attrs.define
class UnassignedStopRecord:
    """An unassigned stop: its JSON body."""

    id: str
    """Bare id."""
    body: dict[str, Any]
    """The JSON representation."""
    latitude: float = 0.0
    """Where the geocoder placed it."""
    longitude: float = 0.0
    """Where the geocoder placed it."""
    extra: dict[str, Any] = attrs.field(factory=dict)
    """What a version writes that the v0.2b body has no field for (``invoiceNumber``,
    ``serviceInfo``)."""
    created_at: float | None = None
    """Epoch seconds of its creation (v1's stop search reads it as ``createdAt``)."""

    @property
    def external_id(self) -> str | None:
        """``recipient.externalId``."""
        value = (self.body.get("recipient") or {}).get("externalId")
        return value if isinstance(value, str) else None


@attrs.define
class RouteRecord:
    """A route produced by an optimization."""

    id: str
    """Bare route id."""
    plan_id: str
    """Bare plan id."""
    driver_id: str
    """Bare driver id."""
    title: str
    """Route title: the plan's title or the driver's name (``EmulatorConfig.route_title``)."""
    stop_count: int
    """Stops in the route (``stop`` stops; its ``start`` and ``end`` stops are not counted)."""
    terminal_ids: tuple[str, ...] = ()
    """Bare ids of the route's ``start`` and ``end`` stops, kept in the plan's stop list."""
    distributed_at: float | None = None
    """Epoch seconds of distribution, once distributed."""


@attrs.define
class PendingChange:
    """A live change waiting for ``:reoptimize`` and then ``:save`` or ``:redistribute``."""

    kind: Literal["create", "update", "delete"]
    """What the change does."""
    record: StopRecord | None
    """The stop as it will be (create, update); None for delete."""


class CompactStops:
    """The stops of a plan when ``keep_stops=False``: ids, count and externalIds only.

    Ids are ``s<number>``; a stop is served as a skeleton (empty address) and
    updates are answered but not kept.
    """

    def __init__(self) -> None:
        self._alive = bytearray()
        self._external: list[str | None] = []
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def _number(self, stop_id: str) -> int | None:
        if not stop_id.startswith("s") or not stop_id[1:].isdigit():
            return None
        number = int(stop_id[1:])
        return number if number < len(self._alive) and self._alive[number] else None

    def __contains__(self, stop_id: object) -> bool:
        return isinstance(stop_id, str) and self._number(stop_id) is not None

    def new_id(self) -> str:
        """Reserve the id of a stop about to be built (a pending live create keeps its slot)."""
        self._alive.append(0)
        self._external.append(None)
        return f"s{len(self._alive) - 1}"

    def add(self, stop_id: str, record: StopRecord) -> int:
        """Count a stop under its reserved id; only its externalId is kept."""
        number = int(stop_id[1:]) if stop_id[1:].isdigit() else -1
        if not 0 <= number < len(self._alive) or self._alive[number]:
            raise KeyError(stop_id)
        self._alive[number] = 1
        self._external[number] = record.external_id
        self._count += 1
        return number + 1

    def replace(self, stop_id: str, record: StopRecord) -> None:
        """Updates are not kept in compact mode."""

    def remove(self, stop_id: str) -> StopRecord | None:
        """Forget a stop."""
        record = self.get(stop_id)
        number = self._number(stop_id)
        if number is None:
            return None
        self._alive[number] = 0
        self._external[number] = None
        self._count -= 1
        return record

    def get(self, stop_id: str, plan_id: str = "") -> StopRecord | None:
        """A skeleton record, or None."""
        number = self._number(stop_id)
        if number is None:
            return None
        return self._skeleton(plan_id, number)

    def _skeleton(self, plan_id: str, number: int) -> StopRecord:
        fields: dict[str, Any] = {"address": {}}
        external = self._external[number]
        if external is not None:
            fields["recipient"] = {"externalId": external}
        body = stop_body(plan_id, f"s{number}", fields, None, {})
        return StopRecord(f"s{number}", plan_id, body)

    def values(self) -> Iterator[StopRecord]:
        """Nothing: compact stops take no part in optimization."""
        return iter(())

    def page(
        self, after_seq: int, limit: int, external_id: str | None, plan_id: str
    ) -> tuple[list[StopRecord], int, bool]:
        """Like :meth:`OrderedStore.page`; sequence numbers are ``number + 1``."""
        found: list[StopRecord] = []
        last = after_seq
        for number in range(after_seq, len(self._alive)):
            if not self._alive[number]:
                continue
            if external_id is not None and self._external[number] != external_id:
                continue
            if len(found) == limit:
                return found, last, True
            found.append(self._skeleton(plan_id, number))
            last = number + 1
        return found, last, False


@attrs.define
class PlanRecord:
    """A plan and everything inside it."""

    id: str
    """Bare plan id."""
    title: str
    """1 to 255 characters."""
    starts: datetime.date
    """Plan date."""
    depot_id: str
    """Bare depot id."""
    driver_ids: list[str]
    """Bare driver ids, in the order they were given."""
    stops: OrderedStore[StopRecord] | CompactStops
    """The plan's stops."""
    distributed: bool = False
    """True once distributed."""
    writable: bool = True
    """False once optimized (and while optimizing)."""
    optimization: str = "creating"
    """``creating``, ``optimizing``, ``optimized``, ``editing`` or ``preview``."""
    route_ids: list[str] = attrs.field(factory=list)
    """Bare route ids of the current optimization."""
    pending: dict[str, PendingChange] = attrs.field(factory=dict)
    """Live changes by bare stop id, waiting to be applied."""
    running_operation: str | None = None
    """Bare id of the optimization in progress."""
    preview_operation: str | None = None
    """Bare id of the finished re-optimization that ``:save``/``:redistribute`` apply."""
    optimized_before: bool = False
    """Whether an optimization ever succeeded (to restore the state after a failure)."""
    route_overrides: dict[str, Any] | None = None
    """The plan's ``routeOverrides`` as v1 wrote them (None: none)."""


@attrs.define
class MemberRecord:
    """A member of the team (v1's members)."""

    id: str
    """Bare member id."""
    role: str
    """``admin``, ``depot-manager``, ``dispatcher`` or ``read-only``."""
    name: str | None = None
    """Name."""
    email: str | None = None
    """E-mail; no two members share one."""
    display_name: str | None = None
    """Display name."""
    linked_driver_id: str | None = None
    """Bare id of the team driver the member is."""
    depots: list[str] = attrs.field(factory=list)
    """Bare ids of the depots the member works at."""


@attrs.define
class OperationRecord:
    """A plan optimization operation."""

    id: str
    """Bare operation id."""
    plan_id: str
    """Bare plan id."""
    kind: Literal["optimize", "reoptimize"]
    """Which call started it."""
    started_at: float
    """Epoch seconds."""
    deadline: float
    """Server clock reading at which it is done."""
    outcome: Outcome | None
    """The computed routes (None when it fails)."""
    failure: tuple[str, str] | None = None
    """``(code, message)`` of a failure."""
    num_stops: int = 0
    """Stops considered."""
    done: bool = False
    """Whether it finished."""
    finished_at: float | None = None
    """Epoch seconds once done."""
    pending: dict[str, PendingChange] = attrs.field(factory=dict)
    """The live changes a re-optimization took into account."""
    canceled: bool = False
    """Canceled with ``POST /operations/<id>:cancel`` (public API documentation)."""
