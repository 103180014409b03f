"""List pages: page sizes, filters and page tokens of the list endpoints.

Each API version describes its lists (:class:`ListSpec`: page sizes, and the
filters with how each reads its value); :class:`Pages` reads the query. A page
token stands for a cursor: the list, its scope, the other query parameters (which
must come back unchanged, contract Pagination) and the position of the last item
served (a sequence number; v1's stop search: the item's place in the answer's
order), so deleting records between pages never skips or repeats one. The same
page asked for again (a retried GET) gets the same next token.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs
from multidict import MultiMapping

from route_planning_async.emulator._rules._problems import Problem
from route_planning_async.emulator._rules._validation import string
from route_planning_async.emulator._setup._config import EmulatorConfig

__all__ = ["FilterParser", "ListSpec", "Pages"]

FilterParser = Callable[[str, str], Any]
"""Reads the text of a filter, given its param name (``filter.done``); 400 when it is not valid."""


@attrs.frozen
class ListSpec:
    """One list endpoint: its page sizes and the filters it takes."""

    default: int
    """Page size without ``maxPageSize``."""
    maximum: int
    """The largest ``maxPageSize`` taken."""
    filters: Mapping[str, FilterParser] = attrs.field(factory=dict)
    """The ``filter.<name>`` (or ``filter[<name>]``) parameters taken, by name, each with how it
    reads its value."""
    params: Mapping[str, FilterParser] = attrs.field(factory=dict)
    """Other query parameters taken (v1's stop search: ``keyword``, ``filter``, ``sortField``
    ...), by name, each with how it reads its value; they reach ``fetch`` among the filters."""
    empty_page_token: bool = False
    """Whether an empty ``pageToken`` is taken (as the first page): where the list's schema sets
    no ``minLength`` on it (v1's stop search); elsewhere it is refused (``minLength: 1``)."""


@attrs.frozen
class _Cursor:
    route: str
    scope: str
    signature: tuple[tuple[str, str], ...]
    after: Any


class Pages:
    """The page tokens handed out so far, and the query parsing of every list."""

    def __init__(self, config: EmulatorConfig, new_token: Callable[[], str]) -> None:
        self.config = config
        self._new_token = new_token
        self._cursors: dict[str, _Cursor] = {}
        self._tokens: dict[_Cursor, str] = {}

    def paginate(
        self,
        route: str,
        query: MultiMapping[str],
        scope: str,
        spec: ListSpec,
        fetch: Callable[[Any, int, dict[str, Any]], tuple[list[Any], Any, bool]],
    ) -> tuple[list[Any], str | None]:
        """One page of the list ``route`` answers (``scope``: the plan of a stop list, else "").

        ``fetch(after, limit, filters)`` returns ``(items, position of the last item
        served, more left)``; ``after`` is 0 on the first page, else the position an
        earlier page returned (a sequence number, or any hashable position the list
        orders its items by). The answer is the items and the next page token (None
        on the last page). Raises 400 for a bad page size, filter or token.
        """
        limit = spec.default
        filters: dict[str, Any] = {}
        token: str | None = None
        seen: set[str] = set()
        for key, value in query.items():
            if key in seen:
                raise Problem.invalid(key, "is given more than once")
            seen.add(key)
            match = re.fullmatch(r"filter\[(\w+)\]|filter\.(\w+)", key)
            if key == "pageToken":
                # An empty token asks for the first page where the list's schema lets it be
                # empty (v1's stop search: ``type: string`` with no ``minLength``).
                token = None if value == "" and spec.empty_page_token else string(value, "pageToken")
            elif key == "maxPageSize":
                # The official schemas type it ``number``: an integral float (``10.0``, what a
                # client generated from them sends) is the whole number it writes.
                if re.fullmatch(r"\d{1,6}(\.0*)?", value) is None:
                    raise Problem.invalid("maxPageSize", f"must be a whole number, got {value!r}")
                limit = int(float(value))
                if not 1 <= limit <= spec.maximum:
                    raise Problem.invalid("maxPageSize", f"must be between 1 and {spec.maximum}, got {limit}")
            elif key in spec.params:
                filters[key] = spec.params[key](key, value)
            elif match is not None:
                name = match.group(1) or match.group(2)
                if name not in spec.filters:
                    raise Problem.invalid(f"filter.{name}", "is not a filter of this list")
                if name in filters:
                    raise Problem.invalid(f"filter.{name}", "is given more than once")
                filters[name] = spec.filters[name](f"filter.{name}", value)
            elif self.config.strict:
                raise Problem.invalid(key, "is not a query parameter of this list")
        signature = tuple(sorted((k, v) for k, v in query.items() if k != "pageToken"))
        after: Any = 0
        if token is not None:
            cursor = self._cursors.get(token)
            if cursor is None or cursor.route != route or cursor.scope != scope:
                raise Problem(
                    400, "pageToken: unknown or expired page token", "invalid_page_token", "pageToken"
                )
            if cursor.signature != signature:
                # "all the original query parameters unchanged" (contract, Pagination).
                raise Problem(
                    400,
                    "pageToken: the other query parameters differ from the request that returned it",
                    "invalid_page_token",
                    "pageToken",
                )
            after = cursor.after
        items, last, more = fetch(after, limit, filters)
        next_token: str | None = None
        if more:
            cursor = _Cursor(route, scope, signature, last)
            # The same page asked for again (a retried GET) gets the same next token.
            next_token = self._tokens.get(cursor)
            if next_token is None:
                next_token = self._tokens[cursor] = self._new_token()
                self._cursors[next_token] = cursor
        return items, next_token
