"""The limit-mismatch benchmark's pieces (the benchmark itself is ``bench_limit_mismatch``).

- ``_ground``: its bars, the server's readings of its limits, the sizes of its scenarios and
  the real limits it runs against;
- ``_report``: its checks against the bars, its figures, tables, settings and notes.

It imports ``_harness`` (the baselines) and ``_results``; only the benchmark imports it.
"""
