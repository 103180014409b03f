"""Where the bulk importer sends its batches: one import target per v0.2b batch import.

Each target tells the engine (``_import/``) everything about its rows: the
words and bounds of their kind (:class:`RowKind`), their natural key, how a
refused row's echo is matched, how a batch is sent and weighed, and how the
collection is looked up, listed and cleaned of duplicates.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import PlanNotWritableError, RoutePlanningError
from route_planning_async._import import (
    BatchAnswer,
    ImportOptions,
    ImportReport,
    Listing,
    Refusal,
    RowKind,
)
from route_planning_async._limits import Category
from route_planning_async._validators import UnsetType
from route_planning_async._workflows import LiveEditOptions
from route_planning_async.v0_2b._converter import unstructure, wire_name
from route_planning_async.v0_2b._inputs import (
    MAX_DRIVER_IMPORT_BATCH,
    MAX_IMPORT_BATCH,
    AddressInput,
    DriverInput,
    StopInput,
    UnassignedStopInput,
    check_no_depot,
)
from route_planning_async.v0_2b._live_edit import LiveEdit
from route_planning_async.v0_2b._models import (
    DriverImportResult,
    ImportResult,
    LiveImportResult,
    PlanOptimization,
    UnassignedStop,
)

if TYPE_CHECKING:
    from route_planning_async.v0_2b.resources.drivers import Drivers
    from route_planning_async.v0_2b.resources.plans import Plans
    from route_planning_async.v0_2b.resources.stops import Stops
    from route_planning_async.v0_2b.resources.unassigned_stops import UnassignedStops

__all__ = [
    "DRIVER_ROWS",
    "PLAN_STOP_ROWS",
    "UNASSIGNED_STOP_ROWS",
    "LiveImport",
    "LiveImportOptions",
    "driver_key",
    "stop_key",
]

_LIST_PAGE: Final = 10
"""Stops per page of the plan's stop list (its largest page, public API documentation)."""

_DRIVER_PAGE: Final = 50
"""Drivers per page of the team's driver list (its largest page)."""

_STOP_KEY: Final = "recipient.external_id"

PLAN_STOP_ROWS: Final = RowKind(
    rows="stops",
    key_name=_STOP_KEY,
    max_batch=MAX_IMPORT_BATCH,
    category=Category.BATCH_IMPORT,
    body_field="stops",
    ending_errors=(PlanNotWritableError,),
)
"""The stops of a plan's import (``POST /plans/<id>/stops:import`` and ``:liveImport``)."""

UNASSIGNED_STOP_ROWS: Final = attrs.evolve(PLAN_STOP_ROWS, body_field="unassignedStops")
"""The stops of an unassigned stop import (``{unassignedStops, depot}``)."""

DRIVER_ROWS: Final = RowKind(
    rows="drivers",
    key_name="email or phone",
    max_batch=MAX_DRIVER_IMPORT_BATCH,
    category=Category.DRIVER_IMPORT,
    body_field="drivers",
)
"""The drivers of a driver import (``POST /drivers:import``)."""

_ADDRESS_KEYS: Final = tuple(wire_name(field.name) for field in attrs.fields(AddressInput))
"""What a refused stop's echoed address is compared on: every field of an address, as the wire names it."""

_DRIVER_IDENTITY: Final = ("name", "displayName", "email", "phone")
"""What a refused driver's echo is compared on."""


def _same_value(given: object, echoed: object) -> bool:
    if given in (None, "") and echoed in (None, ""):
        return True
    if isinstance(given, int | float) and isinstance(echoed, int | float):
        return math.isclose(given, echoed, rel_tol=1e-9, abs_tol=1e-9)
    return given == echoed


def _filled(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


# Stops ------------------------------------------------------------------------------------


def stop_key(item: StopInput | UnassignedStopInput) -> str | None:
    """A stop's natural key: its ``recipient.external_id``, when it has a non-empty one."""
    recipient = item.recipient
    if recipient is None or isinstance(recipient, UnsetType):
        return None
    return _filled(recipient.external_id)


def _stop_answer(result: ImportResult | LiveImportResult) -> BatchAnswer:
    return BatchAnswer(
        created=result.success, refused=[Refusal(failure.message, failure.stop) for failure in result.failed]
    )


class _StopRows:
    """What every stop import shares: the key ``recipient.external_id``; a refused stop's echo
    shows its ``recipient`` and ``address``; every stop weighs one in the weighted rules."""

    def key(self, item: StopInput | UnassignedStopInput) -> str | None:
        return stop_key(item)

    def key_field(self, item: StopInput | UnassignedStopInput) -> str:
        return _STOP_KEY

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        recipient = echo.get("recipient")
        return _filled(recipient.get("externalId")) if isinstance(recipient, dict) else None

    def echoes(self, item: StopInput | UnassignedStopInput, echo: Mapping[str, Any]) -> bool:
        echoed = echo.get("address")
        if not isinstance(echoed, dict):
            return False
        given = unstructure(item.address)
        return all(_same_value(given.get(key), echoed.get(key)) for key in _ADDRESS_KEYS)

    def weight(self, size: int) -> int:
        return size


@attrs.frozen
class _PlanStopsTarget(_StopRows):
    """The stops of one plan, as a bulk import target."""

    kind: ClassVar[RowKind] = PLAN_STOP_ROWS
    item_type: ClassVar[type[StopInput]] = StopInput
    stops: Stops
    plan_id: str

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    def check(self, item: StopInput, field: str) -> None:
        """Every valid :class:`StopInput` is accepted."""

    async def send(self, batch: list[StopInput], on_sent: Callable[[], None]) -> BatchAnswer:
        request = self.stops._import_request(self.plan_id, batch)
        return _stop_answer(await self.stops._fetch(request, ImportResult, on_sent))

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in self.stops.list(self.plan_id, filter={"externalId": external_id}):
            yield stop.id, stop.recipient.external_id

    async def existing(self) -> Listing:
        async for page in self.stops.list(self.plan_id, max_page_size=_LIST_PAGE).pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items]

    async def delete(self, item_id: str) -> None:
        await self.stops.delete(item_id)


@attrs.frozen
class _UnassignedStopsTarget(_StopRows):
    """The team's unassigned stops, imported with one depot for every batch.

    The contract does not show this import; it follows the public API
    documentation: ``POST /unassignedStops:import`` with ``{unassignedStops,
    depot}``. Reconciliation uses ``GET /unassignedStops`` with
    ``filter[externalId]``: a found stop counts only when it carries the external
    id (and, when ``depot`` is given, belongs to that depot); should the service
    ignore the filter, the importer notices and reports the batch ``unknown``
    instead of guessing.
    """

    kind: ClassVar[RowKind] = UNASSIGNED_STOP_ROWS
    item_type: ClassVar[type[UnassignedStopInput]] = UnassignedStopInput
    id_prefix: ClassVar[str] = "unassignedStops/"
    unassigned_stops: UnassignedStops
    depot: str | None

    def check(self, item: UnassignedStopInput, field: str) -> None:
        check_no_depot(item, field)

    async def send(self, batch: list[UnassignedStopInput], on_sent: Callable[[], None]) -> BatchAnswer:
        request = self.unassigned_stops._import_request(batch, self.depot)
        return _stop_answer(await self.unassigned_stops._fetch(request, ImportResult, on_sent))

    def _mine(self, stop: UnassignedStop) -> bool:
        return self.depot is None or not stop.depot or stop.depot == self.depot

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in self.unassigned_stops.list(filter={"externalId": external_id}):
            if self._mine(stop):
                yield stop.id, stop.recipient.external_id

    async def existing(self) -> Listing:
        async for page in self.unassigned_stops.list().pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items if self._mine(stop)]

    async def delete(self, item_id: str) -> None:
        await self.unassigned_stops.delete(item_id)


# Live stops -------------------------------------------------------------------------------


class LiveImportOptions(ImportOptions, LiveEditOptions, total=False):
    """The options of ``stops.live_import_many``: the bulk importer's
    (:class:`ImportOptions`) and how the editing session is applied
    (:class:`LiveEditOptions`)."""


@fields_documented(title="Attributes")
@attrs.frozen
class LiveImport:
    """What ``stops.live_import_many`` did."""

    report: ImportReport[StopInput] = attrs.field(metadata=described("One outcome per input stop."))
    pending: bool = attrs.field(
        metadata=described(
            "Whether the stops joined the plan's editing session (it was not writable), or may have: "
            "answers were lost and the plan was then left with changes to apply, or could not be read. "
            "The session was applied, unless the plan could not be read: then ``edit.operation`` is "
            "None, and the stops reported ``unknown`` may be waiting in the session until the plan is "
            "re-optimized and redistributed (or saved)."
        )
    )
    edit: LiveEdit = attrs.field(
        metadata=described(
            "The live edit that applied the session: ``edit.operation`` (the re-optimization) and "
            "``edit.plan`` (after ``:redistribute``) once applied."
        )
    )


@attrs.frozen
class _LivePlanStopsTarget(_StopRows):
    """The stops of a live plan, imported with ``:liveImport``.

    Each answer's ``pending`` is remembered: once one is true, the import has
    started (or joined) an editing session that ``live_import_many`` applies at
    the end. Reconciliation lists the plan's stops like :class:`_PlanStopsTarget`;
    the stops pending in an editing session are not listed, so for a plan that
    is not writable the lookup refuses (the batch is then ``unknown``) instead
    of resending stops that may be waiting in the session.
    """

    kind: ClassVar[RowKind] = PLAN_STOP_ROWS
    item_type: ClassVar[type[StopInput]] = StopInput
    stops: Stops
    plans: Plans
    plan_id: str
    answers: list[bool] = attrs.field(factory=list)
    """``pending`` of every answer so far (a list, so the frozen target can record)."""

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    @property
    def pending(self) -> bool:
        return any(self.answers)

    def check(self, item: StopInput, field: str) -> None:
        """Every valid :class:`StopInput` is accepted."""

    async def send(self, batch: list[StopInput], on_sent: Callable[[], None]) -> BatchAnswer:
        request = self.stops._live_import_request(self.plan_id, batch)
        result = await self.stops._fetch(request, LiveImportResult, on_sent)
        self.answers.append(result.pending)
        return _stop_answer(result)

    async def left_in_session(self) -> bool | None:
        """After answers were lost: whether the plan's editing session may hold changes.

        The lost batches may wait in the session, which no answer reported. The
        plan says: writable, or ``optimized`` (not ``editing``), it holds none
        (False); any other state, it may (True: applying it re-optimizes the
        plan, and the service answers that nothing is left to apply when so).
        None when the plan cannot be read.
        """
        try:
            plan = await self.plans.get(self.plan_id)
        except RoutePlanningError:
            return None
        return not plan.writable and plan.optimization != PlanOptimization.OPTIMIZED

    async def _in_session(self) -> bool:
        """Whether the plan is in an editing session, whose pending stops are not listed."""
        return not (await self.plans.get(self.plan_id)).writable

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        if await self._in_session():
            # The importer reads a LookupError as "cannot reconcile": the batch is unknown.
            raise LookupError("stops pending in the plan's editing session are not listed")
        async for stop in self.stops.list(self.plan_id, filter={"externalId": external_id}):
            yield stop.id, stop.recipient.external_id

    async def existing(self) -> Listing:
        if await self._in_session():
            raise RoutePlanningError(
                f"plans/{self.plan_id} is in an editing session, whose pending stops are not listed: "
                "its existing stops cannot be read (skip_existing) until the session is applied"
            )
        async for page in self.stops.list(self.plan_id, max_page_size=_LIST_PAGE).pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items]

    async def delete(self, item_id: str) -> None:
        # A live plan's stop goes through the editing session the import joined.
        await self.stops.live_delete(item_id)


# Drivers ----------------------------------------------------------------------------------


def driver_key(driver: DriverInput) -> str | None:
    """The natural key of a driver: its e-mail (case folded: e-mails compare without case),
    else its phone; None without either."""
    email = _filled(driver.email)
    return email.casefold() if email is not None else _filled(driver.phone)


def _keys_of(email: object, phone: object) -> set[str]:
    """Every key a stored driver answers to: its e-mail (case folded) and its phone."""
    keys = {key for key in (_filled(phone),) if key is not None}
    if (address := _filled(email)) is not None:
        keys.add(address.casefold())
    return keys


@attrs.frozen
class _DriversTarget:
    """The team's drivers, as a bulk import target (``drivers.import_many``).

    The natural key is the e-mail, compared without case, else the phone. A
    refused driver's echo (``failed[k].driver``) shows its name, display name,
    e-mail and phone. A batch weighs one request whatever its size.

    Exactly once: the driver list has no filter by e-mail or phone (public API
    documentation: ``filter[active]`` only), so a lookup lists the team and
    takes a driver whose e-mail or phone is the key as that input's driver. The
    importer shares one listing (:meth:`existing`) between the keys of a batch
    where that is cheaper; a single key's lookup (:meth:`find`) lists afresh, so
    the late-commit check sees drivers created after the reconciliation.
    """

    kind: ClassVar[RowKind] = DRIVER_ROWS
    item_type: ClassVar[type[DriverInput]] = DriverInput
    id_prefix: ClassVar[str] = "drivers/"
    drivers: Drivers

    def check(self, item: DriverInput, field: str) -> None:
        """Every valid :class:`DriverInput` is accepted."""

    def key(self, item: DriverInput) -> str | None:
        return driver_key(item)

    def key_field(self, item: DriverInput) -> str:
        return "email" if _filled(item.email) is not None else "phone"

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        email = _filled(echo.get("email"))
        return email.casefold() if email is not None else _filled(echo.get("phone"))

    def echoes(self, item: DriverInput, echo: Mapping[str, Any]) -> bool:
        given = unstructure(item)
        return all(_same_value(given.get(name), echo.get(name)) for name in _DRIVER_IDENTITY)

    def weight(self, size: int) -> int:
        return 1

    async def send(self, batch: list[DriverInput], on_sent: Callable[[], None]) -> BatchAnswer:
        result = await self.drivers._fetch(self.drivers._import_request(batch), DriverImportResult, on_sent)
        return BatchAnswer(
            created=result.success,
            refused=[Refusal(failure.message, failure.driver) for failure in result.failed],
        )

    async def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        async for driver in self.drivers.list(max_page_size=_DRIVER_PAGE):
            if key in _keys_of(driver.email, driver.phone):
                yield driver.id, key

    async def existing(self) -> Listing:
        # A driver answers to its e-mail and to its phone (a row's key is either).
        async for page in self.drivers.list(max_page_size=_DRIVER_PAGE).pages():
            yield [(driver.id, key) for driver in page.items for key in _keys_of(driver.email, driver.phone)]

    async def delete(self, item_id: str) -> None:
        await self.drivers.delete(item_id)
