"""The importer's remembered keys: fixed-size digests in flat arrays; a collision never merges two rows."""

from __future__ import annotations

import types
from typing import Any

import pytest

from route_planning_async._errors import ValidationError
from route_planning_async._import import _keys
from route_planning_async._import._keys import STREAM_KEYS, DigestTable, KeyBook, digest


class Target:
    """What KeyBook asks of an import target: a row's key, its field, the rows' name."""

    kind = types.SimpleNamespace(rows="stops")

    def key(self, item: str | None) -> str | None:
        return item

    def key_field(self, item: str | None) -> str:
        return "recipient.external_id"


def book(*, allow_duplicates: bool = False, whole: bool = False) -> KeyBook[Any]:
    return KeyBook(Target(), allow_duplicates=allow_duplicates, whole=whole)  # type: ignore[arg-type]


def test_the_table_keeps_every_digest_with_its_first_position_and_grows() -> None:
    table = DigestTable()
    for position in range(10_000):
        assert table.setdefault(digest(f"key-{position}"), position) == position
    assert table.size == 10_000
    for position in range(0, 10_000, 97):
        assert table.setdefault(digest(f"key-{position}"), -1) == position


def test_a_streams_keys_take_a_few_megabytes_whatever_their_length() -> None:
    keys = book()
    for position in range(STREAM_KEYS + 10):
        keys.note(position, f"{'x' * 200}-{position}", f"stops[{position}]")
    assert not keys.proven
    # 16 bytes a slot, at most 4/5 full, made once: 2 MB for 100,000 keys of 200 characters.
    assert keys._first is not None
    assert keys._first.nbytes == 2 * 1024 * 1024


def test_a_repeated_key_is_refused_with_the_earlier_row() -> None:
    keys = book()
    keys.note(0, "a", "stops[0]")
    keys.note(1, "b", "stops[1]")
    with pytest.raises(ValidationError, match=r"repeats 'a', the key of stops\[0\]"):
        keys.note(2, "a", "stops[2]")


def test_two_keys_with_one_digest_are_refused_never_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_keys, "digest", lambda key: 42)
    keys = book(whole=True)
    keys.items = ["a", "b"]
    keys.note(0, "a", "stops[0]")
    with pytest.raises(ValidationError, match=r"digest of stops\[0\]'s key 'a' \('b' is another key"):
        keys.note(1, "b", "stops[1]")


def test_with_duplicates_allowed_a_shared_digest_flags_both_rows_as_unkeyed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_keys, "digest", lambda key: 42)
    keys = book(allow_duplicates=True)
    keys.note(0, "a", "stops[0]")
    keys.note(1, "b", "stops[1]")
    # Neither row is taken for the other: both are imported as rows without a key.
    assert keys.key("a") is None
    assert keys.key("b") is None


def test_rows_without_a_shared_key_keep_theirs() -> None:
    keys = book(allow_duplicates=True)
    for position, key in enumerate(["a", "b", "a", None]):
        keys.note(position, key, f"stops[{position}]")
    assert keys.key("a") is None
    assert keys.key("b") == "b"
    assert keys.key(None) is None
