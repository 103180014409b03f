"""v1 stops inside a plan, and the stop search (``client.stops``)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Unpack, cast

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import encodable
from route_planning_async._client import stop_path
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import DecodeError, ValidationError
from route_planning_async._namespaces import StopsNamespace
from route_planning_async._pagination import Paginator
from route_planning_async._workflows import LiveEditOptions
from route_planning_async.v1 import search as _search
from route_planning_async.v1._converter import structure_list, unstructure
from route_planning_async.v1._inputs import (
    LiveStopUpdate,
    LiveStopUpdateFields,
    StopInput,
    StopUpdate,
    StopUpdateFields,
)
from route_planning_async.v1._live_edit import LiveEdit, live_edit
from route_planning_async.v1._models import (
    LiveChange,
    Stop,
    StopSearchResult,
    UnassignedStop,
)
from route_planning_async.v1.resources._common import TABLE, V1Client

SearchHit = Stop | UnassignedStop
"""What a stop search yields: a plan's :class:`Stop` or an :class:`UnassignedStop`."""


def _search_hits(data: Any, _: object) -> list[SearchHit]:
    """One page of search items (:class:`StopSearchResult`) as the stops found; an item
    of a kind this library does not know is skipped."""
    found = (result.found for result in structure_list(data, StopSearchResult))
    return [hit for hit in found if hit is not None]


def _search_query(
    keyword: str | None,
    filter: _search.Filter | None,
    sort_field: str | None,
    sort_order: Literal["asc", "desc"] | None,
    max_page_size: int | None,
) -> tuple[tuple[str, str], ...]:
    query: list[tuple[str, str]] = []
    given: object = keyword
    if keyword is not None:
        if not isinstance(given, str) or not 1 <= len(given) <= _search.MAX_KEYWORD_LENGTH:
            rule = f"must be a string of 1 to {_search.MAX_KEYWORD_LENGTH} characters"
            raise ValidationError("keyword", f"{rule}, got {keyword!r}")
        encodable("keyword", keyword)
        query.append(("keyword", keyword))
    text: object = filter
    if filter is not None:
        if not isinstance(text, str | _search.Expression):
            kind = type(text).__name__
            raise ValidationError("filter", f"must be a filter text or a search expression, got {kind}")
        query.append(("filter", _search.filter_text(filter)))
    if max_page_size is not None:
        if isinstance(max_page_size, bool) or not isinstance(max_page_size, int):
            raise ValidationError("max_page_size", f"must be an integer, got {type(max_page_size).__name__}")
        if not 1 <= max_page_size <= _search.MAX_PAGE_SIZE:
            rule = f"must be from 1 to {_search.MAX_PAGE_SIZE}"
            raise ValidationError("max_page_size", f"{rule}, got {max_page_size}")
        query.append(("maxPageSize", str(max_page_size)))
    if sort_field is not None:
        if sort_field not in _search.SORTABLE_FIELDS:
            names = ", ".join(sorted(_search.SORTABLE_FIELDS))
            raise ValidationError("sort_field", f"must be one of {names}, got {sort_field!r}")
        query.append(("sortField", sort_field))
    if sort_order is not None:
        if sort_order not in ("asc", "desc"):
            raise ValidationError("sort_order", f"must be 'asc' or 'desc', got {sort_order!r}")
        query.append(("sortOrder", sort_order))
    return tuple(query)


class Stops(StopsNamespace[V1Client, Stop, StopInput, LiveChange]):
    """v1 stops inside a plan, the live calls and the team-wide search (``client.stops``)."""

    __slots__ = ()

    _table = TABLE

    def _live_edit(
        self, plan_id: str, **options: Unpack[LiveEditOptions]
    ) -> AbstractAsyncContextManager[LiveEdit]:
        client = self._client
        polling = client._with_polling(options)
        return live_edit(client.plans, self, client.operations, plan_id, clock=client._clock, **polling)

    @keywords_documented(keywords_of(StopUpdate, types=StopUpdateFields))
    async def update(
        self, stop_id: str, update: StopUpdate | None = None, /, **fields: Unpack[StopUpdateFields]
    ) -> Stop:
        """Change the fields given; never the address or ``client_id`` (``PATCH``).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.
            update: A :class:`StopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
                is collected.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.
            service_info (ServiceInfoInput | None): The stop's service offering and SLA start; None on an
                update clears both.

        Returns:
            The changed :class:`Stop`.
        """
        body = unstructure(TABLE.update(StopUpdate, update, fields))
        return await self._fetch(self._endpoint("stops.update").request(stop_path(stop_id), json=body), Stop)

    @keywords_documented(keywords_of(LiveStopUpdate, types=LiveStopUpdateFields))
    async def live_update(
        self, stop_id: str, update: LiveStopUpdate | None = None, /, **fields: Unpack[LiveStopUpdateFields]
    ) -> LiveChange:
        """Change a stop of a plan that is not writable (applied as ``live_create`` is).

        Args:
            stop_id: The serialized id ``plans/<planId>/stops/<stopId>``.
            update: A :class:`LiveStopUpdate`; or give its fields as keywords (not both).

        Keyword Args:
            timing (TimingInput | None): Time window and duration.
            recipient (RecipientInput | None): Who receives the packages.
            order_info (OrderInfoInput | None): The order behind the stop.
            payment_on_delivery (PaymentOnDeliveryInput | None): The payment to collect on delivery.
            proof_of_attempt_requirements (ProofOfAttemptRequirementsInput | None): Whether proof of attempt
                is collected.
            allowed_drivers (Iterable[str] | None): At most 100 ``drivers/<id>`` allowed for the stop.
            activity (str | None): ``delivery`` or ``pickup``.
            optimization_order (str | None): ``first``, ``last`` or ``default``.
            package_count (float | None): 1 to 10000 (a number in the official schema).
            weight (WeightInput | None): The weight of the load (needs vehicle capacity on the team).
            notes (str | None): 1 to 2000 characters.
            barcodes (Sequence[str]): At most 200, each 1 to 255 characters; replaces the whole list.
            custom_properties (dict[str, str | None] | None): Values (1 to 255 characters, or None to clear)
                keyed by custom stop property id.

        Returns:
            The :class:`LiveChange`.
        """
        body = unstructure(TABLE.update(LiveStopUpdate, update, fields))
        request = self._endpoint("stops.live_update").request(stop_path(stop_id), json=body)
        return await self._fetch(request, LiveChange)

    def search(
        self,
        *,
        keyword: str | None = None,
        filter: _search.Filter | None = None,
        sort_field: str | None = None,
        sort_order: Literal["asc", "desc"] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[SearchHit]:
        """Search every stop and unassigned stop of the team (``GET /stops:search``, read category).

        The index lags the stops a little: a stop just made may not be found yet.
        ``route_planning_async.v1.search`` builds filters::

            from route_planning_async.v1.search import field

            async for hit in client.stops.search(keyword="london", filter=field("activity") == "pickup"):
                print(hit.id)

        Args:
            keyword: Words matched fuzzily (1 to 255 characters); results by relevance
                unless ``sort_field`` is given.
            filter: A :mod:`~route_planning_async.v1.search` expression or the filter text
                (at most 2,048 characters).
            sort_field: One of ``search.SORTABLE_FIELDS``.
            sort_order: ``"asc"`` (the service's default) or ``"desc"``.
            max_page_size: 1 to 20 hits a page; None: the service's 20.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Stop` and :class:`UnassignedStop`.
        """
        query = _search_query(keyword, filter, sort_field, sort_order, max_page_size)
        endpoint = self._endpoint("stops.search")

        def decode(data: Any, item_type: object) -> list[SearchHit]:
            try:
                return _search_hits(data, item_type)
            except DecodeError as error:
                raise self._named(error, endpoint.request()) from error.__cause__

        item_type = cast(type[SearchHit], Stop)
        return Paginator(
            self._execute_object,
            endpoint,
            item_type,
            "stops",
            decode=decode,
            query=query,
            page_token=page_token,
        )


def _plan(plan_id: str) -> dict[str, str]:
    return {"plan": _ids.plan_id(plan_id)}
