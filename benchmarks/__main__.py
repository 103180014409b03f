"""``python -m benchmarks``: run the suite and write RESULTS.md and results.json."""

from benchmarks._runner import main

raise SystemExit(main())
