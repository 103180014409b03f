"""An asyncio client for the Route Planning Service API v0.2b.

Every request passes one rate-limit scheduler, so any number of tasks can share
a client at the full speed the service allows without being throttled.
"""

from importlib import metadata

from route_planning_async._client import DEFAULT_BASE_URL, RoutePlanningClient
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
from route_planning_async._limits import Category, RateLimits, Rule
from route_planning_async._retry import RetryPolicy

try:
    __version__ = metadata.version("route_planning_async")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "DEFAULT_BASE_URL",
    "APIError",
    "AttemptRecord",
    "AuthenticationError",
    "BadRequestError",
    "Category",
    "ConfigurationError",
    "ConflictError",
    "GoneError",
    "NotFoundError",
    "OperationCanceledError",
    "OperationTimeoutError",
    "OptimizationFailedError",
    "OptimizationInProgressError",
    "PermissionDeniedError",
    "PlanNotWritableError",
    "RateLimitError",
    "RateLimits",
    "RequestTimeoutError",
    "RetryPolicy",
    "RoutePlanningClient",
    "RoutePlanningError",
    "Rule",
    "ServerError",
    "TransportError",
    "UnprocessableEntityError",
    "ValidationError",
    "__version__",
]
