"""The rate limits as data, and where their windows are counted.

- ``_limits.py``: the service's :class:`~route_planning_async.Category` of each
  endpoint, a :class:`~route_planning_async.Rule` (so many requests per period) and
  the :class:`~route_planning_async.RateLimits` of every category;
- ``_limits_file.py``: limits by name (the contract's, unlimited) or read from a
  JSON or TOML file: the command line's ``--limits`` and the emulator's team file;
- ``_backends.py``: the backend contract (:class:`~route_planning_async.RateLimitBackend`),
  the :class:`~route_planning_async.Grant` of one admitted attempt, the default
  :class:`~route_planning_async.InMemoryBackend` and the arithmetic of a learned
  limit that every backend shares (the ``redis`` package's Lua scripts too);
- ``_budgets.py``: which backend holds which budget (one per origin and API key):
  the in-memory backend a process's clients share, and the check that keeps one
  backend to one budget.

Rooms
-----

This room is a floor below the ones that use it: it imports ``_docs``, ``_errors``
and ``_json`` and nothing else of the package. The request's core (``_core``), the
learning law (``_learning/``), the scheduler (``_scheduler/``, which paces requests
by these rules and retries them), the Redis backend (``redis/``), the clients, the
command line and the emulator import it, never the reverse. The scheduler is a room
of its own because it reads ``_core`` and ``_learning/``, which read these rules:
in one room they would make a circle.
"""
