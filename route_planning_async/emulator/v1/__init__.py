"""The emulator's v1: the route table, request rules, views and handlers of that version.

v1 is served from the same store as v0.2b (a plan made through one is read through
the other); this package holds what v1 alone decides, as :data:`V1`:

- ``_routes.py``: the base path (``/public/v1``) and the route table (52 endpoints);
- ``_requests.py``: the request rules: v1's stop fields, plan route overrides,
  depots, members, and the route lists;
- ``_views.py``: the JSON answers, in the v1 document's shapes, rendered from the
  stored records;
- ``_handlers.py``: v1's handlers (the depot rule, depots, members, routes, search);
- ``_search.py``: the stop search: the filter language's parser, keyword match and sort.
"""

from __future__ import annotations

from typing import Final

from route_planning_async._versions import V1 as REGISTERED
from route_planning_async.emulator._wire._api import served_version
from route_planning_async.emulator.v1._handlers import Handlers
from route_planning_async.emulator.v1._routes import BASE_PATH, ROUTE_TABLE, ROUTES
from route_planning_async.emulator.v1._views import Views

__all__ = ["BASE_PATH", "ROUTES", "V1"]

V1: Final = served_version(REGISTERED.name, BASE_PATH, ROUTE_TABLE, Handlers, Views)
"""The v1 API, as the emulator serves it."""
