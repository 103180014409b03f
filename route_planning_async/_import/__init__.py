"""The bulk importer: any number of rows, in batches, each row exactly once.

The engine (``_engine.py``) knows no kind of row: an import target
(``_target.py``) tells it everything about one kind. Its options are written
once (``_options.py``); the outcomes of an import are its report
(``_report.py``).
"""

from route_planning_async._import._batch_ids import PENDING, BatchOutcomes
from route_planning_async._import._engine import run_import
from route_planning_async._import._keys import DUPLICATE_KEYS_ADVICE
from route_planning_async._import._options import ImportOptions, ImportSettings, options_documented
from route_planning_async._import._report import (
    DuplicateRow,
    FailedBatch,
    ImportProgress,
    ImportReport,
    Outcome,
    ProgressCallback,
    RejectedRow,
)
from route_planning_async._import._target import BatchAnswer, ImportTarget, Listing, Refusal, RowKind

__all__ = [
    "DUPLICATE_KEYS_ADVICE",
    "PENDING",
    "BatchAnswer",
    "BatchOutcomes",
    "DuplicateRow",
    "FailedBatch",
    "ImportOptions",
    "ImportProgress",
    "ImportReport",
    "ImportSettings",
    "ImportTarget",
    "Listing",
    "Outcome",
    "ProgressCallback",
    "Refusal",
    "RejectedRow",
    "RowKind",
    "options_documented",
    "run_import",
]
