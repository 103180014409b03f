"""What the namespaces that start workflows need of their client.

Plans, stops and unassigned stops hand the workflows (optimize and wait, live
editing, the live import) the namespaces they call, read from their client.
"""

from __future__ import annotations

from typing import Any, Protocol

from route_planning_async._client import ClientCalls

__all__ = ["NamespaceClient"]


class NamespaceClient(ClientCalls, Protocol):
    """What these namespaces need of their client: the namespaces the workflows call."""

    @property
    def plans(self) -> Any: ...
    @property
    def stops(self) -> Any: ...
    @property
    def operations(self) -> Any: ...
