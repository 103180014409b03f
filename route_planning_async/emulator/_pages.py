"""List pages: page sizes, filters and page tokens of the list endpoints.

A page token stands for a cursor: the list, its scope, the other query
parameters (which must come back unchanged, contract Pagination) and the last
sequence number served, so deleting records between pages never skips or repeats
one. The same page asked for again (a retried GET) gets the same next token.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import attrs
from multidict import MultiMapping

from route_planning_async.emulator._config import EmulatorConfig
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._validation import string

__all__ = [
    "DEPOTS_LIST",
    "OPERATIONS_LIST",
    "PLANS_LIST",
    "STOPS_LIST",
    "UNASSIGNED_LIST",
    "ListSpec",
    "Pages",
]


@attrs.frozen
class ListSpec:
    """One list endpoint: its page sizes and the filters it takes."""

    default: int
    """Page size without ``maxPageSize``."""
    maximum: int
    """The largest ``maxPageSize`` taken."""
    filters: tuple[str, ...] = ()
    """Names of the ``filter.<name>`` (or ``filter[<name>]``) parameters taken."""


# maxPageSize ranges and defaults (contract, Limits; depots and operations from the
# public OpenAPI document, which also gives the operation list's two filters).
PLANS_LIST = ListSpec(10, 20, ("title", "startsGte", "startsLte"))
STOPS_LIST = ListSpec(10, 10, ("externalId",))
UNASSIGNED_LIST = ListSpec(20, 20, ("externalId",))
DEPOTS_LIST = ListSpec(20, 20)
OPERATIONS_LIST = ListSpec(20, 20, ("done", "type"))
_OPERATION_TYPES = ("plan_optimization",)


@attrs.frozen
class _Cursor:
    route: str
    scope: str
    signature: tuple[tuple[str, str], ...]
    after: int


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
        fetch: Callable[[int, int, dict[str, Any]], tuple[list[Any], int, bool]],
    ) -> tuple[list[Any], str | None]:
        """One page of the list ``route`` answers (``scope``: the plan of a stop list, else "").

        ``fetch(after, limit, filters)`` returns ``(items, last sequence number served,
        more left)``; the answer is the items and the next page token (None on the
        last page). Raises 400 for a bad page size, filter or token.
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
                token = string(value, "pageToken")
            elif key == "maxPageSize":
                if re.fullmatch(r"\d{1,6}", value) is None:
                    raise Problem.invalid("maxPageSize", f"must be a whole number, got {value!r}")
                limit = int(value)
                if not 1 <= limit <= spec.maximum:
                    raise Problem.invalid("maxPageSize", f"must be between 1 and {spec.maximum}, got {limit}")
            elif match is not None:
                name = match.group(1) or match.group(2)
                if name not in spec.filters:
                    raise Problem.invalid(f"filter.{name}", "is not a filter of this list")
                if name in filters:
                    raise Problem.invalid(f"filter.{name}", "is given more than once")
                filters[name] = _filter_value(name, value)
            elif self.config.strict:
                raise Problem.invalid(key, "is not a query parameter of this list")
        signature = tuple(sorted((k, v) for k, v in query.items() if k != "pageToken"))
        after = 0
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


def _filter_value(name: str, value: str) -> Any:
    if name in ("startsGte", "startsLte"):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is None:
            raise Problem.invalid(f"filter.{name}", f"must be a date YYYY-MM-DD, got {value!r}")
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise Problem.invalid(f"filter.{name}", f"is not a calendar date: {value!r}") from None
    if name == "done":
        if value not in ("true", "false"):
            raise Problem.invalid("filter.done", f"must be 'true' or 'false', got {value!r}")
        return value == "true"
    if name == "type" and value not in _OPERATION_TYPES:
        raise Problem.invalid("filter.type", f"must be one of {', '.join(_OPERATION_TYPES)}, got {value!r}")
    return string(value, f"filter.{name}")


# The driver list (public OpenAPI document: maxPageSize 1..50, default 50; filter.active).
DRIVERS_LIST = ListSpec(50, 50, ("active",))
__all__ += ["DRIVERS_LIST"]
