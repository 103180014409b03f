"""The team's depots (``client.depots``): the reads every version has alike.

A version's ``Depots`` names its depot model as the type parameter
(``DepotsReadNamespace[Client, Depot]``); v1 adds its writes and import.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from route_planning_async._checks import _ids
from route_planning_async._client import ClientCalls, Namespace
from route_planning_async._pagination import Paginator

ClientT = TypeVar("ClientT", bound=ClientCalls)
ModelT = TypeVar("ModelT")

__all__ = ["DepotsReadNamespace"]


class DepotsReadNamespace(Namespace[ClientT], Generic[ClientT, ModelT]):
    """The team's depots, read (``client.depots``); v1 adds its writes and import."""

    __slots__ = ()

    _typed = ("_model",)
    _model: type[ModelT]

    def list(self, *, max_page_size: int | None = None, page_token: str | None = None) -> Paginator[ModelT]:
        """Every depot, lazily.

        Args:
            max_page_size: Items per page (1..20, public API documentation); None: the service's default.
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
        """
        return self._paginate(
            "depots.list", self._model, "depots", max_page_size=max_page_size, page_token=page_token
        )

    async def get(self, depot_id: str) -> ModelT:
        """One depot.

        Args:
            depot_id: ``depots/<id>`` or ``<id>``.

        Returns:
            The :class:`Depot`.
        """
        path = {"depot": _ids.depot_id(depot_id)}
        return await self._fetch(self._endpoint("depots.get").request(path), self._model)
