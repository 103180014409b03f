"""Duplicate-key detection: the natural keys of the rows read, each given to one row only.

Two rows with the same key would be one item to reconciliation and
``skip_existing``: they are refused before anything is sent, or, with
``allow_duplicate_keys=True``, imported as if they had no key. A stream's keys
are checked among its first :data:`STREAM_KEYS` keyed rows, so memory stays
flat; a Sequence's in full.
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

from route_planning_async._errors import ValidationError
from route_planning_async._import._target import ImportTarget

__all__ = ["STREAM_KEYS", "KeyBook"]

T = TypeVar("T")

STREAM_KEYS: Final = 100_000
"""A stream is checked for repeated keys among its first this many keyed rows, so memory stays flat."""


class KeyBook(Generic[T]):
    """The keys of the rows read so far, and those two rows share."""

    def __init__(self, target: ImportTarget[T], *, allow_duplicates: bool, whole: bool) -> None:
        """
        Args:
            target: What tells a row's key.
            allow_duplicates: Accept a repeated key (its rows then count as rows without a key).
            whole: The input is a Sequence, whose keys are all checked.
        """
        self._target = target
        self._allow_duplicates = allow_duplicates
        self._whole = whole
        self._first: dict[str, int] = {}
        self._shared: set[str] = set()

    @property
    def proven(self) -> bool:
        """Whether every key read was checked for repeats (a stream's are, up to :data:`STREAM_KEYS`)."""
        return self._whole or len(self._first) < STREAM_KEYS

    def note(self, position: int, item: T, field: str) -> None:
        """Record the key of the row at ``position`` (named ``field``).

        Raises:
            ValidationError: The key repeats an earlier row's, and duplicates are not allowed.
        """
        key = self._target.key(item)
        if key is None or not self.proven:
            return
        first = self._first.setdefault(key, position)
        if first == position:
            return
        if not self._allow_duplicates:
            rows = self._target.kind.rows
            raise ValidationError(
                f"{field}.{self._target.key_field(item)}",
                f"repeats {key!r}, the key of {rows}[{first}]: two rows would be one item to "
                "reconciliation and skip_existing (pass allow_duplicate_keys=True to import both "
                "as rows without a key)",
            )
        self._shared.add(key)

    def key(self, item: T) -> str | None:
        """The row's key, unless it has none or shares it with another row."""
        key = self._target.key(item)
        return None if key is None or key in self._shared else key
