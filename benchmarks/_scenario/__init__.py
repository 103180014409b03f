"""The seeded scenarios: who else sends on the key, when, and how a run is judged.

- ``_scenarios``: the families of scenarios ``python -m benchmarks scenarios`` draws from a seed
  (neighbours, copies of this library, links, real limits, storms), as plain data;
- ``_run``: one scenario on the emulator over real sockets, this library's programs then the
  fixed-rate ones;
- ``_judge``: the bars, the 429 ceiling and the search for the best fixed-rate program in
  hindsight (pure);
- ``_report``: SCENARIOS.md and one SVG plot per family, from the recorded runs;
- ``_virtual``: scenarios of the learner in virtual time, for the neighbours benchmark.

It imports the library, the emulator and the tests' support (``_virtual``), and no other
room of ``benchmarks``; the commands (``bench_scenarios``, ``bench_neighbours``) import it.
"""
