"""The rate-limit scheduler: every request waits here for capacity in its category.

- ``_clock.py``: the :class:`Clock` every wait runs on;
- ``_lane.py``: one category's line in front of the backend, and the design
  (the safety argument, latency, queueing, 429s) in its docstring;
- ``_line.py``, ``_anchor.py``, ``_gate.py``, ``_wake.py``, ``_level_log.py``,
  ``_shared_factor.py``: a lane's parts (its FIFO line, where its answered slots
  are anchored, the gate that paces a first contact or a raise by answers, its
  head's sleep that a poke cuts short, its log of the learned level, and what the
  backend keeps of its category for every process sharing it); what the level
  is, the learning law decides (``_learning/``);
- ``_scheduler.py``: the :class:`Scheduler`, which runs a request through its
  lane and retries it;
- ``_retry.py``: the :class:`~route_planning_async.RetryPolicy`, every rule of
  which outcome is retried, how often and after how long;
- ``_stats.py``: the per-category counters ``client.stats`` answers.

Rooms
-----

The rules and the backend contract are the floor below (``_rate_limits/``: the
limits as data, and what a backend keeps for each category and how a shared one
behaves); the scheduler asks them, never the reverse. It also imports the
request's core (``_core``), the learning law (``_learning/``), ``_errors`` and
``_docs``; the clients, the importer and the workflows import it. Every wait runs on the
scheduler's :class:`Clock` (``Scheduler.clock``), so the workflows that poll
can wait on the same clock and a test can drive it all in virtual time.
"""

from route_planning_async._scheduler._clock import Clock, LoopClock
from route_planning_async._scheduler._lane import Send
from route_planning_async._scheduler._scheduler import Scheduler

__all__ = ["Clock", "LoopClock", "Scheduler", "Send"]
