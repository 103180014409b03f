"""Stop search (``GET /stops:search``): the fields, and filters built in Python.

v1 searches every stop and unassigned stop of the team with two parameters,
both optional:

* ``keyword``: words matched fuzzily against the stops' text fields (address,
  notes, recipient, order, barcodes ...); results come back by relevance unless
  a sort field is given. At most :data:`MAX_KEYWORD_LENGTH` characters.
* ``filter``: a small SQL-like language. A comparison is ``field operator
  value``; comparisons combine with ``and`` and ``or`` (``and`` binds tighter,
  both case-insensitive) and parentheses group them. At most
  :data:`MAX_FILTER_LENGTH` characters.

The operators are ``=`` and ``!=`` (every type, and ``null``), ``~=`` (the
field contains the text), and ``>``, ``>=``, ``<``, ``<=`` (numbers, and
ISO-8601 dates on the date fields). Values are strings in double quotes,
integers, decimals (``-33.8688``), ``true``/``false`` and ``null``. Strings
have no escape: a value cannot contain ``"``. On a list field (``barcodes``,
``orderInfo.products``), ``=`` and ``~=`` hold when some element matches and
``!=`` when none does; ``= null`` holds for a missing value or an empty list.
Custom properties are addressed by their id: ``customProperties.<id>``
(the endpoint's list of fields; the document's guide also writes
``custom_property.<id>``).

:data:`FIELDS` is the table of the filterable fields (the sortable ones are
marked, :data:`SORTABLE_FIELDS`). :func:`field` builds comparisons that are
checked as they are made (known field, a value of the field's type, an
operator the type has, no ``"`` in strings); ``&`` and ``|`` combine them and
``str()`` writes the filter text, parenthesised so the grouping is kept::

    from datetime import UTC, datetime
    from route_planning_async.v1.search import custom_property, field

    may = (field("createdAt") >= datetime(2026, 5, 1, tzinfo=UTC)) & (
        field("createdAt") < datetime(2026, 6, 1, tzinfo=UTC)
    )
    where = field("notes").contains("gate") | (field("address.countryCode") == "DE")
    expression = may & where & (custom_property("0234-5678") != "fragile")
    str(expression)
    # 'createdAt >= "2026-05-01T00:00:00Z" and createdAt < "2026-06-01T00:00:00Z"
    #  and (notes ~= "gate" or address.countryCode = "DE") and customProperties.0234-5678 != "fragile"'

A filter is a :data:`Filter`: such an expression or the text itself; :func:`filter_text` turns
either into the text sent, checking the length bound, that the text can be sent (UTF-8: no lone
surrogate, as every string a request carries) and, for an expression, the depth of its parentheses:
at most :data:`MAX_FILTER_DEPTH` levels. ``str()`` checks none of these (an expression too long or
too deep to send can still be printed, at any depth). A value a field cannot take is refused as the
comparison is made: a date-time outside the years UTC can hold, a string with a lone surrogate.
Dates are given as timezone-aware :class:`~datetime.datetime` (sent in UTC,
``2026-05-01T00:00:00Z``) or :class:`~datetime.date` (``2026-05-01``).

Pages hold 1 to :data:`MAX_PAGE_SIZE` stops, :data:`DEFAULT_PAGE_SIZE` by default. (The v1
document's schema says "default 20" beside "exclusive maximum 20" and "exclusive minimum 1"; the
default is taken as the truth, so the bounds are read as inclusive.) The ``filter`` of
``GET /routes/{routeId}/stops`` is not this language: it takes only ``externalId``, an exact match.

The filterable fields (``=`` and ``!=`` also take ``null``):

| Field                                         | Type        | Operators      | Sortable |
|-----------------------------------------------|-------------|----------------|----------|
| ``planId``                                    | string      | = != ~=        |          |
| ``routeId``                                   | string      | = != ~=        |          |
| ``type``                                      | string      | = != ~=        |          |
| ``activity``                                  | string      | = != ~=        |          |
| ``notes``                                     | string      | = != ~=        |          |
| ``orderInfo.sellerOrderId``                   | string      | = != ~=        |          |
| ``orderInfo.invoiceNumber``                   | string      | = != ~=        |          |
| ``orderInfo.sellerWebsite``                   | string      | = != ~=        |          |
| ``address.address``                           | string      | = != ~=        |          |
| ``address.addressLineOne``                    | string      | = != ~=        |          |
| ``address.addressLineTwo``                    | string      | = != ~=        |          |
| ``address.latitude``                          | number      | = != > >= < <= | yes      |
| ``address.longitude``                         | number      | = != > >= < <= | yes      |
| ``address.placeId``                           | string      | = != ~=        |          |
| ``address.countryCode``                       | string      | = != ~=        |          |
| ``createdAt``                                 | date        | = != > >= < <= | yes      |
| ``arrivalAt``                                 | date        | = != > >= < <= | yes      |
| ``packageCount``                              | number      | = != > >= < <= | yes      |
| ``estimatedTravelDuration``                   | number      | = != > >= < <= | yes      |
| ``estimatedTravelDistance``                   | number      | = != > >= < <= | yes      |
| ``timing.estimatedAttemptDuration``           | number      | = != > >= < <= | yes      |
| ``recipient.name``                            | string      | = != ~=        |          |
| ``recipient.email``                           | string      | = != ~=        |          |
| ``recipient.phone``                           | string      | = != ~=        |          |
| ``recipient.externalId``                      | string      | = != ~=        |          |
| ``deliveryInfo.state``                        | string      | = != ~=        |          |
| ``deliveryInfo.attempted``                    | boolean     | = !=           |          |
| ``deliveryInfo.succeeded``                    | boolean     | = !=           |          |
| ``deliveryInfo.recipientProvidedNotes``       | string      | = != ~=        |          |
| ``deliveryInfo.driverProvidedInternalNotes``  | string      | = != ~=        |          |
| ``deliveryInfo.driverProvidedRecipientNotes`` | string      | = != ~=        |          |
| ``deliveryInfo.signeeName``                   | string      | = != ~=        |          |
| ``deliveryInfo.attemptedAt``                  | date        | = != > >= < <= | yes      |
| ``orderInfo.products``                        | string list | = != ~=        |          |
| ``orderInfo.sellerName``                      | string      | = != ~=        |          |
| ``paymentOnDelivery.amount``                  | integer     | = != > >= < <= | yes      |
| ``barcodes``                                  | string list | = != ~=        |          |
| ``packageLabel``                              | string      | = != ~=        |          |
| ``customProperties.<id>``                     | string      | = != ~=        |          |
"""

from __future__ import annotations

import datetime
import enum
import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import NoReturn, TypeAlias

import attrs

from route_planning_async._checks._validators import encodable
from route_planning_async._errors import ValidationError

__all__ = [
    "CUSTOM_PROPERTY_PREFIX",
    "DEFAULT_PAGE_SIZE",
    "FIELDS",
    "MAX_FILTER_DEPTH",
    "MAX_FILTER_LENGTH",
    "MAX_KEYWORD_LENGTH",
    "MAX_PAGE_SIZE",
    "OPERATORS",
    "SORTABLE_FIELDS",
    "Comparison",
    "Expression",
    "Field",
    "FieldType",
    "Filter",
    "Group",
    "SearchField",
    "Value",
    "custom_property",
    "field",
    "filter_text",
    "operators_for",
    "search_field",
]

MAX_FILTER_LENGTH = 2048
"""Longest filter text, in characters (the ``filter`` parameter's ``maxLength``)."""

MAX_FILTER_DEPTH = 64
"""Deepest nesting of parentheses in a filter text. The v1 document gives the length bound only; the
emulator refuses a deeper filter (400 ``invalid_argument``, ``param`` ``filter``) rather than parse
it recursively, and :func:`filter_text` refuses a deeper expression before sending."""

MAX_KEYWORD_LENGTH = 255
"""Longest keyword text, in characters (the ``keyword`` parameter's ``maxLength``)."""

MAX_PAGE_SIZE = 20
"""Largest ``maxPageSize`` of a search (taken as inclusive; see the module's text)."""

DEFAULT_PAGE_SIZE = 20
"""``maxPageSize`` of a search when none is given."""

CUSTOM_PROPERTY_PREFIX = "customProperties."
"""A custom property's field is this prefix and the property's id."""

OPERATORS = ("=", "!=", "~=", ">", ">=", "<", "<=")
"""The comparison operators of the filter language."""

_CUSTOM_ID = re.compile(r"[A-Za-z0-9_-]{1,255}")


class FieldType(enum.Enum):
    """The type of a filterable field's values, which decides its operators and literals.

    Attributes:
        STRING: Text: ``=``, ``!=``, ``~=``; a quoted literal.
        STRING_LIST: A list of texts: ``=``, ``!=``, ``~=`` on its elements; a quoted literal.
        NUMBER: A number: ``=``, ``!=``, ``>``, ``>=``, ``<``, ``<=``; an integer or decimal literal.
        INTEGER: A whole number: the number operators; an integer literal.
        BOOLEAN: ``true`` or ``false``: ``=``, ``!=``.
        DATE: A moment: the number operators; an ISO-8601 date or date-time in quotes.
    """

    STRING = "string"
    """Text: ``=``, ``!=``, ``~=``; a quoted literal."""
    STRING_LIST = "string list"
    """A list of texts: ``=``, ``!=``, ``~=`` on its elements; a quoted literal."""
    NUMBER = "number"
    """A number: ``=``, ``!=``, ``>``, ``>=``, ``<``, ``<=``; an integer or decimal literal."""
    INTEGER = "integer"
    """A whole number: the number operators; an integer literal."""
    BOOLEAN = "boolean"
    """``true`` or ``false``: ``=``, ``!=``."""
    DATE = "date"
    """A moment: the number operators; an ISO-8601 date or date-time in quotes."""


_TYPE_OPERATORS = {
    FieldType.STRING: ("=", "!=", "~="),
    FieldType.STRING_LIST: ("=", "!=", "~="),
    FieldType.NUMBER: ("=", "!=", ">", ">=", "<", "<="),
    FieldType.INTEGER: ("=", "!=", ">", ">=", "<", "<="),
    FieldType.BOOLEAN: ("=", "!="),
    FieldType.DATE: ("=", "!=", ">", ">=", "<", "<="),
}


def operators_for(field_type: FieldType) -> tuple[str, ...]:
    """The operators a field of this type takes (``=`` and ``!=`` also take ``null``)."""
    return _TYPE_OPERATORS[field_type]


@attrs.frozen
class SearchField:
    """One filterable field of the stop search.

    Attributes:
        name (str): The field's path in filters and ``sortField`` (``address.countryCode``).
        type (FieldType): The type of its values.
        description (str): What it holds (the v1 document's words).
        sortable (bool): Whether it can be the ``sortField``.
    """

    name: str
    """The field's path in filters and ``sortField`` (``address.countryCode``)."""
    type: FieldType
    """The type of its values."""
    description: str
    """What it holds (the v1 document's words)."""
    sortable: bool = False
    """Whether it can be the ``sortField``."""


def _table(*rows: tuple[str, FieldType, str, bool]) -> dict[str, SearchField]:
    return {name: SearchField(name, kind, text, sortable) for name, kind, text, sortable in rows}


_S, _L, _N, _I, _B, _D = (
    FieldType.STRING,
    FieldType.STRING_LIST,
    FieldType.NUMBER,
    FieldType.INTEGER,
    FieldType.BOOLEAN,
    FieldType.DATE,
)

FIELDS: Mapping[str, SearchField] = _table(
    ("planId", _S, "The ID of the plan the stop is linked to, as `plans/{planId}`.", False),
    ("routeId", _S, "The ID of the route the stop is linked to, as `routes/{routeId}`.", False),
    ("type", _S, "The type of the stop (`start`, `stop`, `end`).", False),
    ("activity", _S, "The activity performed at the stop (`delivery` or `pickup`).", False),
    ("notes", _S, "Notes associated with the stop.", False),
    ("orderInfo.sellerOrderId", _S, "The order ID from the seller.", False),
    ("orderInfo.invoiceNumber", _S, "The invoice number of the order.", False),
    ("orderInfo.sellerWebsite", _S, "The website URL of the seller.", False),
    ("address.address", _S, "The full address of the stop.", False),
    ("address.addressLineOne", _S, "The first line of the stop address.", False),
    ("address.addressLineTwo", _S, "The second line of the stop address.", False),
    ("address.latitude", _N, "The latitude of the stop address in decimal degrees.", True),
    ("address.longitude", _N, "The longitude of the stop address in decimal degrees.", True),
    ("address.placeId", _S, "The Google Places identifier for the address.", False),
    ("address.countryCode", _S, "The ISO country code for the address.", False),
    ("createdAt", _D, "When the stop was created.", True),
    ("arrivalAt", _D, "The (estimated) arrival at the stop.", True),
    ("packageCount", _N, "The number of packages to be delivered or picked up.", True),
    ("estimatedTravelDuration", _N, "Travel time from the previous stop, in seconds.", True),
    ("estimatedTravelDistance", _N, "Travel distance from the previous stop, in meters.", True),
    ("timing.estimatedAttemptDuration", _N, "Time spent at the stop, in seconds.", True),
    ("recipient.name", _S, "The name of the recipient at the stop.", False),
    ("recipient.email", _S, "The email address of the recipient.", False),
    ("recipient.phone", _S, "The phone number of the recipient.", False),
    ("recipient.externalId", _S, "An external identifier for the recipient.", False),
    ("deliveryInfo.state", _S, "The state of the delivery (`delivered_to_recipient` ...).", False),
    ("deliveryInfo.attempted", _B, "Whether a delivery attempt has been made.", False),
    ("deliveryInfo.succeeded", _B, "Whether the delivery was successful.", False),
    ("deliveryInfo.recipientProvidedNotes", _S, "Notes from the recipient for the driver.", False),
    ("deliveryInfo.driverProvidedInternalNotes", _S, "Internal notes from the driver.", False),
    ("deliveryInfo.driverProvidedRecipientNotes", _S, "Notes from the driver for the recipient.", False),
    ("deliveryInfo.signeeName", _S, "The name of the person who signed for the delivery.", False),
    ("deliveryInfo.attemptedAt", _D, "When the delivery was attempted.", True),
    ("orderInfo.products", _L, "The products included in the order.", False),
    ("orderInfo.sellerName", _S, "The name of the seller.", False),
    ("paymentOnDelivery.amount", _I, "The amount to collect on delivery, in original units.", True),
    ("barcodes", _L, "The barcodes associated with the stop.", False),
    ("packageLabel", _S, "The label applied to the package(s).", False),
)
"""The named filterable fields, by name; with ``customProperties.<id>`` (strings) they are
the document's 39."""

SORTABLE_FIELDS = tuple(name for name, spec in FIELDS.items() if spec.sortable)
"""The fields ``sortField`` takes."""


def _custom_field(property_id: str) -> SearchField:
    return SearchField(f"{CUSTOM_PROPERTY_PREFIX}{property_id}", FieldType.STRING, "A custom property.")


def search_field(name: str) -> SearchField:
    """The field called ``name``: a name of :data:`FIELDS` or ``customProperties.<id>``.

    Raises:
        ValidationError: ``name`` is not a filterable field.
    """
    spec = FIELDS.get(name)
    if spec is not None:
        return spec
    if name.startswith(CUSTOM_PROPERTY_PREFIX):
        property_id = name[len(CUSTOM_PROPERTY_PREFIX) :]
        if _CUSTOM_ID.fullmatch(property_id):
            return _custom_field(property_id)
        raise ValidationError(
            "filter", f"{property_id!r} is not a custom property id (letters, digits, - and _)"
        )
    raise ValidationError("filter", f"{name!r} is not a filterable field (see search.FIELDS)")


Value: TypeAlias = str | int | float | bool | datetime.datetime | datetime.date | None
"""What a comparison compares a field with (the field's type decides which)."""


def _refuse(spec: SearchField, rule: str) -> NoReturn:
    raise ValidationError("filter", f"{spec.name}: {rule}")


def _number_text(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(value)
    text = repr(value)
    return format(Decimal(text), "f") if "e" in text or "E" in text else text


def _literal(spec: SearchField, operator: str, value: Value) -> str:
    """The literal of ``value`` for a comparison of ``spec`` with ``operator``, checked."""
    if value is None:
        if operator not in ("=", "!="):
            _refuse(spec, f"null takes only = and !=, not {operator}")
        return "null"
    if operator not in _TYPE_OPERATORS[spec.type]:
        _refuse(
            spec, f"a {spec.type.value} field takes {', '.join(_TYPE_OPERATORS[spec.type])}, not {operator}"
        )
    kind = spec.type
    if kind in (FieldType.STRING, FieldType.STRING_LIST):
        if not isinstance(value, str):
            _refuse(spec, f"takes a string, not {type(value).__name__}")
        if '"' in value:
            _refuse(spec, 'the filter language has no escape, so a string cannot contain "')
        try:
            encodable(spec.name, value)
        except ValidationError as error:
            _refuse(spec, error.rule)
        return f'"{value}"'
    if kind is FieldType.BOOLEAN:
        if not isinstance(value, bool):
            _refuse(spec, f"takes True or False, not {type(value).__name__}")
        return "true" if value else "false"
    if kind is FieldType.DATE:
        if isinstance(value, datetime.datetime):
            if value.tzinfo is None or value.utcoffset() is None:
                _refuse(spec, "takes a timezone-aware datetime (a naive one has no fixed moment)")
            try:
                text = value.astimezone(datetime.UTC).replace(tzinfo=None).isoformat()
            except OverflowError:
                _refuse(spec, f"{value.isoformat()} is outside the years UTC can hold (1 to 9999)")
            return f'"{text}Z"'
        if isinstance(value, datetime.date):
            return f'"{value.isoformat()}"'
        _refuse(spec, f"takes a datetime or a date, not {type(value).__name__}")
    if isinstance(value, bool) or not isinstance(value, int | float):
        _refuse(spec, f"takes a number, not {type(value).__name__}")
    if kind is FieldType.INTEGER and not isinstance(value, int):
        _refuse(spec, "takes a whole number (int)")
    if isinstance(value, float) and not math.isfinite(value):
        _refuse(spec, f"takes a finite number, not {value}")
    return str(value) if isinstance(value, int) else _number_text(value)


class Expression:
    """A filter: a comparison or comparisons joined by ``and``/``or``.

    ``a & b`` is ``a and b``, ``a | b`` is ``a or b``; ``str(expression)`` is
    the filter text. Python's ``and``/``or``/``not`` cannot be used on it.
    """

    __slots__ = ()

    def __and__(self, other: Expression) -> Expression:
        return Group.join("and", self, other)

    def __or__(self, other: Expression) -> Expression:
        return Group.join("or", self, other)

    def __bool__(self) -> NoReturn:
        raise TypeError("a filter expression has no truth value: join with & and |, not and/or")

    def __str__(self) -> str:
        return _written(self)[0]


@attrs.frozen(eq=False, repr=False)
class Comparison(Expression):
    """``field operator value``, checked when made (use :func:`field`).

    Attributes:
        field (SearchField): The field compared.
        operator (str): One of :data:`OPERATORS`.
        value (Value): What it is compared with (None is ``null``).
        literal (str): The value as filter text.
    """

    field: SearchField
    """The field compared."""
    operator: str
    """One of :data:`OPERATORS`."""
    value: Value
    """What it is compared with (None is ``null``)."""
    literal: str = attrs.field(init=False)
    """The value as filter text."""

    def __attrs_post_init__(self) -> None:
        if self.operator not in OPERATORS:
            _refuse(self.field, f"{self.operator!r} is not an operator ({' '.join(OPERATORS)})")
        object.__setattr__(self, "literal", _literal(self.field, self.operator, self.value))

    def __repr__(self) -> str:
        return f"Comparison({str(self)!r})"


def _is_expression(instance: object, attribute: attrs.Attribute[object], value: object) -> None:
    if not isinstance(value, Expression):
        raise TypeError(f"{attribute.name} must be filter expressions, got {type(value).__name__}")


@attrs.frozen(eq=False, repr=False)
class Group(Expression):
    """Expressions joined by one boolean operator (``and`` or ``or``).

    Attributes:
        operator (str): ``and`` or ``or``.
        parts (tuple[Expression, ...]): The joined expressions (a part joined by the same operator is
            flattened in).
    """

    operator: str = attrs.field(validator=attrs.validators.in_(("and", "or")))
    """``and`` or ``or``."""
    parts: tuple[Expression, ...] = attrs.field(
        validator=attrs.validators.deep_iterable(_is_expression, attrs.validators.min_len(1))
    )
    """The joined expressions (a part joined by the same operator is flattened in)."""

    @classmethod
    def join(cls, operator: str, left: object, right: object) -> Group:
        """``left operator right``, flattening parts already joined by ``operator``."""
        parts: list[Expression] = []
        for side in (left, right):
            if not isinstance(side, Expression):
                raise TypeError(f"cannot join a filter expression with {type(side).__name__}")
            if isinstance(side, Group) and side.operator == operator:
                parts.extend(side.parts)
            else:
                parts.append(side)
        return cls(operator, tuple(parts))

    def __repr__(self) -> str:
        return f"Group({str(self)!r})"


_OPEN, _CLOSE = 1, -1


def _written(expression: Expression) -> tuple[str, int]:
    """The filter text of ``expression`` and the depth of its parentheses.

    Written with a stack of its own rather than by recursion, so an expression of any depth
    is written (and :func:`filter_text` refuses one too deep with a ``ValidationError``).
    """
    pieces: list[str] = []
    depth = deepest = 0
    # Each entry: text to write, a parenthesis (_OPEN, _CLOSE), or an expression and the
    # word of the group it is in.
    stack: list[str | int | tuple[Expression, str | None]] = [(expression, None)]
    while stack:
        entry = stack.pop()
        if isinstance(entry, str):
            pieces.append(entry)
        elif isinstance(entry, int):
            depth += entry
            deepest = max(deepest, depth)
            pieces.append("(" if entry == _OPEN else ")")
        else:
            node, within = entry
            if isinstance(node, Comparison):
                pieces.append(f"{node.field.name} {node.operator} {node.literal}")
                continue
            if not isinstance(node, Group):
                raise TypeError(f"not a filter expression: {type(node).__name__}")
            # ``and`` binds tighter than ``or``: only an ``or`` inside an ``and`` needs parentheses.
            bracketed = within == "and" and node.operator == "or"
            if bracketed:
                stack.append(_CLOSE)
            for index in range(len(node.parts) - 1, -1, -1):
                stack.append((node.parts[index], node.operator))
                if index:
                    stack.append(f" {node.operator} ")
            if bracketed:
                stack.append(_OPEN)
    return "".join(pieces), deepest


@attrs.frozen(eq=False)
class Field:
    """A filterable field, compared with Python's operators to make a :class:`Comparison`.

    ``==`` is ``=``, ``!=`` is ``!=``, ``<``, ``<=``, ``>``, ``>=`` are themselves,
    :meth:`contains` is ``~=``; comparing with None is comparing with ``null``
    (:meth:`is_null`, :meth:`is_not_null`).

    Attributes:
        spec (SearchField): The field's row of the table.
    """

    spec: SearchField
    """The field's row of the table."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, value: Value) -> Comparison:  # type: ignore[override]
        return Comparison(self.spec, "=", value)

    def __ne__(self, value: Value) -> Comparison:  # type: ignore[override]
        return Comparison(self.spec, "!=", value)

    def __lt__(self, value: Value) -> Comparison:
        return Comparison(self.spec, "<", value)

    def __le__(self, value: Value) -> Comparison:
        return Comparison(self.spec, "<=", value)

    def __gt__(self, value: Value) -> Comparison:
        return Comparison(self.spec, ">", value)

    def __ge__(self, value: Value) -> Comparison:
        return Comparison(self.spec, ">=", value)

    def contains(self, text: str) -> Comparison:
        """``field ~= "text"``: the field (an element, on a list field) contains ``text``."""
        return Comparison(self.spec, "~=", text)

    def is_null(self) -> Comparison:
        """``field = null``: the field has no value."""
        return Comparison(self.spec, "=", None)

    def is_not_null(self) -> Comparison:
        """``field != null``: the field has a value."""
        return Comparison(self.spec, "!=", None)


def field(name: str) -> Field:
    """The filterable field ``name`` (a name of :data:`FIELDS` or ``customProperties.<id>``).

    Raises:
        ValidationError: ``name`` is not a filterable field.
    """
    return Field(search_field(name))


def custom_property(property_id: str) -> Field:
    """The custom property with this id (its id, not its name), a string field.

    Raises:
        ValidationError: ``property_id`` is not a custom property id.
    """
    return field(f"{CUSTOM_PROPERTY_PREFIX}{property_id}")


Filter: TypeAlias = str | Expression
"""A stop-search filter: an expression made with :func:`field`, or the filter text."""


def filter_text(value: Filter) -> str:
    """The filter text to send for ``value``, checked against the bounds.

    Raises:
        ValidationError: the text is empty, longer than :data:`MAX_FILTER_LENGTH`, cannot be
            sent as UTF-8 (a lone surrogate), or, for an expression, nests parentheses deeper
            than :data:`MAX_FILTER_DEPTH`.
        TypeError: ``value`` is neither a string nor an expression.
    """
    if isinstance(value, Expression):
        text, depth = _written(value)
        if depth > MAX_FILTER_DEPTH:
            raise ValidationError(
                "filter", f"nests parentheses {depth} deep; at most {MAX_FILTER_DEPTH} levels"
            )
    elif isinstance(value, str):
        text = value
    else:
        raise TypeError(f"a filter is a string or a search expression, not {type(value).__name__}")
    if not text:
        raise ValidationError("filter", "must not be empty")
    if len(text) > MAX_FILTER_LENGTH:
        raise ValidationError("filter", f"at most {MAX_FILTER_LENGTH} characters, not {len(text)}")
    encodable("filter", text)
    return text
