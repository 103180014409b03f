"""What the v1 client makes of the answers of its official document.

The model of every 2xx JSON answer, the properties no model holds and the keys
renamed on encoding, each with its reason: the ``decoding`` of the v1 row of
``versions.py``.
"""

from __future__ import annotations

from route_planning_async.v1 import _models as v1

from .schema import Answer, Decoding

__all__ = ["DECODING"]

DECODING = Decoding(
    answers=(
        Answer("/plans", "post", v1.Plan),
        Answer("/plans", "get", v1.Plan, "plans"),
        Answer("/plans/{planId}", "get", v1.Plan),
        Answer("/plans/{planId}", "patch", v1.Plan),
        Answer("/plans/{planId}:optimize", "post", v1.Operation),
        Answer("/plans/{planId}:distribute", "post", v1.Plan),
        Answer("/plans/{planId}:reoptimize", "post", v1.Operation),
        Answer("/plans/{planId}:redistribute", "post", v1.Plan),
        Answer("/plans/{planId}/stops", "post", v1.Stop),
        Answer("/plans/{planId}/stops", "get", v1.Stop, "stops"),
        Answer("/plans/{planId}/stops:import", "post", v1.ImportResult),
        Answer("/plans/{planId}/stops/{stopId}", "get", v1.Stop),
        Answer("/plans/{planId}/stops/{stopId}", "patch", v1.Stop),
        Answer("/plans/{planId}/stops:liveCreate", "post", v1.LiveChange),
        Answer("/plans/{planId}/stops/{stopId}:liveUpdate", "post", v1.LiveChange),
        Answer("/plans/{planId}/stops/{stopId}:liveDelete", "post", v1.LiveChange),
        Answer("/plans/{planId}/stops:liveImport", "post", v1.LiveImportResult),
        Answer("/drivers", "get", v1.Driver, "drivers"),
        Answer("/drivers", "post", v1.Driver),
        Answer("/drivers/{driverId}", "get", v1.Driver),
        Answer("/drivers/{driverId}", "patch", v1.Driver),
        Answer("/drivers:import", "post", v1.DriverImportResult),
        Answer("/depots", "post", v1.Depot),
        Answer("/depots", "get", v1.Depot, "depots"),
        Answer("/depots/{depotId}", "get", v1.Depot),
        Answer("/depots/{depotId}", "patch", v1.Depot),
        Answer("/depots:import", "post", v1.DepotImportResult),
        Answer("/routes", "get", v1.Route, "routes"),
        Answer("/routes/{routeId}", "get", v1.Route),
        Answer("/routes/{routeId}/stops", "get", v1.Stop, "stops"),
        Answer("/operations", "get", v1.Operation, "operations"),
        Answer("/operations/{operationId}", "get", v1.Operation),
        Answer("/operations/{operationId}:cancel", "post", v1.Operation),
        Answer("/unassignedStops", "post", v1.UnassignedStop),
        Answer("/unassignedStops", "get", v1.UnassignedStop, "unassignedStops"),
        Answer("/unassignedStops:import", "post", v1.ImportResult),
        Answer("/unassignedStops/{unassignedStopId}", "get", v1.UnassignedStop),
        Answer("/unassignedStops/{unassignedStopId}", "patch", v1.UnassignedStop),
        Answer("/team/customStopProperties", "get", v1.CustomStopProperty, "customStopProperties"),
        Answer("/team/customStopProperties/{customStopPropertyId}", "get", v1.CustomStopProperty),
        Answer("/members", "post", v1.Member),
        Answer("/members/{memberId}", "patch", v1.Member),
        Answer("/members:import", "post", v1.MemberImportResult),
        Answer("/stops:search", "get", v1.StopSearchResult, "stops"),
    ),
    not_decoded={},
    unmodelled={
        "nextPageToken": "read by the paginator (Paginator), not a model field",
        "ImportResult.failed[].error": "its message is ImportFailure.message (a custom hook flattens it)",
        "ImportResult.failed[].unassignedStop": "kept as ImportFailure.stop, the echo of the failed stop",
        "LiveImportResult.failed[].error": "its message is ImportFailure.message (the same hook)",
        "DriverImportResult.failed[].error": "its message is DriverImportFailure.message (the same hook)",
        "DepotImportResult.failed[].error": "its message is DepotImportFailure.message (the same hook)",
        "MemberImportResult.failed[].error": "its message is MemberImportFailure.message (the same hook)",
    },
    renamed_on_encode={
        # An unassigned stop import echoes a failed stop under "unassignedStop";
        # ImportFailure keeps it as "stop" whichever import it came from. (A search
        # item's "unassignedStop" is its own attribute and keeps its name.)
        "unassignedStop": "stop",
    },
)
