"""Learning the service's real limit: the control law of ``docs/learning.md``, in one room.

- ``_policy.py``: :class:`LearningPolicy`, the law's five numbers, as data;
- ``_law.py``: a category's :class:`Estimate` (its one record), the :class:`Law` with one
  entry point per event, and the :class:`Action` each answers for the lane to apply;
- ``_windows.py``: the long-window rule (longer rules paced by shorter ones).

The scheduler's lanes (``_scheduler/_lane.py``) report the events and apply the
actions through the backend; the backend keeps the level for every process sharing
it, and an :class:`~route_planning_async.InMemoryBackend` the whole estimate for the
clients of its process.
"""

from route_planning_async._learning._law import PROBE_TRIAL, RAISE_GATE, Action, Estimate, Law
from route_planning_async._learning._policy import LearningPolicy

__all__ = ["PROBE_TRIAL", "RAISE_GATE", "Action", "Estimate", "Law", "LearningPolicy"]
