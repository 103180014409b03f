"""v1 routes (``client.routes``): list, read, and a route's stops."""

from __future__ import annotations

from collections.abc import Mapping

from route_planning_async._checks import _ids
from route_planning_async._client._filters import STOP_FILTERS
from route_planning_async._namespaces import RoutesNamespace
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async.v1._models import Route, Stop
from route_planning_async.v1.resources._common import TABLE, V1Client


class Routes(RoutesNamespace[V1Client]):
    """v1 routes of the team's optimized plans, read only (``client.routes``)."""

    __slots__ = ()

    _table = TABLE

    def list(self, *, max_page_size: int | None = None, page_token: str | None = None) -> Paginator[Route]:
        """Every route of the team, page by page (``GET /routes``).

        Args:
            max_page_size: 1 to 20 a page; None: the service's default.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Route`.
        """
        return self._paginate(
            "routes.list", Route, "routes", max_page_size=max_page_size, page_token=page_token
        )

    def list_stops(
        self,
        route_id: str,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Stop]:
        """A route's stops, page by page (``GET /routes/<id>/stops``).

        Args:
            route_id: ``routes/<id>`` or ``<id>``.
            filter: ``{"external_id": ...}`` (an exact match; not the search language); no
                other filter.
            max_page_size: 1 to 10 a page; None: the service's default.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Stop`.
        """
        return self._paginate(
            "routes.list_stops",
            Stop,
            "stops",
            path=_path(route_id),
            filter=filter,
            filters=STOP_FILTERS,
            max_page_size=max_page_size,
            page_token=page_token,
        )


def _path(route_id: str) -> dict[str, str]:
    return {"route": _ids.route_id(route_id)}
