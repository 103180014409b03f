"""What the v0.2b client makes of the answers of its official document.

The model of every 2xx JSON answer, the properties no model holds and the keys
renamed on encoding, each with its reason: the ``decoding`` of the v0.2b row of
``versions.py``.
"""

from __future__ import annotations

import route_planning_async as rp

from .schema import Answer, Decoding

__all__ = ["DECODING"]

DECODING = Decoding(
    answers=(
        Answer("/plans", "post", rp.Plan),
        Answer("/plans", "get", rp.Plan, "plans"),
        Answer("/plans/{planId}", "get", rp.Plan),
        Answer("/plans/{planId}", "patch", rp.Plan),
        Answer("/plans/{planId}:optimize", "post", rp.Operation),
        Answer("/plans/{planId}:distribute", "post", rp.Plan),
        Answer("/plans/{planId}:reoptimize", "post", rp.Operation),
        Answer("/plans/{planId}:redistribute", "post", rp.Plan),
        Answer("/plans/{planId}/stops", "post", rp.Stop),
        Answer("/plans/{planId}/stops", "get", rp.Stop, "stops"),
        Answer("/plans/{planId}/stops:import", "post", rp.ImportResult),
        Answer("/plans/{planId}/stops/{stopId}", "get", rp.Stop),
        Answer("/plans/{planId}/stops/{stopId}", "patch", rp.Stop),
        Answer("/plans/{planId}/stops:liveCreate", "post", rp.LiveChange),
        Answer("/plans/{planId}/stops/{stopId}:liveUpdate", "post", rp.LiveChange),
        Answer("/plans/{planId}/stops/{stopId}:liveDelete", "post", rp.LiveChange),
        Answer("/operations/{operationId}", "get", rp.Operation),
        Answer("/operations", "get", rp.Operation, "operations"),
        Answer("/unassignedStops", "post", rp.UnassignedStop),
        Answer("/unassignedStops", "get", rp.UnassignedStop, "unassignedStops"),
        Answer("/unassignedStops:import", "post", rp.ImportResult),
        Answer("/unassignedStops/{unassignedStopId}", "get", rp.UnassignedStop),
        Answer("/unassignedStops/{unassignedStopId}", "patch", rp.UnassignedStop),
        Answer("/depots", "get", rp.Depot, "depots"),
        Answer("/depots/{depotId}", "get", rp.Depot),
        Answer("/team/customStopProperties", "get", rp.CustomStopProperty, "customStopProperties"),
        Answer("/team/customStopProperties/{customStopPropertyId}", "get", rp.CustomStopProperty),
        Answer("/drivers", "get", rp.Driver, "drivers"),
        Answer("/drivers", "post", rp.Driver),
        Answer("/drivers/{driverId}", "get", rp.Driver),
        Answer("/drivers/{driverId}", "patch", rp.Driver),
        Answer("/drivers:import", "post", rp.DriverImportResult),
        Answer("/routes/{routeId}", "get", rp.Route),
        Answer("/operations/{operationId}:cancel", "post", rp.Operation),
        Answer("/plans/{planId}/stops:liveImport", "post", rp.LiveImportResult),
    ),
    not_decoded={},
    unmodelled={
        "nextPageToken": "read by the paginator (Paginator), not a model field",
        "ImportResult.failed[].error": "its message is ImportFailure.message (a custom hook flattens it)",
        "ImportResult.failed[].unassignedStop": "kept as ImportFailure.stop, the echo of the failed stop",
        "DriverImportResult.failed[].error": "its message is DriverImportFailure.message (a custom hook "
        "flattens it, as for stops)",
        "LiveImportResult.failed[].error": "its message is ImportFailure.message (the same hook)",
    },
    renamed_on_encode={
        # An unassigned stop import echoes a failed stop under "unassignedStop";
        # ImportFailure keeps it as "stop" whichever import it came from.
        "unassignedStop": "stop",
    },
)
