"""Where the bulk importer sends v0.2b's batches: the shared import targets
(``route_planning_async/_import_targets.py``), which the shared namespaces make
with v0.2b's input classes; here are their row kinds and keys under v0.2b's names.
"""

from __future__ import annotations

from route_planning_async._import_targets import (
    DRIVER_ROWS,
    PLAN_STOP_ROWS,
    UNASSIGNED_STOP_ROWS,
    DriversTarget,
    LiveImport,
    LiveImportOptions,
    driver_key,
    stop_key,
)

__all__ = [
    "DRIVER_ROWS",
    "PLAN_STOP_ROWS",
    "UNASSIGNED_STOP_ROWS",
    "DriversTarget",
    "LiveImport",
    "LiveImportOptions",
    "driver_key",
    "stop_key",
]
