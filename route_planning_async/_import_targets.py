"""The import targets of the batch imports every version has: a plan's stops (and its
live import), the unassigned stops and the drivers.

Each target tells the engine (``_import/``) everything about its rows: the
words and bounds of their kind (:class:`RowKind`), their natural key, how a
refused row's echo is matched, how a batch is sent and weighed, and how the
collection is looked up, listed and cleaned of duplicates. A version's
``_import_targets.py`` makes them with its own namespaces and input classes
(``item_type``); the answers (:class:`ImportResult` and the rest) are the
shared models. :func:`live_import` is ``stops.live_import_many`` of every version.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Final, Protocol, TypeVar, Unpack, cast

import attrs

from route_planning_async._checks._validators import UnsetType
from route_planning_async._converter import camel_case
from route_planning_async._core import AttemptHooks
from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import PlanNotWritableError, RoutePlanningError
from route_planning_async._import import (
    BatchAnswer,
    ImportOptions,
    ImportReport,
    Listing,
    Refusal,
    RowKind,
    run_import,
)
from route_planning_async._inputs import MAX_DRIVER_IMPORT_BATCH, MAX_IMPORT_BATCH, AddressInput, DriverInput
from route_planning_async._models import DriverImportResult, ImportResult, LiveImportResult
from route_planning_async._rate_limits._limits import Category, RateLimits
from route_planning_async._scheduler import Clock
from route_planning_async._workflows import LiveEdit, LiveEditOptions

__all__ = [
    "DRIVER_ROWS",
    "PLAN_STOP_ROWS",
    "UNASSIGNED_STOP_ROWS",
    "DriversTarget",
    "LiveImport",
    "LiveImportOptions",
    "LivePlanStopsTarget",
    "PlanStopsTarget",
    "UnassignedStopsTarget",
    "driver_key",
    "echoes_fields",
    "filled",
    "live_import",
    "same_value",
    "split_live_options",
    "stop_key",
]

T = TypeVar("T")

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

_ADDRESS_FIELDS: Final = tuple((field.name, camel_case(field.name)) for field in attrs.fields(AddressInput))
"""What a refused stop's echoed address is compared on: every field of an address, and its wire name."""

_DRIVER_IDENTITY: Final = (
    ("name", "name"),
    ("display_name", "displayName"),
    ("email", "email"),
    ("phone", "phone"),
)
"""What a refused driver's echo is compared on (attribute, wire name)."""


def same_value(given: object, echoed: object) -> bool:
    """Whether a row's value and the service's echo of it agree (empty agrees with empty,
    numbers within rounding)."""
    if given in (None, "") and echoed in (None, ""):
        return True
    if isinstance(given, int | float) and isinstance(echoed, int | float):
        return math.isclose(given, echoed, rel_tol=1e-9, abs_tol=1e-9)
    return given == echoed


def filled(value: object) -> str | None:
    """``value`` when it is a non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def _plain(value: object) -> object:
    return None if isinstance(value, UnsetType) else value


def echoes_fields(item: object, echo: Mapping[str, Any], fields: Iterable[tuple[str, str]]) -> bool:
    """Whether ``echo`` shows ``item``: each ``(attribute, wire name)`` agrees (unset as null)."""
    return all(same_value(_plain(getattr(item, name)), echo.get(wire)) for name, wire in fields)


# Stops ------------------------------------------------------------------------------------


class _Row(Protocol):
    @property
    def recipient(self) -> Any: ...


def stop_key(item: _Row) -> str | None:
    """A stop's natural key: its ``recipient.external_id``, when it has a non-empty one."""
    recipient = item.recipient
    if recipient is None or isinstance(recipient, UnsetType):
        return None
    return filled(recipient.external_id)


def _stop_answer(result: ImportResult | LiveImportResult) -> BatchAnswer:
    return BatchAnswer(
        created=result.success, refused=[Refusal(failure.message, failure.stop) for failure in result.failed]
    )


class _StopRows:
    """What every stop import shares: the key ``recipient.external_id``; a refused stop's echo
    shows its ``recipient`` and ``address``; every stop weighs one in the weighted rules.

    A stop without an external id has no key: it is sent once, and when its batch's answer
    is lost it is reported ``unknown`` (never resent); ``skip_existing`` and ``dedupe``
    cannot match it."""

    def key(self, item: Any) -> str | None:
        return stop_key(item)

    def key_field(self, item: Any) -> str:
        return _STOP_KEY

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        recipient = echo.get("recipient")
        return filled(recipient.get("externalId")) if isinstance(recipient, dict) else None

    def echoes(self, item: Any, echo: Mapping[str, Any]) -> bool:
        echoed = echo.get("address")
        return isinstance(echoed, dict) and echoes_fields(item.address, echoed, _ADDRESS_FIELDS)

    def weight(self, size: int) -> int:
        return size


@attrs.frozen
class PlanStopsTarget(_StopRows):
    """The stops of one plan, as a bulk import target (``stops``: the version's ``client.stops``)."""

    kind: ClassVar[RowKind] = PLAN_STOP_ROWS
    stops: Any
    plan_id: str
    item_type: type[Any]

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    def check(self, item: Any, field: str) -> None:
        """Every valid stop input is accepted."""

    async def send(self, batch: list[Any], on_sent: AttemptHooks) -> BatchAnswer:
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
class UnassignedStopsTarget(_StopRows):
    """The team's unassigned stops, imported with one depot for every batch.

    ``POST /unassignedStops:import`` with ``{unassignedStops, depot}``.
    Reconciliation uses ``GET /unassignedStops`` with ``filter[externalId]``: a
    found stop counts only when it carries the external id (and, when ``depot``
    is given, belongs to that depot); should the service ignore the filter, the
    importer notices and reports the batch ``unknown`` instead of guessing.
    """

    kind: ClassVar[RowKind] = UNASSIGNED_STOP_ROWS
    id_prefix: ClassVar[str] = "unassignedStops/"
    unassigned_stops: Any
    depot: str | None
    item_type: type[Any]
    check_item: Callable[[Any, str], None]
    """The version's check of a row (it names no depot of its own)."""

    def check(self, item: Any, field: str) -> None:
        self.check_item(item, field)

    async def send(self, batch: list[Any], on_sent: AttemptHooks) -> BatchAnswer:
        request = self.unassigned_stops._import_request(batch, self.depot)
        return _stop_answer(await self.unassigned_stops._fetch(request, ImportResult, on_sent))

    def _mine(self, stop: Any) -> bool:
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
    """What ``stops.live_import_many`` did.

    Attributes:
        report (ImportReport[Any]): One outcome per input stop.
        pending (bool): Whether the stops joined the plan's editing session (it was not writable), or
            may have: answers were lost and the plan was then left with changes to apply, or could not
            be read. The session was applied, unless the plan could not be read: then ``edit.operation``
            is None, and the stops reported ``unknown`` may be waiting in the session until the plan is
            re-optimized and redistributed (or saved).
        edit (LiveEdit[Any, Any, Any, Any]): The live edit that applied the session: ``edit.operation``
            (the re-optimization) and ``edit.plan`` (after ``:redistribute``) once applied.
    """

    report: ImportReport[Any] = attrs.field(metadata=described("One outcome per input stop."))
    pending: bool = attrs.field(
        metadata=described(
            "Whether the stops joined the plan's editing session (it was not writable), or may have: "
            "answers were lost and the plan was then left with changes to apply, or could not be read. "
            "The session was applied, unless the plan could not be read: then ``edit.operation`` is "
            "None, and the stops reported ``unknown`` may be waiting in the session until the plan is "
            "re-optimized and redistributed (or saved)."
        )
    )
    edit: LiveEdit[Any, Any, Any, Any] = attrs.field(
        metadata=described(
            "The live edit that applied the session: ``edit.operation`` (the re-optimization) and "
            "``edit.plan`` (after ``:redistribute``) once applied."
        )
    )


@attrs.frozen
class LivePlanStopsTarget(_StopRows):
    """The stops of a live plan, imported with ``:liveImport``.

    Each answer's ``pending`` is remembered: once one is true, the import has
    started (or joined) an editing session that :func:`live_import` applies at
    the end. Reconciliation lists the plan's stops like :class:`PlanStopsTarget`;
    the stops pending in an editing session are not listed, so for a plan that
    is not writable the lookup refuses (the batch is then ``unknown``) instead
    of resending stops that may be waiting in the session.
    """

    kind: ClassVar[RowKind] = PLAN_STOP_ROWS
    stops: Any
    plans: Any
    plan_id: str
    item_type: type[Any]
    answers: list[bool] = attrs.field(factory=list)
    """``pending`` of every answer so far (a list, so the frozen target can record)."""

    @property
    def id_prefix(self) -> str:
        return f"plans/{self.plan_id}/stops/"

    @property
    def pending(self) -> bool:
        return any(self.answers)

    def check(self, item: Any, field: str) -> None:
        """Every valid stop input is accepted."""

    async def send(self, batch: list[Any], on_sent: AttemptHooks) -> BatchAnswer:
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
        return not plan.writable and plan.optimization != "optimized"

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


EditT = TypeVar("EditT", bound=LiveEdit[Any, Any, Any, Any])


async def live_import(
    target: LivePlanStopsTarget,
    context: AbstractAsyncContextManager[EditT],
    stops: Iterable[T] | AsyncIterable[T],
    *,
    pending_marker: Any,
    limits: RateLimits,
    clock: Clock,
    **options: Unpack[ImportOptions],
) -> tuple[ImportReport[T], bool, EditT]:
    """``stops.live_import_many`` of every version: import through ``target`` inside the
    version's live edit ``context``, then let it apply the editing session.

    The stops go through the bulk importer (batches of ``:liveImport``, exactly
    once by ``recipient.external_id``). When an answer says the stops are
    ``pending`` (the plan was not writable and they joined its editing session),
    the import is applied once it has ended: ``:reoptimize``, wait, then
    ``:redistribute`` (or ``:save`` with ``distribute=False``). When the import
    raises, nothing is applied (the editing session keeps what was sent, as
    with ``live_edit``). Stops pending in an editing session are not listed by
    the service, so a batch of a plan that is not writable whose answer was lost
    cannot be reconciled: it is reported ``unknown``; when rows are ``unknown``
    and no answer said ``pending`` the plan is read: unless it is writable or
    ``optimized`` (its session holds nothing), the session is applied. When the
    plan cannot be read, ``pending`` is True and nothing is applied.

    Args:
        target: The live import's target.
        context: The version's ``live_edit`` of the plan.
        stops: The rows.
        pending_marker: The version's ``LiveChange(pending=True)``: recorded in the
            edit when the session holds the import, so that it is applied on exit.
        limits: The client's limits.
        clock: The scheduler's clock.
        **options: The importer's options.

    Returns:
        The report, whether the stops (may have) joined the session, and the live edit.
    """
    async with context as edit:
        report = await run_import(target, stops, limits=limits, clock=clock, **options)
        pending: bool | None = target.pending
        if not pending and report.unknown:
            # No answer said pending, but lost ones may have: the plan's state tells.
            pending = await target.left_in_session()
        if pending:
            # The importer's batches are not live calls; one marker makes
            # the live edit apply the editing session on exit.
            edit.changes.append(pending_marker)
    return report, pending is not False, edit


def split_live_options(options: Mapping[str, Any]) -> tuple[LiveEditOptions, ImportOptions]:
    """The options of ``live_import_many``, as the live edit's and the importer's."""
    live_keys = LiveEditOptions.__optional_keys__
    edit_options = cast(LiveEditOptions, {k: v for k, v in options.items() if k in live_keys})
    import_options = cast(ImportOptions, {k: v for k, v in options.items() if k not in live_keys})
    return edit_options, import_options


# Drivers ----------------------------------------------------------------------------------


def driver_key(driver: DriverInput) -> str | None:
    """The natural key of a driver: its e-mail (case folded: e-mails compare without case),
    else its phone; None without either."""
    email = filled(driver.email)
    return email.casefold() if email is not None else filled(driver.phone)


def _keys_of(email: object, phone: object) -> set[str]:
    """Every key a stored driver answers to: its e-mail (case folded) and its phone."""
    keys = {key for key in (filled(phone),) if key is not None}
    if (address := filled(email)) is not None:
        keys.add(address.casefold())
    return keys


@attrs.frozen
class DriversTarget:
    """The team's drivers, as a bulk import target (``drivers.import_many``).

    The natural key is the e-mail, compared without case, else the phone; a
    driver with neither has no key: it is sent once, and reported ``unknown``
    (never resent) when its batch's answer is lost. A refused driver's echo
    (``failed[k].driver``) shows its name, display name, e-mail and phone. A
    batch weighs one request whatever its size.

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
    drivers: Any

    def check(self, item: DriverInput, field: str) -> None:
        """Every valid :class:`DriverInput` is accepted."""

    def key(self, item: DriverInput) -> str | None:
        return driver_key(item)

    def key_field(self, item: DriverInput) -> str:
        return "email" if filled(item.email) is not None else "phone"

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        email = filled(echo.get("email"))
        return email.casefold() if email is not None else filled(echo.get("phone"))

    def echoes(self, item: DriverInput, echo: Mapping[str, Any]) -> bool:
        return echoes_fields(item, echo, _DRIVER_IDENTITY)

    def weight(self, size: int) -> int:
        return 1

    async def send(self, batch: list[DriverInput], on_sent: AttemptHooks) -> BatchAnswer:
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
