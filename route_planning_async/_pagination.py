"""Lazy pagination of the list endpoints.

The contract's Pagination section: a list answer carries ``nextPageToken``;
while it is not null the same request is repeated with ``pageToken`` set to it
and *all the original query parameters unchanged*. :class:`Paginator` does
exactly that, one page at a time, only as far as the caller iterates::

    async for plan in client.plans.list(filter={"title": "Monday"}):
        print(plan.id, plan.starts)
    async for page in client.stops.list(plan_id).pages():
        print(len(page.items), page.next_page_token)
    stops = await client.stops.list(plan_id).collect()

Filters are sent as ``filter[name]=value`` (dates as ``YYYY-MM-DD``); the query
is checked when the paginator is made, so a bad one fails before anything is sent.
The largest ``maxPageSize`` of each list is in the endpoint table
(``Endpoint.max_page_size`` in ``_endpoints.py``).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

import attrs

from route_planning_async._converter import camel_case
from route_planning_async._core import Request
from route_planning_async._errors import RoutePlanningError, ValidationError
from route_planning_async.v0_2b._converter import structure_list
from route_planning_async.v0_2b._endpoints import ENDPOINTS

__all__ = ["FilterValue", "Page", "Paginator", "check_page_token", "list_query"]

T = TypeVar("T")

FilterValue = str | int | bool | datetime.date
"""What a filter value may be: strings, numbers, booleans and dates."""

_FILTER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def check_page_token(value: object, field: str = "page_token") -> str:
    """A page token: a string of 1 to 255 characters (contract, Pagination)."""
    if not isinstance(value, str) or not 1 <= len(value) <= 255:
        length = f"{len(value)} characters" if isinstance(value, str) else type(value).__name__
        raise ValidationError(field, f"must be a string of 1 to 255 characters, got {length}")
    return value


def _filter_value(name: str, value: object) -> str:
    field = f"filter[{name}]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime):
        raise ValidationError(field, "must be a datetime.date (YYYY-MM-DD), not a datetime")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value:
        return value
    raise ValidationError(field, f"must be a non-empty string, a number, a boolean or a date, got {value!r}")


def list_query(
    endpoint: str,
    *,
    filter: Mapping[str, FilterValue] | None = None,
    max_page_size: int | None = None,
) -> tuple[tuple[str, str], ...]:
    """The checked query of a list request, without its page token.

    Filter names may be given as the API spells them (``startsGte``) or in
    snake_case (``starts_gte``); both are sent as ``filter[startsGte]``.
    """
    query: list[tuple[str, str]] = []
    if max_page_size is not None:
        largest = ENDPOINTS[endpoint].max_page_size
        if largest is None:
            raise ValidationError("max_page_size", "this list takes no page size")
        if isinstance(max_page_size, bool) or not isinstance(max_page_size, int):
            raise ValidationError("max_page_size", f"must be an integer, got {type(max_page_size).__name__}")
        if not 1 <= max_page_size <= largest:
            raise ValidationError("max_page_size", f"must be from 1 to {largest}, got {max_page_size}")
        query.append(("maxPageSize", str(max_page_size)))
    if filter is not None:
        if not isinstance(filter, Mapping):
            raise ValidationError(
                "filter", f"must be a mapping of name to value, got {type(filter).__name__}"
            )
        entries: Iterable[tuple[object, object]] = filter.items()
        for name, value in entries:
            if not isinstance(name, str) or _FILTER_NAME.fullmatch(name) is None:
                raise ValidationError("filter", f"names must be letters, digits and '_', got {name!r}")
            api_name = camel_case(name)
            query.append((f"filter[{api_name}]", _filter_value(api_name, value)))
    return tuple(query)


@attrs.frozen
class Page(Generic[T]):
    """One page of a list."""

    items: list[T]
    """The resources of this page."""
    next_page_token: str | None
    """The token of the next page; None on the last page."""


class Paginator(Generic[T]):
    """The pages of one list request, fetched lazily.

    Made by the resources' ``list`` methods; iterate it with ``async for``,
    walk ``pages()``, or ``await collect()``. Each iteration starts again from
    the first page.
    """

    def __init__(
        self,
        execute: Callable[[Request], Awaitable[Any]],
        endpoint: str,
        item_type: type[T],
        key: str,
        *,
        path: Mapping[str, str] | None = None,
        query: tuple[tuple[str, str], ...] = (),
        page_token: str | None = None,
    ) -> None:
        """Made by the resources' ``list`` methods; not meant to be built by hand.

        Args:
            execute: Sends one request and returns its decoded JSON (the client's).
            endpoint: The endpoint table's name of the list call, e.g. ``"plans.list"``.
            item_type: The model of each item.
            key: The answer's field that holds the items, e.g. ``"plans"``.
            path: The path's parameters (e.g. the plan of a stop list).
            query: The query of every page (filters, page size); ``pageToken`` is added.
            page_token: The first page's token; None: the first page.
        """
        self._execute = execute
        self._endpoint = ENDPOINTS[endpoint]
        self._item_type = item_type
        self._key = key
        self._path = dict(path or {})
        self._query = query
        self._first_token = None if page_token is None else check_page_token(page_token)

    def __repr__(self) -> str:
        return f"<Paginator {self._endpoint.name} of {self._item_type.__name__} query={self._query!r}>"

    def _request(self, page_token: str | None) -> Request:
        # Every page repeats the original query unchanged; only pageToken is added.
        query = self._query if page_token is None else (*self._query, ("pageToken", page_token))
        return self._endpoint.request(self._path, query=query)

    async def pages(self) -> AsyncGenerator[Page[T], None]:
        """Every page in order, following ``nextPageToken`` until it is null.

        Stopping early (``break``) leaves the generator suspended; close it with
        :func:`contextlib.aclosing` to end it at once.
        """
        token = self._first_token
        sent: set[str] = set()
        while True:
            data = await self._execute(self._request(token))
            if not isinstance(data, Mapping):
                raise RoutePlanningError(
                    f"{self._endpoint.method} {self._endpoint.template}: expected a JSON object"
                )
            try:
                items = structure_list(data.get(self._key) or [], self._item_type)
            except (KeyError, TypeError, ValueError) as exc:
                raise RoutePlanningError(
                    f"{self._endpoint.name}: a list entry does not have the shape of "
                    f"{self._item_type.__name__}: {exc!r}"
                ) from exc
            next_token = data.get("nextPageToken")
            if next_token is not None:
                if not isinstance(next_token, str) or not 1 <= len(next_token) <= 255:
                    raise RoutePlanningError(
                        f"{self._endpoint.name}: the service sent an unusable page token {next_token!r}"
                    )
                if next_token in sent or next_token == token:
                    # The same token again would loop forever.
                    raise RoutePlanningError(
                        f"{self._endpoint.name}: the service sent page token {next_token!r} twice"
                    )
            yield Page(items, next_token)
            if next_token is None:
                return
            if token is not None:
                sent.add(token)
            token = next_token

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.items:
                yield item

    async def collect(self) -> list[T]:
        """Every item of every page, in one list."""
        return [item async for item in self]
