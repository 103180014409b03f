"""The outcomes of one batch of an import, and its created ids packed in one string.

The report (``_report.py``) keeps one :class:`BatchOutcomes` per batch: a byte per
position for its outcome, and the ids of what was created, packed once the batch
ends (:class:`PackedIds`), so that a report of a million rows stays small.
"""

from __future__ import annotations

import array
from collections.abc import Sequence

__all__ = ["PENDING", "BatchOutcomes", "PackedIds"]

PENDING = ord("p")
"""The code of a position whose outcome is not known yet."""


class BatchOutcomes:
    """The outcomes of one batch (a slice of the input); ids end packed (:class:`PackedIds`).

    ``codes`` holds one byte per position: :data:`PENDING` until its outcome is set.
    """

    __slots__ = ("codes", "ids", "packed_ids", "start")

    def __init__(self, start: int, size: int, keep_ids: bool) -> None:
        self.start = start
        self.codes = bytearray([PENDING]) * size
        self.ids: list[str] | None = [""] * size if keep_ids else None
        self.packed_ids: PackedIds | None = None

    def set_id(self, offset: int, item_id: str, prefix: str) -> None:
        if self.ids is not None:
            self.ids[offset] = item_id
        elif self.packed_ids is not None:
            ids = self.packed_ids.unpack(prefix)
            ids[offset] = item_id
            self.packed_ids = PackedIds.pack(ids, prefix)

    def id_at(self, offset: int, prefix: str) -> str:
        if self.ids is not None:
            return self.ids[offset]
        if self.packed_ids is None:
            return ""
        return self.packed_ids.get(offset, prefix)

    def all_ids(self, prefix: str) -> list[str]:
        if self.ids is not None:
            return self.ids
        if self.packed_ids is None:
            return [""] * len(self.codes)
        return self.packed_ids.unpack(prefix)

    def pack(self, prefix: str) -> None:
        # One string per 100 rows instead of 100 string objects: 1,000,000
        # created ids cost tens of megabytes, not hundreds.
        if self.ids is not None:
            self.packed_ids = PackedIds.pack(self.ids, prefix)
            self.ids = None


class PackedIds:
    """The ids of one batch in one string, cut by offsets: no character of an id can shift another.

    Each id is kept without ``prefix`` (the collection's path); an id that does not
    start with it, or is the prefix alone, is kept whole in ``whole``.
    """

    __slots__ = ("ends", "text", "whole")

    def __init__(self, text: str, ends: array.array[int], whole: dict[int, str] | None) -> None:
        self.text = text
        self.ends = ends
        self.whole = whole

    @classmethod
    def pack(cls, ids: Sequence[str], prefix: str) -> PackedIds:
        pieces: list[str] = []
        ends = array.array("I")
        whole: dict[int, str] = {}
        end = 0
        for offset, item_id in enumerate(ids):
            short = item_id[len(prefix) :] if item_id.startswith(prefix) else ""
            if item_id and not short:
                whole[offset] = item_id
            pieces.append(short)
            end += len(short)
            ends.append(end)
        return cls("".join(pieces), ends, whole or None)

    def get(self, offset: int, prefix: str) -> str:
        if self.whole is not None and offset in self.whole:
            return self.whole[offset]
        begin = self.ends[offset - 1] if offset else 0
        short = self.text[begin : self.ends[offset]]
        return prefix + short if short else ""

    def unpack(self, prefix: str) -> list[str]:
        return [self.get(offset, prefix) for offset in range(len(self.ends))]
