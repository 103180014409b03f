"""Tests of the client (``route_planning_async/_client/``): its settings, options, decoding, raw
requests and security promises."""
