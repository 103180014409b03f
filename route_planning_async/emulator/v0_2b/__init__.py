"""The emulator's v0.2b: the route table, request rules, views and handlers of that version.

The store, the plan lifecycle, the limits, the faults and the server are shared by
every version; this package holds what v0.2b alone decides, as :data:`V0_2B`:

- ``_routes.py``: the base path (``/public/v0.2b``) and the route table;
- ``_requests.py``: the request rules: stop, plan, re-optimization and driver
  bodies, and the page sizes and filters of the lists;
- ``_views.py``: the JSON answers, in the official schema's shapes;
- ``_handlers.py``: one handler per endpoint.
"""

from __future__ import annotations

from typing import Final

from route_planning_async._versions import V0_2B as REGISTERED
from route_planning_async.emulator._wire._api import served_version
from route_planning_async.emulator.v0_2b._handlers import Handlers
from route_planning_async.emulator.v0_2b._routes import BASE_PATH, ROUTE_TABLE, ROUTES
from route_planning_async.emulator.v0_2b._views import Views

__all__ = ["BASE_PATH", "ROUTES", "V0_2B"]

V0_2B: Final = served_version(REGISTERED.name, BASE_PATH, ROUTE_TABLE, Handlers, Views)
"""The v0.2b API, as the emulator serves it."""
