"""Tests of the bulk importer (``route_planning_async/_import/``): its engine, its waits, its
exactly-once bookkeeping under faults, and live imports."""
