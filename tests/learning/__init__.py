"""Tests of the learning law (``route_planning_async/_learning/``, stated in ``docs/learning.md``):
one per transition, and the law as the lanes apply it."""
