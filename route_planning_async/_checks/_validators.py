"""Field validators and converters for the input classes, and :data:`UNSET`.

The building blocks of a version's inputs (``v0_2b/_inputs/``): how a field is checked, not which rule
of the contract applies to it (the limits and the fields are declared there).

- Validators (``attrs`` ``validator=``) check a scalar and name the failing
  field by its path: the class's ``_PATH`` prefix (``"address."``) plus the
  attribute name. :data:`UNSET` always passes; None passes unless the field is
  not nullable.
- Converters (``attrs`` ``converter=``) check an array, mapping or reference,
  normalize it (bare ids become ``drivers/<id>``) and copy it, so an input
  never shares a list with its caller.

Every failure is a :class:`~route_planning_async.ValidationError`.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import math
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, Final, Literal, NoReturn

import attrs

from route_planning_async._checks import _ids
from route_planning_async._errors import ValidationError

__all__ = [
    "UNSET",
    "UnsetType",
    "Validator",
    "a_or_an",
    "absent",
    "check_options",
    "custom_property_values",
    "date_in_years",
    "depot_reference",
    "driver_list",
    "driver_reference",
    "encodable",
    "fail",
    "instance_of",
    "number",
    "one_of",
    "string_list",
    "text",
    "time_of_day",
]


class UnsetType(enum.Enum):
    """The type of :data:`UNSET`: a field that was not given and is left out of the body.

    Attributes:
        UNSET: The one value: not given (falsy; ``repr`` is ``UNSET``).
    """

    UNSET = "UNSET"
    """The one value: not given (falsy; ``repr`` is ``UNSET``)."""

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> Literal[False]:
        return False


UNSET: Final = UnsetType.UNSET
"""Not given: the field is left out of the JSON body (``None`` is sent as ``null``)."""


def fail(field: str, rule: str) -> NoReturn:
    """Raise the :class:`~route_planning_async.ValidationError` of ``field``."""
    raise ValidationError(field, rule)


def a_or_an(name: str) -> str:
    """``"a StopInput"``, ``"an AddressInput"``: for messages that name a class."""
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


def check_options(options: Mapping[str, object], allowed: Collection[str], call: str) -> None:
    """Refuse a keyword option that ``allowed`` (a ``TypedDict``'s keys) does not name.

    A workflow takes its options as ``**options: Unpack[SomeOptions]``; Python
    then accepts any keyword, so this says what it would say of a misspelt
    one, instead of letting the typo pass unseen.
    """
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"{call}() got an unexpected keyword argument {unknown[0]!r}")


def absent(value: object) -> bool:
    """Whether a field holds no value: None or :data:`UNSET`."""
    return value is None or isinstance(value, UnsetType)


def encodable(field: str, value: str) -> None:
    """Refuse a string that cannot be sent as UTF-8 (a lone surrogate, as
    ``surrogateescape`` leaves for undecodable bytes): the request body is UTF-8."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = value[exc.start : exc.end]
        fail(
            field,
            f"cannot be encoded as UTF-8 (character {bad!r} at index {exc.start}; "
            "undecodable bytes read with surrogateescape?)",
        )


def _path(instance: object, attribute: attrs.Attribute[Any]) -> str:
    prefix: str = getattr(type(instance), "_PATH", "")
    return prefix + attribute.name


# Validators (scalars) --------------------------------------------------------

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]
"""The signature of an ``attrs`` validator."""


def text(min_len: int | None = None, max_len: int | None = None, *, nullable: bool = True) -> Validator:
    """A string, with an optional length range; UNSET always passes."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        field = _path(instance, attribute)
        if not isinstance(value, str):
            fail(field, f"must be a string, got {type(value).__name__}")
        _length(field, value, min_len, max_len)
        encodable(field, value)

    return check


def _length(field: str, value: str, min_len: int | None, max_len: int | None) -> None:
    low = 0 if min_len is None else min_len
    if max_len is not None and not low <= len(value) <= max_len:
        fail(field, f"must be {low} to {max_len} characters, got {len(value)}")
    if max_len is None and len(value) < low:
        fail(field, f"must be at least {low} characters, got {len(value)}")


def number(
    low: float,
    high: float | None = None,
    *,
    integer: bool = False,
    nullable: bool = True,
    step: float | None = None,
) -> Validator:
    """A finite number (never a bool) in ``low..high``, a multiple of ``step`` when
    given; UNSET always passes."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        field = _path(instance, attribute)
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            fail(field, f"must be {'an integer' if integer else 'a number'}, got {type(value).__name__}")
        if not math.isfinite(value):
            fail(field, f"must be a finite number, got {value!r}")
        if value < low or (high is not None and value > high):
            if high is None or high >= 2**53 - 1:
                bound = f"at least {low:g}" if high is None or value < low else f"at most {high}"
            else:
                bound = f"from {low:g} to {high:g}"
            fail(field, f"must be {bound}, got {value!r}")
        # Decimal, not float division: 0.07 / 0.01 is 7.000000000000001 in floats. The
        # value as written (its repr, as JSON sends it) must be a whole number of steps.
        if step is not None and decimal.Decimal(repr(value)) % decimal.Decimal(repr(step)) != 0:
            fail(field, f"must be a multiple of {step:g} (round it, e.g. round(x, 2)), got {value!r}")

    return check


def one_of(allowed: frozenset[str], *, nullable: bool = True) -> Validator:
    """One of the contract's enumerated values."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        if not isinstance(value, str) or value not in allowed:
            names = ", ".join(sorted(allowed))
            fail(_path(instance, attribute), f"must be one of {names}, got {value!r}")

    return check


def instance_of(cls: type, *, nullable: bool = True) -> Validator:
    """An instance of ``cls`` (a nested input or model)."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        if not isinstance(value, cls):
            fail(_path(instance, attribute), f"must be {a_or_an(cls.__name__)}, got {type(value).__name__}")

    return check


def time_of_day(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A TimeOfDay: ``datetime.time`` with hour and minute only (contract, TimeOfDay)."""
    if absent(value):
        return
    field = _path(instance, attribute)
    if not isinstance(value, datetime.time):
        fail(field, f"must be a datetime.time, got {type(value).__name__}")
    if value.second or value.microsecond or value.tzinfo is not None:
        fail(field, f"must have hour and minute only (no seconds or time zone), got {value!r}")


def date_in_years(low: int, high: int) -> Validator:
    """A :class:`datetime.date` (not a datetime) whose year is in ``low..high``; never None."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType):
            return
        field = _path(instance, attribute)
        if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
            fail(field, f"must be a datetime.date (not a datetime), got {type(value).__name__}")
        if not low <= value.year <= high:
            fail(field, f"year must be from {low} to {high}, got {value.year}")

    return check


# Converters (arrays and references): check, normalize, copy into a list ------


def string_list(
    field: str, value: object, *, max_items: int, item_min: int = 0, item_max: int | None = None
) -> list[str]:
    """A list of at most ``max_items`` strings, each optionally ``item_min..item_max`` long."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        fail(field, f"must be a list of strings, got {type(value).__name__}")
    items = list(value)
    if len(items) > max_items:
        fail(field, f"must have at most {max_items} items, got {len(items)}")
    for index, item in enumerate(items):
        if not isinstance(item, str):
            fail(f"{field}[{index}]", f"must be a string, got {type(item).__name__}")
        if item_max is not None and not item_min <= len(item) <= item_max:
            fail(f"{field}[{index}]", f"must be {item_min} to {item_max} characters, got {len(item)}")
        encodable(f"{field}[{index}]", item)
    return items


def driver_list(field: str, value: object, *, max_items: int, dedupe: bool) -> list[str]:
    """``drivers/<id>`` references (bare ids accepted), at most ``max_items``.

    With ``dedupe``, duplicates are dropped before the count is checked.
    """
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        fail(field, f"must be a list of driver references, got {type(value).__name__}")
    refs = [_ids.driver_ref(item, f"{field}[{index}]") for index, item in enumerate(value)]
    if dedupe:
        refs = list(dict.fromkeys(refs))
    if len(refs) > max_items:
        fail(field, f"must have at most {max_items} drivers, got {len(refs)}")
    return refs


def driver_reference(value: str | UnsetType | None) -> str | UnsetType | None:
    """The ``driver`` field: ``drivers/<id>`` from a reference or a bare id."""
    if value is None or isinstance(value, UnsetType):
        return value
    return _ids.driver_ref(value, "driver")


def depot_reference(value: str | UnsetType | None) -> str | UnsetType | None:
    """The ``depot`` field: ``depots/<id>`` from a reference or a bare id."""
    if value is None or isinstance(value, UnsetType):
        return value
    return _ids.depot_ref(value, "depot")


CUSTOM_PROPERTY_KEY_MAX: Final = 50
"""Longest custom stop property id in a request (official schema)."""
CUSTOM_PROPERTY_VALUE_MAX: Final = 255
"""Longest custom stop property value (official schema; at least 1 character, or null)."""


def custom_property_values(
    value: Mapping[str, str | None] | UnsetType | None,
) -> dict[str, str | None] | UnsetType | None:
    """The ``custom_properties`` field: values keyed by property id, copied.

    A value is 1 to 255 characters, or None (official schema: it clears the value);
    a key is 1 to 50 characters.
    """
    if value is None or isinstance(value, UnsetType):
        return value
    if not isinstance(value, Mapping):
        fail("custom_properties", f"must be a mapping of property id to string, got {type(value).__name__}")
    entries: Iterable[tuple[object, object]] = value.items()
    result: dict[str, str | None] = {}
    for key, item in entries:
        if not isinstance(key, str) or not 1 <= len(key) <= CUSTOM_PROPERTY_KEY_MAX:
            fail(
                "custom_properties",
                f"keys must be custom stop property ids (strings of 1 to {CUSTOM_PROPERTY_KEY_MAX} "
                f"characters), got {key!r}",
            )
        encodable(f"custom_properties[{key!r}]", key)
        if item is not None:
            field = f"custom_properties[{key!r}]"
            if not isinstance(item, str):
                fail(field, f"must be a string or None, got {type(item).__name__}")
            _length(field, item, 1, CUSTOM_PROPERTY_VALUE_MAX)
            encodable(field, item)
        result[key] = item
    return result
