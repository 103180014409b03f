"""The benchmark suite of route_planning_async, run as ``python -m benchmarks``.

Every benchmark runs the library and, where the acceptance asks for it, a few
baseline strategies written with raw aiohttp, against the local emulator in the
same run, and returns a dict of figures; ``_runner.py`` composes RESULTS.md.
"""
