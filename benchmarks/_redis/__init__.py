"""Redis for the benchmark of several processes on one API key (``bench_redis``) and its tests.

- ``_cluster``: a Redis Cluster of three masters on loopback, started and torn down;
- ``_worker``: one worker process sharing the key, with its own client, loop and mixed load.

It imports the library and its Redis backend, and no other room of ``benchmarks``.
"""
