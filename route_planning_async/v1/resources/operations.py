"""v1 operations (``client.operations``)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterable, Mapping
from typing import Unpack

from route_planning_async import _ids
from route_planning_async._client._filters import operation_filter
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._operations import (
    ManyPolling,
    Polling,
    PollOptions,
    WaitManyOptions,
    wait,
    wait_many,
)
from route_planning_async._pagination import FilterValue, Paginator
from route_planning_async.v1._endpoints import ENDPOINTS
from route_planning_async.v1._models import Operation
from route_planning_async.v1.resources._common import V1Resource


class Operations(V1Resource):
    """v1 long-running optimizations (``client.operations``); waiting on them is the
    shared ``_operations.py``, on the client's read budget."""

    __slots__ = ()

    async def get(self, operation_id: str) -> Operation:
        """Read one operation (``GET /operations/<id>``).

        Args:
            operation_id: ``operations/<id>`` or ``<id>``.

        Returns:
            The :class:`Operation`.
        """
        return await self._fetch(ENDPOINTS["operations.get"].request(_path(operation_id)), Operation)

    async def cancel(self, operation_id: Operation | str) -> Operation:
        """Cancel an operation that is still running (``:cancel``, write category).

        Args:
            operation_id: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Returns:
            The :class:`Operation`, ``metadata.canceled`` set.

        Raises:
            ConflictError: It is done already (409 ``operation_already_done``).
        """
        given = operation_id.id if isinstance(operation_id, Operation) else operation_id
        return await self._fetch(ENDPOINTS["operations.cancel"].request(_path(given)), Operation)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Operation]:
        """The team's operations, page by page (``GET /operations``; no order is promised).

        Args:
            filter: ``done`` (True or False) and ``type`` (``"plan_optimization"``).
            max_page_size: 1 to 20 a page; None: the service's 20.
            page_token: Resume from a ``next_page_token``; None: from the start.

        Returns:
            A lazy :class:`Paginator` of :class:`Operation`.
        """
        return self._paginate(
            "operations.list",
            Operation,
            "operations",
            filter=operation_filter(filter),
            max_page_size=max_page_size,
            page_token=page_token,
        )

    @keywords_documented(keywords_of(Polling, defaults=True))
    async def wait(self, operation: Operation | str, **options: Unpack[PollOptions]) -> Operation:
        """Poll one operation until it is finished, backing off from ``poll_interval``.

        Args:
            operation: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: It failed.
            OperationCanceledError: It was canceled.
            OperationTimeoutError: Not finished within ``timeout`` seconds.
        """
        return await wait(self, operation, clock=self._client._clock, **options)

    @keywords_documented(keywords_of(ManyPolling, defaults=True))
    def wait_many(
        self, operations: Iterable[Operation | str], **options: Unpack[WaitManyOptions]
    ) -> AsyncGenerator[Operation, None]:
        """Yield operations as they finish, from one poll loop within ``read_share`` of the reads.

        Args:
            operations: :class:`Operation` objects or their ids.

        Yields:
            Each operation once finished, in the order they finish.

        Raises:
            OperationTimeoutError: One was not finished within ``timeout`` seconds.
            OptimizationFailedError: With ``raise_on_failure=True``, the first failure.
            OperationCanceledError: With ``raise_on_failure=True``, the first cancel.
        """
        client = self._client
        return wait_many(self, operations, clock=client._clock, limits=client.rate_limits, **options)


def _path(operation_id: str) -> dict[str, str]:
    return {"operation": _ids.operation_id(operation_id)}
