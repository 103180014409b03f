"""The bulk importer's engine with a made-up kind of row, against a service held in memory.

The engine (``route_planning_async._import``) knows rows only through their
import target. Here the rows are parcels of a depot shelf, keyed by their tag:
nothing of a stop or a driver. The shelf answers as a batch import does,
``{created ids, refused rows echoed}``, and can lose the answer of a request it
applied, so the engine has to reconcile by key. The options are written once,
in :class:`ImportSettings`, and every ``import_many`` docstring shows their texts.
"""

from __future__ import annotations

import asyncio
import pathlib
import re
import typing
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, ClassVar

import attrs
import pytest

import route_planning_async as rp
from route_planning_async._docs import keyword_section
from route_planning_async._import import (
    BatchAnswer,
    ImportOptions,
    ImportSettings,
    ImportTarget,
    Listing,
    Outcome,
    Refusal,
    RowKind,
    run_import,
)
from route_planning_async._import._options import OPTION_KEYWORDS
from route_planning_async._rate_limits._limits import Category, RateLimits
from route_planning_async._scheduler import LoopClock
from route_planning_async.v0_2b._import_targets import (
    DRIVER_ROWS,
    PLAN_STOP_ROWS,
    UNASSIGNED_STOP_ROWS,
    driver_key,
)
from route_planning_async.v0_2b.resources import Drivers, Stops, UnassignedStops

PARCEL_ROWS = RowKind(
    rows="parcels",
    key_name="tag",
    max_batch=4,
    category=Category.WRITE,
    body_field="parcels",
    ending_errors=(rp.ConflictError,),
)


@attrs.frozen
class Parcel:
    """A made-up row: a parcel with a tag (its key) and a weight."""

    tag: str | None
    weight_kg: float


class Shelf:
    """The service: parcels by id; a negative weight is refused inside a successful answer."""

    def __init__(self) -> None:
        self.parcels: dict[str, Parcel] = {}
        self.requests = 0
        self.lose_answer_of: set[int] = set()
        """Request numbers (from 1) whose parcels are stored but whose answer is lost (a 503)."""

    def store(self, batch: list[Parcel]) -> BatchAnswer:
        self.requests += 1
        created, refused = [], []
        for parcel in batch:
            if parcel.weight_kg < 0:
                refused.append(
                    Refusal("weight must be positive", {"tag": parcel.tag, "weightKg": parcel.weight_kg})
                )
                continue
            parcel_id = f"shelf/p{len(self.parcels)}"
            self.parcels[parcel_id] = parcel
            created.append(parcel_id)
        if self.requests in self.lose_answer_of:
            raise rp.ServerError(503, "answer lost")
        return BatchAnswer(created=created, refused=refused)


@attrs.frozen
class ShelfTarget:
    """The shelf as an import target of parcels."""

    kind: ClassVar[RowKind] = PARCEL_ROWS
    item_type: ClassVar[type[Parcel]] = Parcel
    id_prefix: ClassVar[str] = "shelf/"
    shelf: Shelf

    def check(self, item: Parcel, field: str) -> None:
        """Every parcel is accepted."""

    def key(self, item: Parcel) -> str | None:
        return item.tag

    def key_field(self, item: Parcel) -> str:
        return "tag"

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        tag = echo.get("tag")
        return tag if isinstance(tag, str) else None

    def echoes(self, item: Parcel, echo: Mapping[str, Any]) -> bool:
        return echo.get("weightKg") == item.weight_kg

    def weight(self, size: int) -> int:
        return 1

    async def send(self, batch: list[Parcel], on_sent: Callable[[], None]) -> BatchAnswer:
        await asyncio.sleep(0)
        on_sent()
        return self.shelf.store(batch)

    async def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        for parcel_id, parcel in list(self.shelf.parcels.items()):
            if parcel.tag == key:
                yield parcel_id, parcel.tag

    async def existing(self) -> Listing:
        yield [(parcel_id, parcel.tag) for parcel_id, parcel in self.shelf.parcels.items()]

    async def delete(self, item_id: str) -> None:
        del self.shelf.parcels[item_id]


async def import_parcels(shelf: Shelf, parcels: list[Parcel], **options: Any) -> rp.ImportReport[Parcel]:
    target: ImportTarget[Parcel] = ShelfTarget(shelf)
    return await run_import(target, parcels, limits=RateLimits.unlimited(), clock=LoopClock(), **options)


@pytest.mark.asyncio
async def test_a_kind_of_row_the_engine_never_heard_of_is_imported_exactly_once() -> None:
    shelf = Shelf()
    shelf.lose_answer_of = {2}
    parcels = [Parcel(f"tag-{n}", -1.0 if n == 5 else float(n)) for n in range(10)]
    report = await import_parcels(shelf, parcels, settle_delay=0.0)
    assert (report.total, report.created, len(report.rejected)) == (10, 9, 1)
    [refused] = report.rejected
    assert (refused.position, refused.input, refused.message) == (5, parcels[5], "weight must be positive")
    # The lost answer was reconciled by tag: every parcel is on the shelf once.
    assert sorted(str(parcel.tag) for parcel in shelf.parcels.values()) == sorted(
        str(p.tag) for p in parcels if p.weight_kg >= 0
    )
    for position, parcel_id in report.created_ids():
        assert shelf.parcels[parcel_id] == parcels[position]
    # Batches of the kind's 4; of the ambiguous one, only the parcel not found is sent again.
    assert shelf.requests == 4


@pytest.mark.asyncio
async def test_the_kind_names_rows_keys_and_bounds() -> None:
    shelf = Shelf()
    with pytest.raises(rp.ValidationError) as repeated:
        await import_parcels(shelf, [Parcel("a", 1.0), Parcel("b", 1.0), Parcel("a", 2.0)])
    assert repeated.value.field == "parcels[2].tag"
    assert "parcels[0]" in repeated.value.rule
    with pytest.raises(rp.ValidationError) as too_big:
        await import_parcels(shelf, [Parcel("a", 1.0)], batch_size=5)
    assert (too_big.value.field, too_big.value.rule) == ("batch_size", "must be 1 to 4, got 5")
    with pytest.raises(rp.ValidationError) as wrong:
        await import_parcels(shelf, ["a parcel"])  # type: ignore[list-item]
    assert wrong.value.field == "parcels[0]"
    assert shelf.requests == 0
    report = await import_parcels(shelf, [Parcel(None, 1.0)], skip_existing=True)
    assert report.outcome(0) is Outcome.CREATED


@pytest.mark.asyncio
async def test_a_batch_is_sent_before_the_next_is_read() -> None:
    read: list[int] = []
    read_at_first_send: list[int] = []

    class Counted(ShelfTarget):
        async def send(self, batch: list[Parcel], on_sent: Callable[[], None]) -> BatchAnswer:
            read_at_first_send.append(len(read))
            return await super().send(batch, on_sent)

    def parcels() -> typing.Iterator[Parcel]:
        for n in range(40):
            read.append(n)
            yield Parcel(f"tag-{n}", 1.0)

    target: ImportTarget[Parcel] = Counted(Shelf())
    report = await run_import(
        target, parcels(), limits=RateLimits.unlimited(), clock=LoopClock(), max_in_flight=8
    )
    assert report.created == 40
    # The first request went with its own batch of 4 read, not eight batches' worth: a slow
    # input delays it by one batch's reading.
    assert read_at_first_send[0] <= 2 * PARCEL_ROWS.max_batch


def test_the_typed_options_are_the_settings() -> None:
    hints = ImportOptions.__annotations__
    fields = attrs.fields(ImportSettings)
    assert set(ImportOptions.__optional_keys__) == {field.name for field in fields}
    assert not ImportOptions.__required_keys__
    for field in fields:
        assert typing.ForwardRef(str(field.type)).__forward_arg__ == hints[field.name].__forward_arg__


def test_settings_take_their_defaults_once() -> None:
    settings = ImportSettings.of({})
    assert settings == ImportSettings()
    assert settings.batch_size_for(ShelfTarget(Shelf()), RateLimits.default()) == 4
    assert settings.in_flight_for(DRIVER_ROWS, RateLimits.default(), 1) == 2
    assert settings.in_flight_for(PLAN_STOP_ROWS, RateLimits.default(), 100) == 10
    # A window of the public documentation's 1,000 stops a minute holds 10 batches of 100,
    # though its request rules admit 30 a minute.
    assert settings.in_flight_for(PLAN_STOP_ROWS, RateLimits.public_docs(), 100) == 10
    assert settings.in_flight_for(PLAN_STOP_ROWS, RateLimits.public_docs(), 10) == 30
    with pytest.raises(TypeError, match="unexpected keyword argument 'dedup'"):
        ImportSettings.of({"dedup": True})


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("method", "kind"),
    [
        (Stops.import_many, PLAN_STOP_ROWS),
        (Stops.live_import_many, PLAN_STOP_ROWS),
        (UnassignedStops.import_many, UNASSIGNED_STOP_ROWS),
        (Drivers.import_many, DRIVER_ROWS),
    ],
)
def test_import_many_shows_each_option_text_as_the_settings_hold_it(
    method: Callable[..., Any], kind: RowKind
) -> None:
    doc = _flat(method.__doc__ or "")
    for field in attrs.fields(ImportSettings):
        text = field.metadata["route_planning_async.doc"]
        for word, value in kind.words().items():
            text = text.replace(f"{{{word}}}", value)
        assert _flat(text) in doc, (method.__qualname__, field.name)
    assert _flat(keyword_section(OPTION_KEYWORDS, kind.words())).removeprefix("Keyword Args: ") in doc


def test_the_driver_import_documents_its_own_batch_bound() -> None:
    doc = _flat(Drivers.import_many.__doc__ or "")
    assert "1 to 50" in doc
    assert "1 to 100" not in doc
    assert "1 to 100" in _flat(Stops.import_many.__doc__ or "")


def test_a_drivers_email_key_ignores_case() -> None:
    assert driver_key(rp.DriverInput(email="Ana@Example.COM", phone="+441")) == "ana@example.com"
    assert driver_key(rp.DriverInput(phone="+441")) == "+441"
    assert driver_key(rp.DriverInput(name="Ana")) is None


@pytest.mark.asyncio
async def test_an_error_every_batch_would_get_ends_the_import() -> None:
    class Full(Shelf):
        def store(self, batch: list[Parcel]) -> BatchAnswer:
            self.requests += 1
            raise rp.ConflictError(409, "the shelf is full")

    shelf = Full()
    with pytest.raises(rp.ConflictError):
        await import_parcels(shelf, [Parcel(f"t{n}", 1.0) for n in range(12)], max_in_flight=1)
    assert shelf.requests == 1


@pytest.mark.asyncio
async def test_the_stop_named_names_of_the_last_release_still_work_with_a_deprecation_warning() -> None:
    parcels = [Parcel(f"tag-{n}", -1.0 if n == 1 else 1.0) for n in range(3)]
    report = await import_parcels(Shelf(), parcels)
    with pytest.warns(
        DeprecationWarning, match=r"ImportReport\.rejected_stops is deprecated.*ImportReport\.rejected"
    ):
        assert report.rejected_stops is report.rejected
    with pytest.warns(DeprecationWarning, match=r"ImportReport\.stop_id\(\) is deprecated.*id_of\(\)"):
        assert report.stop_id(0) == report.id_of(0) is not None
    [refused] = report.rejected
    with pytest.warns(DeprecationWarning, match=r"RejectedStop\.stop is deprecated.*RejectedRow\.input"):
        assert refused.stop is parcels[1]
    failed = rp.FailedBatch(Outcome.NOT_CREATED, (0,), (parcels[0],), ValueError("lost"))
    with pytest.warns(DeprecationWarning, match=r"FailedBatch\.stops is deprecated.*FailedBatch\.inputs"):
        assert failed.stops == failed.inputs == (parcels[0],)
    for old, new in (("RejectedStop", rp.RejectedRow), ("DuplicateStop", rp.DuplicateRow)):
        with pytest.warns(DeprecationWarning, match=rf"route_planning_async\.{old} is deprecated"):
            assert getattr(rp, old) is new
    with pytest.raises(AttributeError, match="has no attribute 'RejectedParcel'"):
        _ = rp.RejectedParcel  # type: ignore[attr-defined]


def test_the_engine_names_no_kind_of_row() -> None:
    """``_import/`` speaks of rows, inputs and items; "stop" there is only the verb
    (stop reading, a stop request, ``stop_event``) or Python's ``StopIteration``."""
    verbs = re.compile(
        r"\b(stop_reading|stop_event|_check_stop_event|_watch_stop|why_stopped|stopped|StopIteration|"
        r"StopAsyncIteration|control\.stop|self\._control\.stop|def stop|stops? (reading|sending|request|it)"
        r"|never stops|stops the batches|stop\(exc)\b",
        re.IGNORECASE,
    )
    package = pathlib.Path(rp.__file__).parent / "_import"
    nouns = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(package.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"stop", verbs.sub("", line), re.IGNORECASE)
    ]
    assert nouns == []


@pytest.mark.asyncio
async def test_a_deprecation_points_at_the_line_that_used_the_old_name() -> None:
    # Python shows a DeprecationWarning by default only where __main__ triggers it, so each
    # must name the user's line, not the library's (the module names pointed at __init__.py).
    report = await import_parcels(Shelf(), [Parcel("tag-0", 1.0)])
    failed: rp.FailedBatch[Parcel] = rp.FailedBatch(Outcome.NOT_CREATED, (), (), ValueError("lost"))
    refused: rp.RejectedRow[Parcel] = rp.RejectedRow(0, Parcel("tag-1", -1.0), "refused")
    uses: dict[str, Callable[[], object]] = {
        "route_planning_async.RejectedStop": lambda: rp.RejectedStop,
        "route_planning_async.DuplicateStop": lambda: rp.DuplicateStop,
        "ImportReport.rejected_stops": lambda: report.rejected_stops,
        "ImportReport.stop_id()": lambda: report.stop_id(0),
        "FailedBatch.stops": lambda: failed.stops,
        "RejectedStop.stop": lambda: refused.stop,
    }
    for old, use in uses.items():
        with pytest.warns(DeprecationWarning, match=re.escape(old)) as caught:
            use()
        assert [warning.filename for warning in caught] == [__file__], old


# Hardening, fifth round ----------------------------------------------------------------


class OddIds(Shelf):
    """Ids a service might answer: a newline, the old packing's "!" marker, outside the prefix."""

    ODD: ClassVar[list[str]] = ["shelf/a\nb", "shelf/!c", "elsewhere/d", "shelf/", "shelf/e\n"]

    def store(self, batch: list[Parcel]) -> BatchAnswer:
        self.requests += 1
        created = []
        for parcel in batch:
            parcel_id = self.ODD[len(self.parcels) % len(self.ODD)] + str(len(self.parcels) // 5 or "")
            parcel_id = parcel_id if len(self.parcels) < 5 else f"shelf/p{len(self.parcels)}"
            self.parcels[parcel_id] = parcel
            created.append(parcel_id)
        return BatchAnswer(created=created, refused=[])


@pytest.mark.asyncio
async def test_no_character_of_an_id_moves_another_rows_id() -> None:
    shelf = OddIds()
    report = await import_parcels(shelf, [Parcel(f"t{n}", 1.0) for n in range(9)])
    assert [report.id_of(n) for n in range(9)] == list(shelf.parcels)
    assert [item_id for _, item_id in report.created_ids()] == list(shelf.parcels)


class LateForeign(Shelf):
    """The first request is lost before it is stored; once the resend stored the parcel, every
    lookup also lists an item of another shelf carrying the same tag."""

    def __init__(self) -> None:
        super().__init__()
        self.deleted: list[str] = []

    def store(self, batch: list[Parcel]) -> BatchAnswer:
        if self.requests == 0:
            self.requests += 1
            raise rp.ServerError(503, "lost before it was stored")
        return super().store(batch)


@attrs.frozen
class LateForeignTarget(ShelfTarget):
    shelf: LateForeign

    async def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        async for found in super().find(key):
            yield found
        if self.shelf.parcels:
            yield "elsewhere/p0", key

    async def delete(self, item_id: str) -> None:
        self.shelf.deleted.append(item_id)


@pytest.mark.asyncio
async def test_dedupe_never_deletes_an_item_outside_the_collection() -> None:
    shelf = LateForeign()
    target: ImportTarget[Parcel] = LateForeignTarget(shelf)
    report = await run_import(
        target,
        [Parcel("t0", 1.0)],
        limits=RateLimits.unlimited(),
        clock=LoopClock(),
        settle_delay=0.0,
        dedupe=True,
    )
    assert shelf.deleted == []
    assert report.id_of(0) == "shelf/p0"
    assert not any(duplicate.deleted for duplicate in report.duplicates)


class StoppedAfterFirst(Shelf):
    def __init__(self, event: asyncio.Event) -> None:
        super().__init__()
        self.event = event

    def store(self, batch: list[Parcel]) -> BatchAnswer:
        self.event.set()
        return super().store(batch)


@pytest.mark.asyncio
async def test_rows_a_stop_left_unsent_are_not_sent_and_not_failed() -> None:
    event = asyncio.Event()
    parcels = [Parcel(f"t{n}", -1.0 if n == 1 else 1.0) for n in range(12)]
    seen: list[rp.ImportProgress[Parcel]] = []
    report = await import_parcels(
        StoppedAfterFirst(event), parcels, max_in_flight=1, stop_event=event, on_progress=seen.append
    )
    assert (report.created, len(report.rejected), report.not_sent) == (3, 1, 8)
    assert report.not_created == 8
    assert report.failed == 1
    assert [failed.not_sent for failed in report.failed_batches] == [True] * len(report.failed_batches)
    assert (seen[-1].failed, seen[-1].not_sent) == (1, 8)


@pytest.mark.asyncio
async def test_a_report_pickles_with_its_errors_and_times() -> None:
    import pickle

    shelf = Shelf()
    shelf.lose_answer_of = {2}
    parcels = [Parcel(None if n == 5 else f"t{n}", -1.0 if n == 1 else 1.0) for n in range(8)]
    report = await import_parcels(shelf, parcels, settle_delay=0.0)
    assert report.unknown == 1
    assert report.rejected
    copy = pickle.loads(pickle.dumps(report))
    assert repr(copy) == repr(report)
    assert [copy.outcome(n) for n in range(8)] == [report.outcome(n) for n in range(8)]
    assert list(copy.created_ids()) == list(report.created_ids())
    [failed] = copy.failed_batches
    assert isinstance(failed.error, rp.ServerError)
    assert failed.error.status == 503
    assert str(failed.error) == str(report.failed_batches[0].error)
    assert copy.elapsed == report.elapsed
    assert copy.rejected == report.rejected


def test_rejected_stop_is_still_built_with_its_old_keywords() -> None:
    with pytest.warns(DeprecationWarning, match=r"RejectedRow\(stop=\.\.\.\) is deprecated.*input="):
        refused: rp.RejectedRow[str] = rp.RejectedRow(position=3, stop="row", message="refused")
    assert refused == rp.RejectedRow(3, "row", "refused")
    with pytest.raises(TypeError, match="both input= and its old name stop="):
        rp.RejectedRow(position=3, input="a", stop="b", message="m")
