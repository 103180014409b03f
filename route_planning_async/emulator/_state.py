"""The emulator's state: one object that holds the records and every rule that changes them.

Handlers in ``_handlers.py`` parse and validate; everything that changes data happens
in :class:`EmulatorState`, so tests can drive it directly through ``emu.state``.
Bodies are kept in their JSON form, so reads cost a copy.

It is put together from rooms that each hold one concept, lowest first:

- ``_records.py``: the stored records (plans, stops, unassigned stops, routes,
  operations, pending live changes);
- ``_bodies.py``: stop bodies in their JSON form, built, patched and echoed;
- ``_store.py``: :class:`Store`, the collections, ids, lookups and guards;
- ``_edits.py``: :class:`Edits`, the plain writes to plans, stops and unassigned stops;
- ``_lifecycle.py``: :class:`Lifecycle`, live changes, optimization operations,
  save and distribution (the plan state machine);
- ``_views.py``: :class:`Views`, the JSON answers built from the records;
- ``_drivers.py``: :class:`TeamDrivers`, the team's drivers as the public API
  documentation serves them (list, create, change, remove, import).
"""

from __future__ import annotations

from route_planning_async.emulator._drivers import TeamDrivers
from route_planning_async.emulator._lifecycle import Lifecycle
from route_planning_async.emulator._views import Views

__all__ = ["EmulatorState"]


class EmulatorState(TeamDrivers, Lifecycle, Views):
    """Everything the emulator knows: plans, stops, unassigned stops, routes, operations, drivers.

    All methods run on the event loop thread; none of them awaits, so each call is atomic.
    """
