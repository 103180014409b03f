"""What the importer needs to know about one kind of row: the :class:`ImportTarget` protocol.

The engine knows rows only through a target: how they are named, keyed,
matched to a refusal in an answer, batched, weighed, sent, looked up, listed
and deleted. Everything a target answers is in the types of this module, so
the engine depends on no version of the API.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any, Protocol, TypeVar

import attrs

from route_planning_async._core import AttemptHooks
from route_planning_async._rate_limits._limits import Category

__all__ = ["BatchAnswer", "ImportTarget", "Listing", "Refusal", "RowKind"]

T = TypeVar("T")

Listing = AsyncGenerator[list[tuple[str, str | None]], None]
"""Pages of ``(id, key)`` of every item of a collection."""


@attrs.frozen
class RowKind:
    """The words and bounds of one kind of row, the same for every import of it."""

    rows: str
    """How the rows are called, plural: errors name a row ``<rows>[<position>]``."""
    key_name: str
    """The natural key as messages and documentation name it."""
    max_batch: int
    """The most rows one request may carry."""
    category: Category
    """The rate-limit category of the batch request."""
    body_field: str
    """The request's list of rows, as a 400's ``param`` names one of them (``<body_field>[3]``)."""
    ending_errors: tuple[type[Exception], ...] = ()
    """Answers that every batch would get, like a 401: one of them ends the import at once."""

    def words(self) -> dict[str, str]:
        """The ``{word}`` placeholders an option's text names, filled in for this kind."""
        return {
            "rows": self.rows,
            "key": self.key_name,
            "max_batch": str(self.max_batch),
            "category": self.category.value,
        }


@attrs.frozen
class Refusal:
    """One row the service refused inside a successful answer."""

    message: str
    """The service's message."""
    echo: Mapping[str, Any]
    """The service's echo of the refused row, as JSON."""


@attrs.frozen
class BatchAnswer:
    """The answer of one batch request: the ids created and the rows refused, without input indices."""

    created: list[str]
    """The ids of the created rows, in input order."""
    refused: list[Refusal]
    """The refused rows, each with the service's echo of it."""


class ImportTarget(Protocol[T]):
    """The collection a bulk import creates its items in, and the rows it takes.

    The importer knows the rows only through this protocol: their natural key
    (what reconciliation, ``skip_existing`` and ``dedupe`` match on), how an
    answer's refusal is tied to a row, a send of one batch, a filtered lookup,
    a paged listing of the whole collection and a delete.
    """

    @property
    def kind(self) -> RowKind:
        """The words and bounds of the rows."""

    @property
    def item_type(self) -> type[T]:
        """The input class every row must be."""

    @property
    def id_prefix(self) -> str:
        """What every created item's id starts with; the report keeps ids without it."""

    def check(self, item: T, field: str) -> None:
        """Raise :class:`~route_planning_async.ValidationError` for a row this target refuses."""

    def key(self, item: T) -> str | None:
        """The natural key of a row, as the listings answer it; None when the row has none."""

    def key_field(self, item: T) -> str:
        """The dotted field of a keyed row that holds its key, for errors."""

    def echo_key(self, echo: Mapping[str, Any]) -> str | None:
        """The natural key of the row a refusal's echo stands for; None when it shows none."""

    def echoes(self, item: T, echo: Mapping[str, Any]) -> bool:
        """Whether a refusal's echo shows this row (its identifying fields agree)."""

    def weight(self, size: int) -> int:
        """What a batch of ``size`` rows weighs in the weighted rules of :attr:`RowKind.category`."""

    async def send(self, batch: list[T], on_sent: AttemptHooks) -> BatchAnswer:
        """Import one batch (1 to :attr:`RowKind.max_batch` rows) in one request.

        ``on_sent`` is called when the request is handed to the transport: up
        to then nothing can have reached the service (the request waited for
        capacity, the client was closed, the rate-limit backend failed).
        """

    def find(self, key: str) -> AsyncIterator[tuple[str, str | None]]:
        """``(id, key)`` of the items the service lists for ``key``.

        Raises :class:`LookupError` when the collection cannot be read for it
        now; the importer then reports the rows ``unknown``.
        """

    def existing(self) -> Listing:
        """Every item of the collection as ``(id, key)``, one list per page of the service's list."""

    async def delete(self, item_id: str) -> None:
        """Delete one item (a duplicate found after a late commit, with ``dedupe=True``)."""
