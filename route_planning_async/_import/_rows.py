"""The input rows, checked one by one: their class, the target's rules, their text, their key.

A row that fails is named by its position (``<rows>[1234].<field>``). Every
string of a row must be encodable as UTF-8 (a lone surrogate is not): a
Sequence is proven so in full before anything is sent; a stream's row fails
when its batch's body is built, and :func:`unencodable` names it then.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import attrs

from route_planning_async._errors import ValidationError
from route_planning_async._import._keys import KeyBook
from route_planning_async._import._target import ImportTarget

__all__ = ["check_row", "unencodable"]

T = TypeVar("T")

_ATTRIBUTE_NAMES: dict[type, tuple[str, ...]] = {}


def check_row(
    target: ImportTarget[T], keys: KeyBook[T], position: int, item: object, *, encodable: bool
) -> T:
    """Check one row; ``encodable`` also proves every string of it can be sent as UTF-8.

    Raises:
        ValidationError: The row is refused, named ``<rows>[<position>]...``.
    """
    item_type = target.item_type
    field = f"{target.kind.rows}[{position}]"
    if not isinstance(item, item_type):
        raise ValidationError(field, f"must be a {item_type.__name__}, got {type(item).__name__}")
    target.check(item, field)
    if encodable:
        _check_encodable(item, field)
    keys.note(position, item, field)
    return item


def unencodable(rows: str, items: list[tuple[int, object]]) -> ValidationError | None:
    """The error naming the first of ``(position, row)`` with a string UTF-8 cannot carry
    (as a Sequence's check names it); None when every row can be encoded."""
    for position, item in items:
        try:
            _check_encodable(item, f"{rows}[{position}]")
        except ValidationError as error:
            return error
    return None


def _names(cls: type) -> tuple[str, ...]:
    names = _ATTRIBUTE_NAMES.get(cls)
    if names is None:
        names = tuple(a.name for a in attrs.fields(cast(Any, cls))) if attrs.has(cls) else ()
        _ATTRIBUTE_NAMES[cls] = names
    return names


def _encode_strings(value: object) -> None:
    """Encode every string of a row as UTF-8 (the fast pass: no field names built)."""
    cls = type(value)
    if cls is str:
        cast(str, value).encode("utf-8")
        return
    names = _names(cls)
    if names:
        for name in names:
            _encode_strings(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            _encode_strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _encode_strings(key)
            _encode_strings(item)


def _check_encodable(value: object, field: str) -> None:
    """Raise a ``ValidationError`` naming the field of a string that cannot be sent as UTF-8."""
    try:
        _encode_strings(value)
    except UnicodeEncodeError:
        _find_unencodable(value, field)


def _find_unencodable(value: object, field: str) -> None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValidationError(
                field,
                f"is not valid text: {exc.object[exc.start : exc.end]!r} at character {exc.start} cannot be "
                "encoded as UTF-8 (a lone surrogate, e.g. from a file decoded with errors='surrogateescape')",
            ) from None
    elif names := _names(type(value)):
        for name in names:
            _find_unencodable(getattr(value, name), f"{field}.{name}")
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _find_unencodable(item, f"{field}[{index}]")
    elif isinstance(value, dict):
        for name, item in value.items():
            _find_unencodable(name, f"{field}.{name}")
            _find_unencodable(item, f"{field}.{name}")
