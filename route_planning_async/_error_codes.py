"""The error codes of the official schema, as the error tree reads them.

``APIError.error_code`` is one of these; the code of an answer picks the
class of the tree (``_errors.py``) where a caller would act differently.
"""

from __future__ import annotations

import enum

__all__ = ["ErrorCode"]


class ErrorCode(enum.StrEnum):
    """Every error ``code`` the official schema names (``APIError.error_code``).

    A code the service sends that is not listed here is kept as a string in
    ``APIError.code``; ``error_code`` is then None (see :meth:`parse`).
    """

    DEPOT_MISSING_START_ADDRESS = "depot_missing_start_address"
    """409: the depot has no start address to optimize from."""
    DEPOT_NOT_FOUND = "depot_not_found"
    """409: the plan's depot does not exist."""
    DRIVER_NOT_ACTIVE = "driver_not_active"
    """400: a driver of the request is not active."""
    FEATURE_NOT_IN_SUBSCRIPTION = "feature_not_in_subscription"
    """403: the team's subscription does not include the feature."""
    MAIN_DEPOT_NOT_FOUND = "main_depot_not_found"
    """404: the team has no main depot."""
    NO_DRIVERS_AVAILABLE = "no_drivers_available"
    """409: the plan has no drivers to optimize for."""
    NO_END_TIME_AND_MAX_STOPS_PER_DRIVER = "no_end_time_and_max_stops_per_driver"
    """409: drivers need an end time or a maximum number of stops."""
    OPERATION_ALREADY_DONE = "operation_already_done"
    """409: the operation finished; it cannot be canceled."""
    OPERATION_NOT_FOUND = "operation_not_found"
    """404: no such operation."""
    PLAN_ALREADY_DISTRIBUTED = "plan_already_distributed"
    """409: the plan was already distributed."""
    PLAN_ALREADY_OPTIMIZED = "plan_already_optimized"
    """409: to optimize, the plan is already optimized; to reoptimize, it has no pending live changes."""
    PLAN_CONCURRENT_MODIFICATION = "plan_concurrent_modification"
    """409: the plan was changed by another request at the same time."""
    PLAN_INACCESSIBLE = "plan_inaccessible"
    """403: the plan is outside the team's data access period."""
    PLAN_NOT_OPTIMIZED = "plan_not_optimized"
    """409: the plan must be optimized first."""
    PLAN_NOT_WRITABLE = "plan_not_writable"
    """409: the plan was optimized; only the live endpoints change it."""
    PLAN_OPTIMIZATION_IN_PROGRESS = "plan_optimization_in_progress"
    """409: an optimization of the plan is running."""
    PLAN_OPTIMIZATION_NOT_SUPPORTED = "plan_optimization_not_supported"
    """409: this optimization type is not supported for the plan in its state."""
    ROUTE_INACCESSIBLE = "route_inaccessible"
    """403: the route is outside the team's data access period."""
    STOP_NOT_EDITABLE = "stop_not_editable"
    """422: the stop can no longer be edited (it was attempted, or its route finished)."""
    VEHICLE_CAPACITY_DISABLED = "vehicle_capacity_disabled"
    """403: the team does not track vehicle capacity, so a stop cannot carry a weight."""

    @classmethod
    def parse(cls, code: str | None) -> ErrorCode | None:
        """The member for ``code``; None for None or a code this version does not know."""
        if code is None:
            return None
        try:
            return cls(code)
        except ValueError:
            return None
