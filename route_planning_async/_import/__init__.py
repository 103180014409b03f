"""The bulk importer: any number of rows, in batches, each row exactly once.

The engine (``_engine.py``) knows no kind of row: an import target tells it
everything about one kind. The outcomes of an import are its report
(``_report.py``).
"""

from route_planning_async._import._engine import ImportOptions, ImportTarget, run_import, stop_key
from route_planning_async._import._report import (
    PENDING,
    BatchOutcomes,
    DuplicateStop,
    FailedBatch,
    ImportProgress,
    ImportReport,
    Outcome,
    ProgressCallback,
    RejectedStop,
)

__all__ = [
    "PENDING",
    "BatchOutcomes",
    "DuplicateStop",
    "FailedBatch",
    "ImportOptions",
    "ImportProgress",
    "ImportReport",
    "ImportTarget",
    "Outcome",
    "ProgressCallback",
    "RejectedStop",
    "run_import",
    "stop_key",
]
