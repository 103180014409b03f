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

This room knows no API version: the version's namespace hands in the list's
endpoint (a :class:`ListEndpoint`, whose ``max_page_size`` bounds a page), how
its filter names are spelt on the wire, and how its items are decoded
(the version's ``_endpoints.py`` and ``_converter.py``; the namespaces'
``_paginate`` in ``_client/_namespace.py`` does this).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Mapping
from contextlib import aclosing
from typing import Any, Generic, Protocol, TypeVar

import attrs

from route_planning_async._checks._validators import encodable
from route_planning_async._core import Request
from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import RoutePlanningError, ValidationError

__all__ = [
    "FilterCheck",
    "FilterValue",
    "ListEndpoint",
    "Page",
    "Paginator",
    "check_page_token",
    "list_query",
]

T = TypeVar("T")

FilterValue = str | int | bool | datetime.date
"""What a filter value may be: strings, numbers, booleans and dates."""

_FILTER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# The text filters of the public API documentation (title, externalId) take 1 to 255 characters.
_FILTER_TEXT_MAX = 255

FilterCheck = Callable[[str, object], None]
"""A filter's check of its value: given the field (``filter[startsGte]``) and the value,
raises :class:`ValidationError` when the list does not take it."""


class ListEndpoint(Protocol):
    """What pagination needs of a list endpoint of the version's endpoint table."""

    @property
    def name(self) -> str:
        """The method that calls it, as ``resource.method``."""

    @property
    def method(self) -> str:
        """HTTP method."""

    @property
    def template(self) -> str:
        """Path below the base URL, with ``{placeholders}``."""

    @property
    def max_page_size(self) -> int | None:
        """Largest ``maxPageSize`` (the smallest is 1); None for a list that takes no page size."""

    @property
    def max_page_token(self) -> int | None:
        """Longest page token in characters (the shortest is 1); None: no bound."""

    def request(
        self, path: Mapping[str, str] | None = None, *, query: Iterable[tuple[str, str]] = ()
    ) -> Request:
        """The request of one page."""


def check_page_token(value: object, field: str = "page_token", max_length: int | None = 255) -> str:
    """A page token: a string of 1 to ``max_length`` characters (contract, Pagination; None: any
    length, as v1's ``stops:search``) that UTF-8 can carry."""
    if not isinstance(value, str) or not 1 <= len(value) <= (max_length or len(value)):
        length = f"{len(value)} characters" if isinstance(value, str) else type(value).__name__
        bound = f"1 to {max_length} characters" if max_length else "at least 1 character"
        raise ValidationError(field, f"must be a string of {bound}, got {length}")
    encodable(field, value)
    return value


def _shown(token: object) -> str:
    """A token for a message: only its start when it is long."""
    if isinstance(token, str) and len(token) > 40:
        return f"{token[:20]!r}... ({len(token)} characters)"
    return repr(token)


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
        if len(value) > _FILTER_TEXT_MAX:
            raise ValidationError(field, f"must be at most {_FILTER_TEXT_MAX} characters, got {len(value)}")
        encodable(field, value)
        return value
    raise ValidationError(field, f"must be a non-empty string, a number, a boolean or a date, got {value!r}")


def list_query(
    endpoint: ListEndpoint,
    *,
    filter_name: Callable[[str], str],
    filter: Mapping[str, FilterValue] | None = None,
    max_page_size: int | None = None,
    filters: Mapping[str, FilterCheck] | None = None,
) -> tuple[tuple[str, str], ...]:
    """The checked query of a list request, without its page token.

    Args:
        endpoint: The list's endpoint; its ``max_page_size`` bounds ``max_page_size``.
        filter_name: A filter's name as the API spells it, from the name given:
            a version may take ``startsGte`` or ``starts_gte`` alike, and send both
            as ``filter[startsGte]``.
        filter: The filters by name; None: no filter.
        max_page_size: Items per page; None: the service's default.
        filters: The filters the list takes, by the API's name, each with the check of
            its value; None: any name (a list whose documented filter is open).

    Returns:
        The query's parameters in the order they are sent.

    Raises:
        ValidationError: A filter or the page size is not one the list takes.
    """
    query: list[tuple[str, str]] = []
    if max_page_size is not None:
        largest = endpoint.max_page_size
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
            api_name = filter_name(name)
            field = f"filter[{api_name}]"
            if any(sent == field for sent, _ in query):
                rule = f"{api_name} is given twice (as {name!r} and another spelling)"
                raise ValidationError("filter", rule)
            if filters is not None:
                check = filters.get(api_name)
                if check is None:
                    names = ", ".join(filters)
                    raise ValidationError("filter", f"this list filters on {names} only, got {name!r}")
                check(field, value)
            query.append((field, _filter_value(api_name, value)))
    return tuple(query)


@fields_documented(title="Attributes")
@attrs.frozen
class Page(Generic[T]):
    """One page of a list.

    Attributes:
        items (list[T]): The resources of this page.
        next_page_token (str | None): The token of the next page; None on the last page.
    """

    items: list[T] = attrs.field(metadata=described("The resources of this page."))
    next_page_token: str | None = attrs.field(
        metadata=described("The token of the next page; None on the last page.")
    )


class Paginator(Generic[T]):
    """The pages of one list request, fetched lazily.

    Made by the resources' ``list`` methods; iterate it with ``async for``,
    walk ``pages()``, or ``await collect()``. Each iteration starts again from
    the first page.
    """

    def __init__(
        self,
        execute: Callable[[Request], Awaitable[Mapping[str, Any]]],
        endpoint: ListEndpoint,
        item_type: type[T],
        key: str,
        *,
        decode: Callable[[Any, type[T]], list[T]],
        path: Mapping[str, str] | None = None,
        query: tuple[tuple[str, str], ...] = (),
        page_token: str | None = None,
    ) -> None:
        """Made by the resources' ``list`` methods; not meant to be built by hand.

        Args:
            execute: Sends one request and returns its answer, a JSON object.
            endpoint: The list call's endpoint, e.g. the endpoint table's ``plans.list``.
            item_type: The model of each item.
            key: The answer's field that holds the items, e.g. ``"plans"``.
            decode: Decodes the items of one page as ``item_type`` (the version's
                ``structure_list``); raises :class:`DecodeError`.
            path: The path's parameters (e.g. the plan of a stop list).
            query: The query of every page (filters, page size); ``pageToken`` is added.
            page_token: The first page's token; None: the first page.
        """
        self._execute = execute
        self._endpoint = endpoint
        self._item_type = item_type
        self._decode = decode
        self._key = key
        self._path = dict(path or {})
        self._query = query
        self._first_token = (
            None if page_token is None else check_page_token(page_token, max_length=endpoint.max_page_token)
        )

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
            items = self._decode(data.get(self._key) or [], self._item_type)
            next_token = data.get("nextPageToken")
            if next_token is not None:
                try:
                    check_page_token(next_token, "nextPageToken", self._endpoint.max_page_token)
                except ValidationError as error:
                    raise RoutePlanningError(
                        f"{self._endpoint.name}: the service sent an unusable page token "
                        f"{_shown(next_token)}: {error.field} {error.rule}"
                    ) from None
                if next_token in sent or next_token == token:
                    # The same token again would loop forever.
                    raise RoutePlanningError(
                        f"{self._endpoint.name}: the service sent page token {_shown(next_token)} twice"
                    )
            yield Page(items, next_token)
            if next_token is None:
                return
            if token is not None:
                sent.add(token)
            token = next_token

    async def __aiter__(self) -> AsyncGenerator[T, None]:
        async with aclosing(self.pages()) as pages:
            async for page in pages:
                for item in page.items:
                    yield item

    async def collect(self) -> list[T]:
        """Every item of every page, in one list."""
        return [item async for item in self]
