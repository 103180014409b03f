"""Tests of the scheduler, its retry policy and statistics (``route_planning_async/_scheduler/``)."""
