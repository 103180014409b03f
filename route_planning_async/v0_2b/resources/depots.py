"""Depots (``client.depots``)."""

from __future__ import annotations

from route_planning_async import _ids
from route_planning_async._pagination import Paginator
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b._models import (
    Depot,
)
from route_planning_async.v0_2b.resources._common import _Resource


class Depots(_Resource):
    """The team's depots, read only (``client.depots``)."""

    __slots__ = ()

    def list(self, *, max_page_size: int | None = None, page_token: str | None = None) -> Paginator[Depot]:
        """Every depot, lazily.

        Args:
            max_page_size: Items per page (1..20, public API documentation); None: the service's default.
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "depots.list", Depot, "depots", max_page_size=max_page_size, page_token=page_token
        )

    async def get(self, depot_id: str) -> Depot:
        """One depot.

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.

        Returns:
            The :class:`Depot`.
        """
        path = {"depot": _ids.depot_id(depot_id)}
        return await self._fetch(ENDPOINTS["depots.get"].request(path), Depot)
