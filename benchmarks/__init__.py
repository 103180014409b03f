"""The benchmark suite of route_planning_async, run as ``python -m benchmarks``.

Every benchmark runs the library and, where the acceptance asks for it, a few
baseline strategies written with raw aiohttp, against the local emulator in the
same run, and returns a dict of figures; ``_runner.py`` composes RESULTS.md.

At the top: the commands (``__main__``, ``_runner``, which finds each benchmark by
its module's name) and one ``bench_*`` module per benchmark. The rooms below them,
each importing downward only:

- ``_results/``: the shape of a benchmark's figures, the machine, RESULTS.md;
- ``_harness/``: the emulator's process, fresh client processes, the load, the
  payloads and the raw-aiohttp baselines;
- ``_mismatch/``: the limit-mismatch benchmark's ground and report;
- ``_redis/``: the Redis Cluster and the worker processes of the Redis benchmark;
- ``_scenario/``: the seeded scenarios (``python -m benchmarks scenarios``) and the
  learner's scenarios in virtual time.
"""
