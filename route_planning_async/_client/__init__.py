"""The client rooms every API version shares.

- ``_base.py``: :class:`BaseClient`, the session, transport and scheduler, and
  the one seam every request passes (``_send`` / ``_execute``);
- ``_settings.py``: the settings (:class:`ClientSettings`) and their checks;
- ``_namespace.py``: :class:`Namespace`, the base class of every namespace
  (sending through a version's :class:`VersionTable`), :class:`ClientCalls`,
  what a namespace needs of its client, and the checks every version's methods
  share (:func:`checked`, :func:`update_body`, :func:`plan_path`,
  :func:`stop_path`);
- ``_raw.py``: :class:`RawNamespace`, ``client.raw`` of every version (any
  endpoint, answered undecoded).

A version's client subclasses :class:`BaseClient`, in the version's package.
"""

from route_planning_async._client._base import BaseClient
from route_planning_async._client._namespace import (
    NOT_UPDATABLE,
    ClientCalls,
    Namespace,
    SerializedIdCalls,
    VersionTable,
    by_serialized_id,
    checked,
    plan_path,
    stop_path,
    update_body,
)
from route_planning_async._client._raw import Query, RawNamespace
from route_planning_async._client._settings import (
    API_KEY_ENV,
    BASE_URL_ENV,
    CA_FILE_ENV,
    LIMITS_ENV,
    ClientSettings,
)

__all__ = [
    "API_KEY_ENV",
    "BASE_URL_ENV",
    "CA_FILE_ENV",
    "LIMITS_ENV",
    "NOT_UPDATABLE",
    "BaseClient",
    "ClientCalls",
    "ClientSettings",
    "Namespace",
    "Query",
    "RawNamespace",
    "SerializedIdCalls",
    "VersionTable",
    "by_serialized_id",
    "checked",
    "plan_path",
    "stop_path",
    "update_body",
]
