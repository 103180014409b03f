"""Ordered in-memory collections with cursor pagination.

Every record gets a sequence number when it is added; a page token remembers the
last sequence number served, so deleting records between pages never skips or
repeats one.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

__all__ = ["OrderedStore"]

R = TypeVar("R")


class OrderedStore(Generic[R]):
    """Records by id, in insertion order, with O(log n) seeks by sequence number."""

    def __init__(self) -> None:
        self._records: dict[str, R] = {}
        self._seqs: list[int] = []
        self._ids: list[str | None] = []
        self._where: dict[str, int] = {}
        self._next_seq = 1
        self._tombstones = 0

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self._records

    def get(self, record_id: str) -> R | None:
        """The record, or None."""
        return self._records.get(record_id)

    def add(self, record_id: str, record: R) -> int:
        """Store ``record`` last; returns its sequence number."""
        if record_id in self._records:
            raise KeyError(f"duplicate id {record_id!r}")
        seq = self._next_seq
        self._next_seq += 1
        self._records[record_id] = record
        self._where[record_id] = len(self._ids)
        self._seqs.append(seq)
        self._ids.append(record_id)
        return seq

    def replace(self, record_id: str, record: R) -> None:
        """Swap the record kept under an existing id, keeping its place."""
        if record_id not in self._records:
            raise KeyError(record_id)
        self._records[record_id] = record

    def remove(self, record_id: str) -> R | None:
        """Delete and return the record (None when absent)."""
        record = self._records.pop(record_id, None)
        if record is None:
            return None
        self._ids[self._where.pop(record_id)] = None
        self._tombstones += 1
        if self._tombstones > 1024 and self._tombstones * 2 > len(self._ids):
            self._compact()
        return record

    def values(self) -> Iterator[R]:
        """Records in insertion order."""
        return iter(list(self._records.values()))

    def sequenced(self) -> Iterator[tuple[int, R]]:
        """``(sequence number, record)`` of every record, in insertion order."""
        pairs = zip(self._seqs, self._ids, strict=True)
        return iter([(seq, self._records[rid]) for seq, rid in pairs if rid is not None])

    def page(
        self, after_seq: int, limit: int, keep: Callable[[R], bool] | None = None
    ) -> tuple[list[R], int, bool]:
        """Up to ``limit`` records after ``after_seq``: ``(records, last seq served, more left)``."""
        start = bisect.bisect_right(self._seqs, after_seq)
        found: list[R] = []
        last = after_seq
        for index in range(start, len(self._ids)):
            record_id = self._ids[index]
            if record_id is None:
                continue
            record = self._records[record_id]
            if keep is not None and not keep(record):
                continue
            if len(found) == limit:
                return found, last, True
            found.append(record)
            last = self._seqs[index]
        return found, last, False

    def _compact(self) -> None:
        pairs = [(seq, rid) for seq, rid in zip(self._seqs, self._ids, strict=True) if rid is not None]
        self._seqs = [seq for seq, _ in pairs]
        self._ids = [rid for _, rid in pairs]
        self._where = {rid: index for index, (_, rid) in enumerate(pairs)}
        self._tombstones = 0
