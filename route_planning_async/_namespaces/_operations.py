"""Long-running optimizations (``client.operations``): get, list, cancel, wait, wait_many.

The same calls, models and shapes in every version; only the endpoint table and
converter differ (the version's ``_table``).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterable, Mapping
from typing import TypeVar, Unpack

from route_planning_async._checks import _ids
from route_planning_async._client import ClientCalls, Namespace
from route_planning_async._client._filters import operation_filter
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._models import Operation
from route_planning_async._operations import (
    ManyPolling,
    Polling,
    PollOptions,
    WaitManyOptions,
    wait,
    wait_many,
)
from route_planning_async._pagination import FilterValue, Paginator

ClientT = TypeVar("ClientT", bound=ClientCalls)

__all__ = ["OperationsNamespace"]


class OperationsNamespace(Namespace[ClientT]):
    """Long-running optimizations (``client.operations``)."""

    __slots__ = ()

    async def get(self, operation_id: str) -> Operation:
        """One operation; poll it until ``done``.

        Args:
            operation_id: ``operations/<id>`` or ``<id>``.

        Returns:
            The :class:`Operation`.
        """
        path = {"operation": _ids.operation_id(operation_id)}
        return await self._fetch(self._endpoint("operations.get").request(path), Operation)

    async def cancel(self, operation_id: Operation | str) -> Operation:
        """Cancel an operation that is not done yet.

        Not in the contract; the public API documentation's ``POST
        /operations/<id>:cancel`` (write category).

        Args:
            operation_id: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Returns:
            The :class:`Operation`, ``metadata.canceled`` set.

        Raises:
            ConflictError: The operation is already done (409 ``operation_already_done``).
        """
        given = operation_id.id if isinstance(operation_id, Operation) else operation_id
        path = {"operation": _ids.operation_id(given)}
        return await self._fetch(self._endpoint("operations.cancel").request(path), Operation)

    def list(
        self,
        *,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[Operation]:
        """The team's operations, lazily (read category, one request per page).

        The contract does not show this call; it follows the public API
        documentation: ``GET /operations``; the answer is ``{operations,
        nextPageToken}``. The documentation gives no order, so do not rely on one::

            running = client.operations.list(filter={"done": False, "type": "plan_optimization"})
            async for operation in running:
                print(operation.metadata.target_plan_id)

        Args:
            filter: ``done`` (``True`` or ``False``, sent as ``"true"``/``"false"``)
                and ``type`` (``"plan_optimization"``); other names are refused.
            max_page_size: Items per page (1..20); None: the service's default (20).
            page_token: Start from this page (a ``next_page_token`` of an earlier page); None: the first page.

        Returns:
            A :class:`Paginator`: iterate it with ``async for`` (one request per page, made
            lazily), or call ``collect()`` or ``pages()``.
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
        """Poll one operation until it is finished.

        The delay between polls starts at ``poll_interval`` and grows up to ``max_poll_interval``.

        Args:
            operation: The :class:`Operation`, or ``operations/<id>`` or ``<id>``.

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
                Default None.
            poll_interval (float): Seconds before the first poll; the delay grows after each poll. Default
                1.0.
            max_poll_interval (float): The cap of the growing delay between two polls. Default 15.0, or
                ``poll_interval`` when that is longer.
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``); otherwise the operation goes on. Default False.

        Returns:
            The finished :class:`Operation`.

        Raises:
            OptimizationFailedError: The result is a failure (``code``, ``message``).
            OperationCanceledError: ``metadata.canceled`` is set.
            OperationTimeoutError: It was not finished after ``timeout`` seconds.
        """
        return await wait(self, operation, clock=self._client._clock, **self._client._with_polling(options))

    @keywords_documented(keywords_of(ManyPolling, defaults=True))
    def wait_many(
        self, operations: Iterable[Operation | str], **options: Unpack[WaitManyOptions]
    ) -> AsyncGenerator[Operation, None]:
        """Yield operations as they finish, from one shared poll loop.

        The loop polls the unfinished operations in turn, within ``read_share`` of
        the read category's rate, so waiting on many leaves room for other reads.

        Args:
            operations: :class:`Operation` objects or their ids.

        Keyword Args:
            timeout (float | None): Seconds before :class:`OperationTimeoutError`; None waits for ever.
                Default None.
            poll_interval (float): Seconds before the first poll; the delay grows after each poll. Default
                1.0.
            max_poll_interval (float): The cap of the growing delay between two polls. Default 15.0, or
                ``poll_interval`` when that is longer.
            cancel_on_timeout (bool): On :class:`OperationTimeoutError`, cancel the operation on the service
                too (``operations.cancel``; not in the contract, the public API documentation's
                ``:cancel``); otherwise the operation goes on. Default False.
            read_share (float): The share (0 < share <= 1) of the read category's rate the poll loop may
                use. Default 0.5.
            raise_on_failure (bool): Raise at the first failed or canceled operation instead of yielding it.
                Default False.

        Yields:
            Each operation once it is finished, in the order they finish.

        Raises:
            OperationTimeoutError: Some operation was not finished after ``timeout`` seconds.
            OptimizationFailedError: With ``raise_on_failure=True``, at the first failed operation.
            OperationCanceledError: With ``raise_on_failure=True``, at the first canceled operation.
        """
        client = self._client
        return wait_many(
            self, operations, clock=client._clock, limits=client.rate_limits, **client._with_polling(options)
        )
