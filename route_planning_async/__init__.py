"""An asyncio client for the Route Planning Service API v0.2b.

Every request passes one rate-limit scheduler, so any number of tasks can share
a client at the full speed the service allows without being throttled.

Start with ``RoutePlanningClient``: ``help(route_planning_async.RoutePlanningClient)``
and ``help(client.stops.import_many)`` explain every parameter. The guides (rate
limits, bulk import, polling, webhooks, the emulator, the command line) and the
API reference are in the documentation site, built from ``docs/`` with
``nox -s docs``; ``README.md`` has the same guides.
"""

from importlib import metadata

from route_planning_async._backends import Grant, InMemoryBackend, RateLimitBackend
from route_planning_async._client import DEFAULT_BASE_URL, RoutePlanningClient
from route_planning_async._core import Request, Response
from route_planning_async._errors import (
    APIError,
    AttemptRecord,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    ConflictError,
    GoneError,
    NotFoundError,
    OperationCanceledError,
    OperationTimeoutError,
    OptimizationFailedError,
    OptimizationInProgressError,
    PermissionDeniedError,
    PlanNotWritableError,
    RateLimitError,
    RequestTimeoutError,
    RoutePlanningError,
    ServerError,
    TransportError,
    UnprocessableEntityError,
    ValidationError,
)
from route_planning_async._import_report import (
    FailedBatch,
    ImportProgress,
    ImportReport,
    Outcome,
    RejectedStop,
)
from route_planning_async._inputs import (
    UNSET,
    AddressInput,
    OrderInfoInput,
    PlanInput,
    PlanUpdate,
    RecipientInput,
    ReoptimizationType,
    StopInput,
    StopUpdate,
    TimingInput,
    UnassignedStopInput,
    UnassignedStopUpdate,
    UnsetType,
)
from route_planning_async._limits import Category, RateLimits, Rule
from route_planning_async._models import (
    Activity,
    AttemptedLocation,
    CustomStopProperty,
    DeliveryInfo,
    DeliveryState,
    Depot,
    Driver,
    Eta,
    EtaNullReason,
    ImportFailure,
    ImportResult,
    LiveChange,
    Operation,
    OperationMetadata,
    OptimizationFailure,
    OptimizationOrder,
    OptimizationSuccess,
    OrderInfo,
    PlaceInVehicle,
    Plan,
    PlanOptimization,
    ProofOfAttemptRequirements,
    Recipient,
    Route,
    RouteOverrides,
    RouteState,
    SkippedStop,
    Stop,
    StopAddress,
    StopType,
    TimingData,
    UnassignedStop,
)
from route_planning_async._pagination import Page, Paginator
from route_planning_async._retry import RetryPolicy
from route_planning_async._stats import CategoryStats, SchedulerStats
from route_planning_async._transport import Transport
from route_planning_async._workflows import LiveEdit

try:
    __version__ = metadata.version("route_planning_async")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "DEFAULT_BASE_URL",
    "UNSET",
    "APIError",
    "Activity",
    "AddressInput",
    "AttemptRecord",
    "AttemptedLocation",
    "AuthenticationError",
    "BadRequestError",
    "Category",
    "CategoryStats",
    "ConfigurationError",
    "ConflictError",
    "CustomStopProperty",
    "DeliveryInfo",
    "DeliveryState",
    "Depot",
    "Driver",
    "Eta",
    "EtaNullReason",
    "FailedBatch",
    "GoneError",
    "Grant",
    "ImportFailure",
    "ImportProgress",
    "ImportReport",
    "ImportResult",
    "InMemoryBackend",
    "LiveChange",
    "LiveEdit",
    "NotFoundError",
    "Operation",
    "OperationCanceledError",
    "OperationMetadata",
    "OperationTimeoutError",
    "OptimizationFailedError",
    "OptimizationFailure",
    "OptimizationInProgressError",
    "OptimizationOrder",
    "OptimizationSuccess",
    "OrderInfo",
    "OrderInfoInput",
    "Outcome",
    "Page",
    "Paginator",
    "PermissionDeniedError",
    "PlaceInVehicle",
    "Plan",
    "PlanInput",
    "PlanNotWritableError",
    "PlanOptimization",
    "PlanUpdate",
    "ProofOfAttemptRequirements",
    "RateLimitBackend",
    "RateLimitError",
    "RateLimits",
    "Recipient",
    "RecipientInput",
    "RejectedStop",
    "ReoptimizationType",
    "Request",
    "RequestTimeoutError",
    "Response",
    "RetryPolicy",
    "Route",
    "RouteOverrides",
    "RoutePlanningClient",
    "RoutePlanningError",
    "RouteState",
    "Rule",
    "SchedulerStats",
    "ServerError",
    "SkippedStop",
    "Stop",
    "StopAddress",
    "StopInput",
    "StopType",
    "StopUpdate",
    "TimingData",
    "TimingInput",
    "Transport",
    "TransportError",
    "UnassignedStop",
    "UnassignedStopInput",
    "UnassignedStopUpdate",
    "UnprocessableEntityError",
    "UnsetType",
    "ValidationError",
    "__version__",
]
