"""Tests of the rate-limit rules, limits files and backends (``route_planning_async/_rate_limits/``)."""
