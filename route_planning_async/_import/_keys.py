"""Duplicate-key detection: the natural keys of the rows read, each given to one row only.

Two rows with the same key would be one item to reconciliation and
``skip_existing``: they are refused before anything is sent, or, with
``allow_duplicate_keys=True``, imported as if they had no key. A stream's keys
are checked among its first :data:`STREAM_KEYS` keyed rows, a Sequence's in full.

Memory is bounded and flat: a key is remembered as a fixed-size digest (8 bytes
of BLAKE2b) in an open-addressing table of two flat arrays (digests, and the
position of the row that first had each), 16 bytes a slot, at most 4/5 full and
sized once for all the keys it may hold: a stream's table is 2 MB from its first
key to its 100,000th whatever the keys' length (a Sequence's is sized for its
length), with no Python object per key. Collision rule: two different keys with the same digest
(about one chance in 10^9 among 100,000 keys) are *never merged silently*; they
are taken as a repeat, which can only refuse the rows (the error names the digest
when it can show the earlier row's key is another), or, with
``allow_duplicate_keys=True``, flag both as rows without a key (imported apart,
as unkeyed rows are). No row is ever taken for another.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Sequence
from typing import Final, Generic, TypeVar

from route_planning_async._errors import ValidationError
from route_planning_async._import._target import ImportTarget

__all__ = ["DUPLICATE_KEYS_ADVICE", "STREAM_KEYS", "DigestTable", "KeyBook", "digest"]

T = TypeVar("T")

DUPLICATE_KEYS_ADVICE: Final = "pass allow_duplicate_keys=True to import both as rows without a key"
"""What the error of a repeated key advises (a command line, which has no such option, says its own)."""

STREAM_KEYS: Final = 100_000
"""A stream is checked for repeated keys among its first this many keyed rows, so memory stays flat."""

_EMPTY: Final = 0
_FIRST_SLOTS: Final = 1024


def digest(key: str) -> int:
    """A key's 64-bit digest (never 0, the table's empty slot)."""
    value = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little")
    return value or 1


class DigestTable:
    """Digests and a position for each, in two flat arrays with linear probing, at most 4/5 full.

    Sized for ``capacity`` entries when made (a stream's whole :data:`STREAM_KEYS`: its
    memory is the same at the first key and the last); it doubles if ever more come.
    """

    def __init__(self, capacity: int = 0) -> None:
        slots = _FIRST_SLOTS
        while 4 * slots < 5 * capacity:
            slots *= 2
        self._digests = array("Q", bytes(8 * slots))
        self._positions = array("q", bytes(8 * slots))
        self._mask = slots - 1
        self.size = 0

    def setdefault(self, value: int, position: int) -> int:
        """The position stored with ``value``; stores ``position`` first if there is none."""
        digests, mask = self._digests, self._mask
        slot = value & mask
        while True:
            found = digests[slot]
            if found == value:
                return self._positions[slot]
            if found == _EMPTY:
                break
            slot = (slot + 1) & mask
        digests[slot] = value
        self._positions[slot] = position
        self.size += 1
        if 5 * self.size > 4 * (mask + 1):
            self._grow()
        return position

    def _grow(self) -> None:
        old = zip(self._digests, self._positions, strict=True)
        slots = 2 * (self._mask + 1)
        self._digests = array("Q", bytes(8 * slots))
        self._positions = array("q", bytes(8 * slots))
        self._mask = slots - 1
        self.size = 0
        for value, position in old:
            if value != _EMPTY:
                self.setdefault(value, position)

    @property
    def nbytes(self) -> int:
        """The memory of the two arrays."""
        return (self._mask + 1) * 16


class KeyBook(Generic[T]):
    """The keys of the rows read so far (as digests), and those two rows share."""

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
        self.items: Sequence[T] | None = None
        """The Sequence read, if it is one: a repeat's earlier row is read again to tell a
        repeated key from two keys with one digest."""
        self._first: DigestTable | None = None
        self._shared: set[int] = set()

    @property
    def proven(self) -> bool:
        """Whether every key read was checked for repeats (a stream's are, up to :data:`STREAM_KEYS`)."""
        return self._whole or self._first is None or self._first.size < STREAM_KEYS

    def note(self, position: int, item: T, field: str) -> None:
        """Record the key of the row at ``position`` (named ``field``).

        Raises:
            ValidationError: The key repeats an earlier row's, and duplicates are not allowed.
        """
        key = self._target.key(item)
        if key is None or not self.proven:
            return
        table = self._first
        if table is None:
            # Made once, for all the keys it may hold: a Sequence's length, a stream's STREAM_KEYS.
            table = self._first = DigestTable(len(self.items) if self.items is not None else STREAM_KEYS)
        value = digest(key)
        first = table.setdefault(value, position)
        if first == position:
            return
        if not self._allow_duplicates:
            rows = self._target.kind.rows
            earlier = self._earlier_key(first)
            if earlier is not None and earlier != key:
                problem = (
                    f"has the digest of {rows}[{first}]'s key {earlier!r} ({key!r} is another key, "
                    "one chance in 10^19): the two rows are refused rather than taken for one"
                )
            else:
                problem = (
                    f"repeats {key!r}, the key of {rows}[{first}]: two rows would be one item to "
                    "reconciliation and skip_existing"
                )
            raise ValidationError(
                f"{field}.{self._target.key_field(item)}",
                f"{problem} ({DUPLICATE_KEYS_ADVICE})",
            )
        self._shared.add(value)

    def _earlier_key(self, position: int) -> str | None:
        items = self.items
        if items is None or not 0 <= position < len(items):
            return None
        return self._target.key(items[position])

    def key(self, item: T) -> str | None:
        """The row's key, unless it has none or shares it (or its digest) with another row."""
        key = self._target.key(item)
        if key is None or not self._shared:
            return key
        return None if digest(key) in self._shared else key
