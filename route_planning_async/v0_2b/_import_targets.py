"""Where the bulk importer sends its batches: one import target per v0.2b batch import."""

from __future__ import annotations

from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Callable,
    Mapping,
)
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from route_planning_async._errors import RoutePlanningError, ValidationError
from route_planning_async._import import (
    FailedBatch,
    ImportOptions,
    ImportReport,
    RejectedStop,
    stop_key,
)
from route_planning_async._workflows import LiveEditOptions
from route_planning_async.v0_2b._converter import unstructure
from route_planning_async.v0_2b._inputs import (
    DriverInput,
    StopInput,
    UnassignedStopInput,
    check_no_depot,
)
from route_planning_async.v0_2b._live_edit import LiveEdit
from route_planning_async.v0_2b._models import (
    DriverImportResult,
    ImportFailure,
    ImportResult,
    LiveImportResult,
    UnassignedStop,
)

if TYPE_CHECKING:
    from route_planning_async.v0_2b.resources.drivers import Drivers
    from route_planning_async.v0_2b.resources.plans import Plans
    from route_planning_async.v0_2b.resources.stops import Stops
    from route_planning_async.v0_2b.resources.unassigned_stops import UnassignedStops

# Import targets: where the bulk importer (``_importer.run_import``) sends its batches.


_LIST_PAGE = 10
"""Stops per page of the plan's stop list (its largest page, public API documentation)."""

_DRIVER_PAGE = 50
"""Drivers per page of the team's driver list (its largest page)."""


@attrs.frozen
class _PlanStopsTarget:
    """The stops of one plan, as a bulk import target; the key is ``recipient.external_id``."""

    item_type: ClassVar[type[StopInput]] = StopInput
    key_field: ClassVar[str] = "recipient.external_id"
    rows_name: ClassVar[str] = "stops"
    stops: Stops
    plan_id: str

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    def check(self, item: StopInput, field: str) -> None:
        """Every valid :class:`StopInput` is accepted."""

    def key(self, item: StopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[StopInput], on_sent: Callable[[], None]) -> ImportResult:
        return await self.stops._fetch(self.stops._import_request(self.plan_id, batch), ImportResult, on_sent)

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in self.stops.list(self.plan_id, filter={"externalId": external_id}):
            yield stop.id, stop.recipient.external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        async for page in self.stops.list(self.plan_id, max_page_size=_LIST_PAGE).pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items]

    async def delete(self, item_id: str) -> None:
        await self.stops.delete(item_id)


@attrs.frozen
class _UnassignedStopsTarget:
    """The team's unassigned stops, imported with one depot for every batch.

    The contract does not show this import; it follows the public API
    documentation: ``POST /unassignedStops:import`` with ``{unassignedStops,
    depot}``. Reconciliation uses ``GET /unassignedStops`` with
    ``filter[externalId]``: a found stop counts only when it carries the external
    id (and, when ``depot`` is given, belongs to that depot); should the service
    ignore the filter, the importer notices and reports the batch ``unknown``
    instead of guessing.
    """

    item_type: ClassVar[type[UnassignedStopInput]] = UnassignedStopInput
    id_prefix: ClassVar[str] = "unassignedStops/"
    key_field: ClassVar[str] = "recipient.external_id"
    rows_name: ClassVar[str] = "stops"
    unassigned_stops: UnassignedStops
    depot: str | None

    def check(self, item: UnassignedStopInput, field: str) -> None:
        check_no_depot(item, field)

    def key(self, item: UnassignedStopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[UnassignedStopInput], on_sent: Callable[[], None]) -> ImportResult:
        request = self.unassigned_stops._import_request(batch, self.depot)
        return await self.unassigned_stops._fetch(request, ImportResult, on_sent)

    def _mine(self, stop: UnassignedStop) -> bool:
        return self.depot is None or not stop.depot or stop.depot == self.depot

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for stop in self.unassigned_stops.list(filter={"externalId": external_id}):
            if self._mine(stop):
                yield stop.id, stop.recipient.external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        async for page in self.unassigned_stops.list().pages():
            yield [(stop.id, stop.recipient.external_id) for stop in page.items if self._mine(stop)]

    async def delete(self, item_id: str) -> None:
        await self.unassigned_stops.delete(item_id)


class LiveImportOptions(ImportOptions, LiveEditOptions, total=False):
    """The options of ``stops.live_import_many``: the bulk importer's
    (:class:`_importer.ImportOptions`) and how the editing session is applied
    (:class:`_workflows.LiveEditOptions`: ``distribute``, ``optimization_type``,
    ``timeout``, ``poll_interval``, ``max_poll_interval``, ``cancel_on_timeout``)."""


@attrs.frozen
class LiveImport:
    """What ``stops.live_import_many`` did."""

    report: ImportReport[StopInput]
    """One outcome per input stop."""
    pending: bool
    """Whether the stops joined an editing session (the plan was not writable),
    which was then applied."""
    edit: LiveEdit
    """The live edit that applied the session: ``edit.operation`` (the
    re-optimization) and ``edit.plan`` (after ``:redistribute``) once applied."""


@attrs.frozen
class _LivePlanStopsTarget:
    """The stops of a live plan, imported with ``:liveImport``.

    Each answer's ``pending`` is remembered: once one is true, the import has
    started (or joined) an editing session that ``live_import_many`` applies at
    the end. Reconciliation lists the plan's stops like :class:`_PlanStopsTarget`;
    the stops pending in an editing session are not listed, so for a plan that
    is not writable the lookup refuses (the batch is then ``unknown``) instead
    of resending stops that may be waiting in the session.
    """

    item_type: ClassVar[type[StopInput]] = StopInput
    key_field: ClassVar[str] = "recipient.external_id"
    rows_name: ClassVar[str] = "stops"
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

    def key(self, item: StopInput) -> str | None:
        return stop_key(item)

    async def send(self, batch: list[StopInput], on_sent: Callable[[], None]) -> ImportResult:
        request = self.stops._live_import_request(self.plan_id, batch)
        result = await self.stops._fetch(request, LiveImportResult, on_sent)
        self.answers.append(result.pending)
        return ImportResult(success=result.success, failed=result.failed)

    async def _in_session(self) -> bool:
        """Whether the plan is in an editing session, whose pending stops are not listed."""
        return not (await self.plans.get(self.plan_id)).writable

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        if await self._in_session():
            # The importer reads a LookupError as "cannot reconcile": the batch is unknown.
            raise LookupError("stops pending in the plan's editing session are not listed")
        async for stop in self.stops.list(self.plan_id, filter={"externalId": external_id}):
            yield stop.id, stop.recipient.external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
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


def driver_key(driver: DriverInput) -> str | None:
    """The natural key of a driver: its e-mail, else its phone; None without either."""
    for value in (driver.email, driver.phone):
        if isinstance(value, str) and value:
            return value
    return None


@attrs.frozen
class _NaturalKey:
    """What the importer engine reads as ``row.recipient``: the row's key."""

    external_id: str | None


def _identity(driver: Mapping[str, Any]) -> dict[str, Any]:
    """A driver's identifying fields, in the address keys the engine compares
    when a failure comes back without a key (see :class:`_DriverRow`)."""
    return {
        "addressName": driver.get("name"),
        "addressLineOne": driver.get("displayName"),
        "addressLineTwo": driver.get("email"),
        "city": driver.get("phone"),
    }


@attrs.frozen
class _DriverRow:
    """One input driver, in the stop-shaped form the importer engine reads.

    The engine (``_importer.py``) takes the natural key from
    ``row.recipient.external_id`` and matches a failure's echo by its
    ``recipient.externalId``, else by its ``address``. A driver has neither, so
    the row answers its e-mail or phone as ``recipient.external_id`` and its
    identifying fields as ``address``; :class:`_DriversTarget` shapes the
    answer's echoes the same way. ``drivers.import_many`` unwraps the rows
    again, so its report holds the caller's own :class:`DriverInput` objects.
    """

    driver: DriverInput

    @classmethod
    def of(cls, item: object, field: str) -> _DriverRow:
        if not isinstance(item, DriverInput):
            raise ValidationError(field, f"must be a DriverInput, got {type(item).__name__}")
        return cls(item)

    @property
    def recipient(self) -> _NaturalKey:
        return _NaturalKey(driver_key(self.driver))

    @property
    def address(self) -> dict[str, Any]:
        return _identity(unstructure(self.driver))


async def _driver_rows_async(drivers: AsyncIterable[DriverInput]) -> AsyncIterator[_DriverRow]:
    async for item in drivers:
        yield _DriverRow.of(item, "driver")


def _unwrapped(report: ImportReport[Any]) -> ImportReport[Any]:
    """The report with the caller's :class:`DriverInput` objects in place of the rows."""
    report.rejected_stops[:] = [
        RejectedStop(r.position, r.stop.driver, r.message) for r in report.rejected_stops
    ]
    report.failed_batches[:] = [
        FailedBatch(f.outcome, f.positions, tuple(row.driver for row in f.stops), f.error)
        for f in report.failed_batches
    ]
    return report


@attrs.define
class _DriversTarget:
    """The team's drivers, as a bulk import target (``drivers.import_many``).

    The importer engine is written for stops: its rows carry ``recipient`` and
    ``address`` and its answers echo ``stop``. This target adapts a driver
    import to it: rows are :class:`_DriverRow`, and each answer of ``POST
    /drivers:import`` becomes an :class:`ImportResult` whose failures echo the
    driver's key and identifying fields in the shape the engine matches.

    Exactly once: the driver list has no filter by e-mail or phone (public API
    documentation: ``filter[active]`` only), so a lookup lists the team and
    takes a driver whose e-mail or phone is the key as that input's driver. The
    importer shares one listing (:meth:`existing`) between the keys of a batch
    where that is cheaper; a single key's lookup (:meth:`find`) lists afresh, so
    the late-commit check sees drivers created after the reconciliation.
    """

    item_type: ClassVar[type[_DriverRow]] = _DriverRow
    id_prefix: ClassVar[str] = "drivers/"
    key_field: ClassVar[str] = "email"
    rows_name: ClassVar[str] = "drivers"
    drivers: Drivers

    def check(self, item: _DriverRow, field: str) -> None:
        """Every valid :class:`DriverInput` is accepted."""

    def key(self, item: _DriverRow) -> str | None:
        return driver_key(item.driver)

    async def send(self, batch: list[_DriverRow], on_sent: Callable[[], None]) -> ImportResult:
        request = self.drivers._import_request([row.driver for row in batch])
        result = await self.drivers._fetch(request, DriverImportResult, on_sent)
        failed = [
            ImportFailure(
                message=failure.message,
                stop={
                    "recipient": {"externalId": _echo_key(failure.driver)},
                    "address": _identity(failure.driver),
                },
            )
            for failure in result.failed
        ]
        return ImportResult(success=result.success, failed=failed)

    async def find(self, external_id: str) -> AsyncIterator[tuple[str, str | None]]:
        async for driver in self.drivers.list(max_page_size=_DRIVER_PAGE):
            if external_id in (driver.email, driver.phone):
                yield driver.id, external_id

    async def existing(self) -> AsyncGenerator[list[tuple[str, str | None]], None]:
        # A driver answers to its e-mail and to its phone (an input's key is either).
        async for page in self.drivers.list(max_page_size=_DRIVER_PAGE).pages():
            yield [(driver.id, key) for driver in page.items for key in {driver.email, driver.phone} if key]

    async def delete(self, item_id: str) -> None:
        await self.drivers.delete(item_id)


def _echo_key(echo: Mapping[str, Any]) -> str | None:
    for name in ("email", "phone"):
        value = echo.get(name)
        if isinstance(value, str) and value:
            return value
    return None
