"""The v1 stop search: the filter language's parser, keyword match and sort.

The handler of ``GET /stops:search`` calls::

    search(documents, *, keyword=None, filter=None, sort_field=None, sort_order="asc")
        -> list[Mapping[str, Any]]

``documents`` are the stop and unassigned stop bodies to search (stored JSON
dicts; a stop's body with its ``route`` rendered, so ``routeId`` can be
matched). The answer holds the same dict objects, filtered and ordered; the
caller pages it. Any bad parameter raises :class:`SearchError`, whose
``message`` and ``param`` (``"filter"``, ``"keyword"``, ``"sortField"`` or
``"sortOrder"``) make the 400 answer; ``position`` is the offending offset in
the filter text, when there is one.

The language and its fields are those of the public builder
(``route_planning_async/v1/search.py``, whose table this module reads). Where a
field's value lives in a body: its path, except ``planId`` (``plan``),
``routeId`` (``route.id``), ``arrivalAt`` (``eta.estimatedArrivalAt``) and
``customProperties.<id>``; ``createdAt`` and ``address.countryCode`` are read
when the body carries them (the stored bodies do not, so they are null). Dates
in bodies are epoch seconds or ISO-8601 text; a date literal without an offset
is UTC. ``=`` on a string is exact, ``~=`` ignores case. Field names and the
words ``and``/``or``/``true``/``false``/``null`` are read without case (the
document's own example writes ``createdat``), and ``custom_property.<id>`` (the
document's other spelling) is ``customProperties.<id>``.

Keywords: the words of ``keyword`` are matched against the words of the text
fields, each exactly (3 points), as a prefix (2) or within an edit distance of
1 (words of 3 to 5 letters) or 2 (longer) (1 point); a stop with any point is
found, the best first. ``sortField`` (a sortable field) orders instead, the
stops without a value last in either order; ties keep the documents' order.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from route_planning_async.v1.search import (
    CUSTOM_PROPERTY_PREFIX,
    FIELDS,
    MAX_FILTER_LENGTH,
    MAX_KEYWORD_LENGTH,
    FieldType,
    SearchField,
    operators_for,
)

__all__ = ["Condition", "SearchError", "parse_filter", "relevance", "search"]

Document = Mapping[str, Any]


class SearchError(Exception):
    """A search parameter the service refuses (400 ``invalid_argument``)."""

    def __init__(self, message: str, param: str, position: int | None = None) -> None:
        where = "" if position is None else f" (at character {position + 1})"
        super().__init__(f"{message}{where}")
        self.message = f"{message}{where}"
        self.param = param
        self.position = position


# ---------------------------------------------------------------- fields


_BY_LOWER = {name.lower(): spec for name, spec in FIELDS.items()}
_CUSTOM_PREFIXES = (CUSTOM_PROPERTY_PREFIX.lower(), "custom_property.")
_CUSTOM_ID = re.compile(r"[A-Za-z0-9_-]{1,255}")
_SOURCES: dict[str, tuple[str, ...]] = {
    "planId": ("plan",),
    "routeId": ("route", "id"),
    "arrivalAt": ("eta", "estimatedArrivalAt"),
}
_NOT_TEXT = {
    "planId",
    "routeId",
    "type",
    "activity",
    "address.placeId",
    "address.countryCode",
    "deliveryInfo.state",
}
_TEXT_FIELDS = tuple(
    name
    for name, spec in FIELDS.items()
    if spec.type in (FieldType.STRING, FieldType.STRING_LIST) and name not in _NOT_TEXT
)


def _resolve(name: str, position: int | None, param: str = "filter") -> tuple[SearchField, tuple[str, ...]]:
    """The field written ``name`` and the path of its value in a body."""
    spec = _BY_LOWER.get(name.lower())
    if spec is not None:
        return spec, _SOURCES.get(spec.name, tuple(spec.name.split(".")))
    for prefix in _CUSTOM_PREFIXES:
        if name.lower().startswith(prefix):
            property_id = name[len(prefix) :]
            if not _CUSTOM_ID.fullmatch(property_id):
                raise SearchError(f"{property_id!r} is not a custom property id", param, position)
            custom = SearchField(f"{CUSTOM_PROPERTY_PREFIX}{property_id}", FieldType.STRING, "")
            return custom, ("customProperties", property_id)
    raise SearchError(f"unknown field {name!r}", param, position)


def _lookup(body: Document, path: tuple[str, ...]) -> Any:
    value: Any = body
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _moment(value: Any) -> datetime.datetime | None:
    """A body's date (epoch seconds or ISO-8601 text) as an aware datetime, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return datetime.datetime.fromtimestamp(value, datetime.UTC)
    if isinstance(value, str):
        return _parse_moment(value)
    return None


def _parse_moment(text: str) -> datetime.datetime | None:
    try:
        if len(text) == 10:
            day = datetime.date.fromisoformat(text)
            return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC)
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


# ---------------------------------------------------------------- tokens

_TOKEN = re.compile(
    r"""(?P<space>\s+)
    |(?P<paren>[()])
    |(?P<op>!=|~=|>=|<=|=|>|<)
    |(?P<number>-?\d+(?:\.\d+)?(?![\w.]))
    |(?P<string>"[^"]*")
    |(?P<word>[A-Za-z_][A-Za-z0-9_.\-]*)
    """,
    re.VERBOSE,
)


@attrs.frozen
class _Token:
    kind: str
    text: str
    position: int


def _tokens(text: str) -> list[_Token]:
    tokens = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            char = text[position]
            if char == '"':
                raise SearchError(
                    "unterminated string: a string ends at the next double quote", "filter", position
                )
            if char in "!~":
                raise SearchError(
                    f"unknown operator {char!r} (operators: = != ~= > >= < <=)", "filter", position
                )
            raise SearchError(f"unexpected character {char!r}", "filter", position)
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append(_Token(kind, match.group(), position))
        position = match.end()
    tokens.append(_Token("end", "", len(text)))
    return tokens


# ---------------------------------------------------------------- syntax tree


@attrs.frozen
class Condition:
    """One parsed comparison: ``field operator value``; ``test(body)`` evaluates it."""

    field: SearchField
    """The field (a custom property's has the STRING type)."""
    path: tuple[str, ...]
    """Where its value lives in a body."""
    operator: str
    """The comparison operator."""
    value: Any
    """The literal: str, int, float, bool, aware datetime or None (``null``)."""

    def test(self, body: Document) -> bool:
        """Whether ``body`` satisfies the comparison."""
        return _compare(self.field.type, self.operator, _lookup(body, self.path), self.value)


@attrs.frozen
class _Junction:
    operator: str
    parts: tuple[Node, ...]

    def test(self, body: Document) -> bool:
        if self.operator == "and":
            return all(part.test(body) for part in self.parts)
        return any(part.test(body) for part in self.parts)


Node = Condition | _Junction


def _compare(kind: FieldType, operator: str, found: Any, literal: Any) -> bool:
    if literal is None:
        empty = found is None or (kind is FieldType.STRING_LIST and not found)
        return empty if operator == "=" else not empty
    if kind is FieldType.STRING_LIST:
        items = [item for item in found if isinstance(item, str)] if isinstance(found, list) else []
        if operator == "~=":
            return any(literal.lower() in item.lower() for item in items)
        hit = literal in items
        return hit if operator == "=" else not hit
    if kind is FieldType.STRING:
        if operator == "~=":
            return isinstance(found, str) and literal.lower() in found.lower()
        return bool(found == literal) if operator == "=" else bool(found != literal)
    if kind is FieldType.BOOLEAN:
        same = isinstance(found, bool) and found is literal
        return same if operator == "=" else not same
    value = _moment(found) if kind is FieldType.DATE else found
    if isinstance(value, bool) or not isinstance(value, int | float | datetime.datetime):
        return operator == "!="
    return _ORDER[operator](value, literal)


_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: bool(a == b),
    "!=": lambda a, b: bool(a != b),
    ">": lambda a, b: bool(a > b),
    ">=": lambda a, b: bool(a >= b),
    "<": lambda a, b: bool(a < b),
    "<=": lambda a, b: bool(a <= b),
}


# ---------------------------------------------------------------- parser


class _Parser:
    """Recursive descent: ``or`` of ``and`` of comparisons or parenthesised filters."""

    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.index = 0

    def peek(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def is_word(self, word: str) -> bool:
        token = self.peek()
        return token.kind == "word" and token.text.lower() == word

    def parse(self) -> Node:
        node = self.disjunction()
        token = self.peek()
        if token.kind != "end":
            raise SearchError(f"expected and, or or the end, found {token.text!r}", "filter", token.position)
        return node

    def disjunction(self) -> Node:
        return self.chain("or", self.conjunction)

    def conjunction(self) -> Node:
        return self.chain("and", self.primary)

    def chain(self, word: str, part: Callable[[], Node]) -> Node:
        """``part (word part)*``: one part, or a junction of them."""
        parts = [part()]
        while self.is_word(word):
            self.take()
            parts.append(part())
        return parts[0] if len(parts) == 1 else _Junction(word, tuple(parts))

    def primary(self) -> Node:
        token = self.take()
        if token.kind == "paren" and token.text == "(":
            node = self.disjunction()
            closing = self.take()
            if closing.kind != "paren" or closing.text != ")":
                raise SearchError(
                    f"expected ')' to close the '(' at {token.position + 1}", "filter", closing.position
                )
            return node
        if token.kind != "word" or token.text.lower() in ("and", "or", "true", "false", "null"):
            found = "the end of the filter" if token.kind == "end" else repr(token.text)
            raise SearchError(f"expected a field name, found {found}", "filter", token.position)
        spec, path = _resolve(token.text, token.position)
        operator = self.take()
        if operator.kind != "op":
            found = "the end of the filter" if operator.kind == "end" else repr(operator.text)
            raise SearchError(
                f"expected an operator (= != ~= > >= < <=), found {found}", "filter", operator.position
            )
        literal = self.take()
        if literal.kind == "op" and literal.position == operator.position + len(operator.text):
            written = operator.text + literal.text
            raise SearchError(
                f"unknown operator {written!r} (operators: = != ~= > >= < <=)", "filter", operator.position
            )
        value = _value(spec, operator.text, literal)
        if value is not None and operator.text not in operators_for(spec.type):
            raise SearchError(
                f"{spec.name} is a {spec.type.value} field, which takes {' '.join(operators_for(spec.type))},"
                f" not {operator.text}",
                "filter",
                operator.position,
            )
        return Condition(spec, path, operator.text, value)


def _value(spec: SearchField, operator: str, token: _Token) -> Any:
    """The literal ``token`` as a value for ``spec``, checked against the field's type."""
    kind = spec.type
    lowered = token.text.lower() if token.kind == "word" else ""
    if lowered == "null":
        if operator not in ("=", "!="):
            raise SearchError(f"null takes only = and !=, not {operator}", "filter", token.position)
        return None

    def refuse(expected: str) -> SearchError:
        found = "the end of the filter" if token.kind == "end" else token.text
        return SearchError(f"{spec.name} takes {expected}, not {found}", "filter", token.position)

    if kind in (FieldType.STRING, FieldType.STRING_LIST):
        if token.kind != "string":
            raise refuse("a string in double quotes")
        return token.text[1:-1]
    if kind is FieldType.DATE:
        moment = _parse_moment(token.text[1:-1]) if token.kind == "string" else None
        if moment is None:
            raise refuse('an ISO-8601 date in double quotes ("2026-05-01" or "2026-05-01T00:00:00Z")')
        return moment
    if kind is FieldType.BOOLEAN:
        if lowered not in ("true", "false"):
            raise refuse("true or false")
        return lowered == "true"
    if token.kind != "number" or (kind is FieldType.INTEGER and "." in token.text):
        raise refuse("an integer" if kind is FieldType.INTEGER else "a number")
    return float(token.text) if "." in token.text else int(token.text)


def parse_filter(text: str) -> Node:
    """The syntax tree of a filter text; every node has ``test(body) -> bool``.

    Raises:
        SearchError: the text is empty, too long, or not a filter of known fields.
    """
    if not text.strip():
        raise SearchError("the filter is empty", "filter")
    if len(text) > MAX_FILTER_LENGTH:
        raise SearchError(f"the filter has {len(text)} characters; at most {MAX_FILTER_LENGTH}", "filter")
    return _Parser(text).parse()


# ---------------------------------------------------------------- keywords and sort

_WORD = re.compile(r"\w+")


def _distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, cut at ``limit + 1``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char != other)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _term_score(term: str, words: set[str]) -> int:
    if term in words:
        return 3
    if any(word.startswith(term) for word in words):
        return 2
    limit = 0 if len(term) < 3 else 1 if len(term) <= 5 else 2
    return int(limit > 0 and any(_distance(term, word, limit) <= limit for word in words))


def _words(body: Document) -> set[str]:
    texts: list[str] = []
    for name in _TEXT_FIELDS:
        value = _lookup(body, tuple(name.split(".")))
        texts.extend([value] if isinstance(value, str) else [v for v in value or () if isinstance(v, str)])
    custom = body.get("customProperties")
    if isinstance(custom, Mapping):
        texts.extend(value for value in custom.values() if isinstance(value, str))
    return {word for text in texts for word in _WORD.findall(text.lower())}


def relevance(keyword: str, body: Document) -> int:
    """How well ``body`` matches ``keyword`` (0: not at all)."""
    words = _words(body)
    return sum(_term_score(term, words) for term in _WORD.findall(keyword.lower()))


def _sort_key(path: tuple[str, ...], kind: FieldType) -> Callable[[Document], tuple[bool, float]]:
    def key(body: Document) -> tuple[bool, float]:
        value = _lookup(body, path)
        if kind is FieldType.DATE:
            moment = _moment(value)
            value = None if moment is None else moment.timestamp()
        if isinstance(value, bool) or not isinstance(value, int | float):
            return (True, 0.0)
        return (False, float(value))

    return key


def search(
    documents: Iterable[Document],
    *,
    keyword: str | None = None,
    filter: str | None = None,
    sort_field: str | None = None,
    sort_order: str = "asc",
) -> list[Document]:
    """The documents the search finds, in the answer's order (see the module's text).

    Raises:
        SearchError: a parameter is refused; ``param`` names it.
    """
    if keyword is not None and not 1 <= len(keyword) <= MAX_KEYWORD_LENGTH:
        raise SearchError(f"keyword must have 1 to {MAX_KEYWORD_LENGTH} characters", "keyword")
    if sort_order not in ("asc", "desc"):
        raise SearchError(f"sortOrder must be asc or desc, not {sort_order!r}", "sortOrder")
    sort: Callable[[Document], tuple[bool, float]] | None = None
    if sort_field is not None:
        spec, path = _resolve(sort_field, None, "sortField")
        if not spec.sortable:
            raise SearchError(
                f"{spec.name} is not sortable (sortable: {', '.join(_sortable())})", "sortField"
            )
        sort = _sort_key(path, spec.type)
    tree = parse_filter(filter) if filter is not None else None
    found: Sequence[Document] = [body for body in documents if tree is None or tree.test(body)]
    if keyword is not None:
        scored = [(relevance(keyword, body), body) for body in found]
        found = [body for score, body in sorted(scored, key=lambda pair: -pair[0]) if score > 0]
    if sort is not None:
        present = [body for body in found if not sort(body)[0]]
        present.sort(key=lambda body: sort(body)[1], reverse=sort_order == "desc")
        found = present + [body for body in found if sort(body)[0]]
    return list(found)


def _sortable() -> list[str]:
    return [name for name, spec in FIELDS.items() if spec.sortable]
