"""The client rooms every API version shares.

- ``_base.py``: :class:`BaseClient`, the session, transport and scheduler, and
  the one seam every request passes (``_send`` / ``_execute``);
- ``_settings.py``: the settings (:class:`ClientSettings`) and their checks;
- ``_resource.py``: :class:`Resource`, the base class of every namespace, and
  :class:`ClientCalls`, what a namespace needs of its client.

A version's client subclasses :class:`BaseClient`, in the version's package.
"""

from route_planning_async._client._base import BaseClient
from route_planning_async._client._resource import ClientCalls, Resource
from route_planning_async._client._settings import API_KEY_ENV, BASE_URL_ENV, CA_FILE_ENV, ClientSettings

__all__ = [
    "API_KEY_ENV",
    "BASE_URL_ENV",
    "CA_FILE_ENV",
    "BaseClient",
    "ClientCalls",
    "ClientSettings",
    "Resource",
]
