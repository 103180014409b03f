"""``python -m benchmarks``: run the suite and write RESULTS.md and results.json;
``python -m benchmarks scenarios ...``: the seeded scenarios (``bench_scenarios.py``)."""

import sys

if sys.argv[1:2] == ["scenarios"]:
    from benchmarks.bench_scenarios import main as scenarios

    raise SystemExit(scenarios(sys.argv[2:]))

from benchmarks._runner import main

raise SystemExit(main())
