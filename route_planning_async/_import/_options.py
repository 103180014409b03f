"""The options of a bulk import: each written once, as a field of :class:`ImportSettings`.

A field's text (its ``described`` metadata) and its default are the one
source: :class:`ImportSettings` checks the options given as keywords and fills
in the defaults, and :func:`options_documented` writes the ``Keyword Args:``
section of every ``import_many`` from the same fields, with the words of the
rows it imports (``{rows}``, ``{key}``, ``{max_batch}``, ``{category}``).
:class:`ImportOptions` declares the same keywords for ``Unpack`` typing.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypedDict, TypeVar

import attrs

from route_planning_async._checks._validators import check_options
from route_planning_async._docs import Keyword, described, keywords_documented, keywords_of
from route_planning_async._errors import ValidationError
from route_planning_async._import._report import ProgressCallback
from route_planning_async._import._target import ImportTarget, RowKind
from route_planning_async._rate_limits._limits import RateLimits

__all__ = ["ImportOptions", "ImportSettings", "options_documented"]

F = TypeVar("F", bound=Callable[..., Any])

_DEFAULT_IN_FLIGHT: Final = 8
_MAX_IN_FLIGHT: Final = 32


class ImportOptions(TypedDict, total=False):
    """The keyword options of ``import_many``, each optional; :class:`ImportSettings` describes them."""

    on_progress: ProgressCallback | None
    keep_ids: bool
    at_least_once: bool
    batch_size: int | None
    max_in_flight: int | None
    max_resends: int
    settle_delay: float
    max_failed_batches: int | None
    skip_existing: bool
    allow_duplicate_keys: bool
    dedupe: bool
    deadline: float | datetime.datetime | None
    max_transport_failures: int | None
    stop_event: asyncio.Event | None


def _at_least(
    least: int | float, *, or_none: bool = False
) -> Callable[[Any, attrs.Attribute[Any], Any], None]:
    def check(_: Any, field: attrs.Attribute[Any], value: Any) -> None:
        if value is None and or_none:
            return
        if isinstance(value, bool) or not isinstance(value, int | float) or not value >= least:
            least_text = f"at least {least}" + (" or None" if or_none else "")
            raise ValidationError(field.name, f"must be {least_text}, got {value!r}")

    return check


def _check_deadline(_: Any, field: attrs.Attribute[Any], deadline: object) -> None:
    if deadline is None:
        return
    if isinstance(deadline, datetime.datetime):
        if deadline.tzinfo is None:
            raise ValidationError(field.name, "an absolute time must be timezone-aware")
        return
    if isinstance(deadline, int | float) and not isinstance(deadline, bool) and deadline >= 0:
        return
    raise ValidationError(field.name, f"must be seconds (at least 0) or an aware datetime, got {deadline!r}")


def _check_stop_event(_: Any, field: attrs.Attribute[Any], event: object) -> None:
    if event is not None and not isinstance(event, asyncio.Event):
        raise ValidationError(field.name, f"must be an asyncio.Event, got {type(event).__name__}")


@attrs.frozen(kw_only=True)
class ImportSettings:
    """How one bulk import runs: its options, checked, with their defaults."""

    on_progress: ProgressCallback | None = attrs.field(
        default=None,
        metadata=described(
            """Called (synchronously) with an :class:`ImportProgress` each time a batch
            finishes, and once more with ``final=True`` at the end, also when the import
            is cancelled or raises."""
        ),
    )
    keep_ids: bool = attrs.field(
        default=True,
        metadata=described(
            """Keep the ids of the created {rows} (packed, a few bytes each); False keeps
            only counts and failures."""
        ),
    )
    at_least_once: bool = attrs.field(
        default=False,
        metadata=described(
            """Resend a batch whose outcome is ambiguous even when its {rows} have no key
            ({key}) to look them up by; they may be duplicated."""
        ),
    )
    batch_size: int | None = attrs.field(
        default=None,
        metadata=described(
            """How many {rows} one request carries, 1 to {max_batch} (and at most a weighted
            rule's amount); None: {max_batch}."""
        ),
    )
    max_in_flight: int | None = attrs.field(
        default=None,
        validator=_at_least(1, or_none=True),
        metadata=described(
            """Batches sent concurrently; None: as many as one window of each ``{category}``
            rule admits (at least 2, at most 32)."""
        ),
    )
    max_resends: int = attrs.field(
        default=3,
        validator=_at_least(0),
        metadata=described("How many times the {rows} of one batch are sent again after ambiguous failures."),
    )
    settle_delay: float = attrs.field(
        default=2.0,
        validator=_at_least(0),
        metadata=described(
            """Seconds to wait, after a request got no answer, before looking up its {rows};
            also the least wait before the late-commit check."""
        ),
    )
    max_failed_batches: int | None = attrs.field(
        default=3,
        validator=_at_least(1, or_none=True),
        metadata=described(
            """Stop reading the input after this many batches in a row were rejected as a
            whole (4xx): the import then raises that error. None never stops. A 401, or
            another error every batch would get, stops it at once."""
        ),
    )
    skip_existing: bool = attrs.field(
        default=False,
        metadata=described(
            """Read the keys ({key}) already in the collection once, paging through it, and
            send only the rows whose key is not there: they are reported ``skipped``.
            Resumes an interrupted import."""
        ),
    )
    allow_duplicate_keys: bool = attrs.field(
        default=False,
        metadata=described(
            """Accept two rows with the same key ({key}); such rows are then imported as if
            they had no key (no lookup, no skip). Otherwise the import raises
            :class:`~route_planning_async.ValidationError` naming both positions before
            anything is sent."""
        ),
    )
    dedupe: bool = attrs.field(
        default=False,
        metadata=described(
            """Delete the extra {rows} that the late-commit check finds (a key stored twice),
            keeping the one the report names; otherwise they are only reported in
            :attr:`ImportReport.duplicates`. Never for a key two rows may share: past a
            stream's first 100,000 keyed rows, whose keys are not checked for repeats,
            duplicates are reported, not deleted."""
        ),
    )
    deadline: float | datetime.datetime | None = attrs.field(
        default=None,
        validator=_check_deadline,
        metadata=described(
            """Seconds from the start, or an aware absolute time: then nothing more is sent,
            requests in flight are abandoned (``unknown``), rows never sent are
            ``not_created``, and the report is returned."""
        ),
    )
    max_transport_failures: int | None = attrs.field(
        default=5,
        validator=_at_least(1, or_none=True),
        metadata=described(
            """The breaker: after this many transport failures in a row (timeouts, refused or
            lost connections), stop sending and looking up; the report is returned with
            the rest ``not_created`` and the ambiguous ``unknown``. None never trips."""
        ),
    )
    stop_event: asyncio.Event | None = attrs.field(
        default=None,
        validator=_check_stop_event,
        metadata=described(
            """When set, no new batch is sent: the batches whose request is on the wire
            finish, the rest is ``not_created``, and the report is returned."""
        ),
    )

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> ImportSettings:
        """The settings of the keyword options given to ``import_many``.

        Args:
            options: The keywords, each a field of this class.

        Raises:
            TypeError: An option that :class:`ImportOptions` does not name, as
                Python refuses an unknown keyword.
            ValidationError: An option's value is invalid.
        """
        check_options(options, ImportOptions.__optional_keys__, "import_many")
        return cls(**options)

    def batch_size_for(self, target: ImportTarget[Any], limits: RateLimits) -> int:
        """The rows per batch: as asked, else the most a request may carry; never heavier than
        a weighted rule of the target's category could ever admit.

        Args:
            target: Where the batches go (its row kind's bound, how it weighs a batch).
            limits: The client's rate limits.

        Raises:
            ValidationError: ``batch_size`` is out of the row kind's bounds.
        """
        kind = target.kind
        size: object = kind.max_batch if self.batch_size is None else self.batch_size
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= kind.max_batch:
            raise ValidationError("batch_size", f"must be 1 to {kind.max_batch}, got {size!r}")
        cap = limits.max_weight(kind.category)
        while cap is not None and size > 1 and target.weight(size) > cap:
            size -= 1
        return size

    def in_flight_for(self, kind: RowKind, limits: RateLimits, batch_weight: int) -> int:
        """The batches sent concurrently: as asked, else as many as one window of each of the
        category's rules admits (the scheduler makes them wait, in order). More would only wait
        in the scheduler, read from the input before they can go.

        Args:
            kind: The rows imported (their rate-limit category).
            limits: The client's rate limits.
            batch_weight: What a full batch weighs in the category's weighted rules.
        """
        if self.max_in_flight is not None:
            return self.max_in_flight
        amounts = [rule.amount // rule.cost(batch_weight) for rule in limits.for_category(kind.category)]
        if not amounts:
            return _DEFAULT_IN_FLIGHT
        return max(2, min(_MAX_IN_FLIGHT, min(amounts)))

    def deadline_seconds(self) -> float | None:
        """The deadline as seconds from now (read once, when the import starts)."""
        if isinstance(self.deadline, datetime.datetime):
            return max(0.0, (self.deadline - datetime.datetime.now(datetime.UTC)).total_seconds())
        return None if self.deadline is None else float(self.deadline)


OPTION_KEYWORDS: Final[list[Keyword]] = keywords_of(ImportSettings, defaults=True)
"""The ``Keyword Args:`` entries of every ``import_many``, before their words are filled in."""


def options_documented(kind: RowKind, *more: Iterable[Keyword]) -> Callable[[F], F]:
    """Decorator: the method's docstring lists the import options, then ``more``, in ``kind``'s words."""
    return keywords_documented(OPTION_KEYWORDS, *more, **kind.words())
