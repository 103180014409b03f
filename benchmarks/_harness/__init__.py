"""What a benchmark runs and measures with: the emulator's process, the client's, the load.

- ``_emu``: the emulator as the benchmarks use it, a separate process driven over stdin;
- ``_emuserver``: that process (``python -m benchmarks._harness._emuserver``);
- ``_child``: one import in a fresh client process, for the memory and scaling benchmarks
  (``python -m benchmarks._harness._child``);
- ``_load``: a closed-loop load generator, timed in wall and CPU seconds;
- ``_tracing``: per-request latency on the client side, from aiohttp's tracing hooks;
- ``_gets``: the GET the overhead benchmark compares, raw aiohttp's and the client's;
- ``_instructions``: instructions per GET counted by valgrind
  (``python -m benchmarks._harness._instructions``);
- ``_payloads``: the request bodies and response pages the benchmarks send and decode;
- ``_baselines``: the four baseline strategies with raw aiohttp, beside the library.

It imports the library, the emulator and ``_results`` (the shape of figures); the benchmarks
and ``_mismatch`` import it.
"""
