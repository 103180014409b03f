"""The emulator's state: one object that holds the records and every rule that changes them.

Handlers (one set per API version, e.g. ``v0_2b/_handlers.py``) parse and validate;
everything that changes data happens in :class:`EmulatorState`, so tests can drive
it directly through ``emu.state``. It knows no API version: each version's views
render its answers from the records. Bodies are kept in their JSON form, so reads
cost a copy.

It is put together from rooms that each hold one concept, lowest first:

- ``_store/_records.py``: the stored records (plans, stops, unassigned stops, routes,
  operations, pending live changes);
- ``_store/_bodies.py``: stop bodies in their stored JSON form, built and patched;
- ``_store/_store.py``: :class:`Store`, the collections, ids, lookups and guards, and
  how a batch import stores what it can;
- ``_edits.py``: :class:`Edits`, the plain writes to plans, stops and unassigned stops;
- ``_live.py``: :class:`LiveEdits`, the live changes of an optimized plan's stops;
- ``_optimizations.py``: :class:`Optimizations`, the optimization operations
  (start, finish, cancel, list);
- ``_lifecycle.py``: :class:`Lifecycle`, save and distribution: the plan state machine;
- ``_drivers.py``: :class:`TeamDrivers`, the team's drivers, changeable as the
  public API documentation allows (create, change, remove, import);
- ``_depots.py``: :class:`TeamDepots`, the team's depots, changeable as v1 allows
  (create, change, remove, make main, import), and which drivers share a depot;
- ``_members.py``: :class:`TeamMembers`, the team's members (v1).
"""

from __future__ import annotations

from route_planning_async.emulator._service._depots import TeamDepots
from route_planning_async.emulator._service._drivers import TeamDrivers
from route_planning_async.emulator._service._lifecycle import Lifecycle
from route_planning_async.emulator._service._members import TeamMembers

__all__ = ["EmulatorState"]


class EmulatorState(TeamDrivers, TeamDepots, TeamMembers, Lifecycle):
    """Everything the emulator knows: plans, stops, unassigned stops, routes, operations, drivers,
    depots, members.

    All methods run on the event loop thread; none of them awaits, so each call is atomic.
    """
