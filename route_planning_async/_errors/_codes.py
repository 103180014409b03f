"""The error codes of the official schemas, as the error tree reads them.

``APIError.error_code`` is one of these; the code of an answer picks the
class of the tree (``_errors/__init__.py``) where a caller would act differently.

One enum holds the codes of every API version. Most codes are the same in
every version; the few that only some versions send are listed once, in
``_ONLY_IN``, and :meth:`ErrorCode.for_version` gives one version's codes. The
versions are the registry's (``_versions.py``); a name it does not list is refused.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from route_planning_async._versions import API_VERSIONS, V0_2B, V1, api_version

__all__ = ["ErrorCode"]


class ErrorCode(enum.StrEnum):
    """Every error ``code`` the official schemas name (``APIError.error_code``).

    A code the service sends that is not listed here, or that the answering
    version does not name, is kept as a string in ``APIError.code``;
    ``error_code`` is then None (see :meth:`parse`). :attr:`versions` says
    which versions name a code.

    Attributes:
        DEPOT_MISSING_START_ADDRESS: 409: the depot has no start address to optimize from.
        DEPOT_NOT_FOUND: 409: the plan's depot does not exist.
        DRIVER_NOT_ACTIVE: 400: a driver of the request is not active.
        FEATURE_NOT_IN_SUBSCRIPTION: 403: the team's subscription does not include the feature.
        MAIN_DEPOT_NOT_FOUND: 404: the team has no main depot (v0.2b only).
        NO_DRIVERS_AVAILABLE: 409: the plan has no drivers to optimize for.
        NO_END_TIME_AND_MAX_STOPS_PER_DRIVER: 409: drivers need an end time or a maximum number of
            stops.
        OPERATING_AREA_MISSING_COORDINATES: 400: the stop's service has an operating area, but the stop
            or its depot has no coordinates (v1).
        OPERATING_AREA_VIOLATION: 400: the stop's service does not operate in the stop's area (v1).
        OPERATION_ALREADY_DONE: 409: the operation finished; it cannot be canceled.
        OPERATION_NOT_FOUND: 404: no such operation.
        PLAN_ALREADY_DISTRIBUTED: 409: the plan was already distributed.
        PLAN_ALREADY_OPTIMIZED: 409: to optimize, the plan is already optimized; to reoptimize, it has
            no pending live changes.
        PLAN_CONCURRENT_MODIFICATION: 409: the plan was changed by another request at the same time.
        PLAN_INACCESSIBLE: 403: the plan is outside the team's data access period.
        PLAN_NOT_OPTIMIZED: 409: the plan must be optimized first.
        PLAN_NOT_WRITABLE: 409: the plan was optimized; only the live endpoints change it.
        PLAN_OPTIMIZATION_IN_PROGRESS: 409: an optimization of the plan is running.
        PLAN_OPTIMIZATION_NOT_SUPPORTED: 409: this optimization type is not supported for the plan in
            its state.
        ROUTE_INACCESSIBLE: 403: the route is outside the team's data access period.
        SERVICE_ACTIVITY_NOT_SUPPORTED: 400: the stop's service offering does not support the stop's
            activity (v1).
        SERVICE_NOT_AVAILABLE_AT_DEPOT: 400: the stop's service is not offered at the stop's depot (v1).
        SERVICE_OFFERING_NOT_FOUND: 404: no current service offering has the given identifier (v1).
        SLA_START_NOT_CLEARABLE: 400: a stop's SLA start cannot be cleared while a service is assigned
            to it (v1).
        STOP_NOT_EDITABLE: 422: the stop can no longer be edited (it was attempted, or its route
            finished).
        VEHICLE_CAPACITY_DISABLED: 403: the team does not track vehicle capacity, so a stop cannot carry
            a weight.
        versions (frozenset[str]): The API versions whose schema names this code (``{"v0.2b", "v1"}``
            for most).
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
    """404: the team has no main depot (v0.2b only)."""
    NO_DRIVERS_AVAILABLE = "no_drivers_available"
    """409: the plan has no drivers to optimize for."""
    NO_END_TIME_AND_MAX_STOPS_PER_DRIVER = "no_end_time_and_max_stops_per_driver"
    """409: drivers need an end time or a maximum number of stops."""
    OPERATING_AREA_MISSING_COORDINATES = "operating_area_missing_coordinates"
    """400: the stop's service has an operating area, but the stop or its depot has no coordinates (v1)."""
    OPERATING_AREA_VIOLATION = "operating_area_violation"
    """400: the stop's service does not operate in the stop's area (v1)."""
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
    SERVICE_ACTIVITY_NOT_SUPPORTED = "service_activity_not_supported"
    """400: the stop's service offering does not support the stop's activity (v1)."""
    SERVICE_NOT_AVAILABLE_AT_DEPOT = "service_not_available_at_depot"
    """400: the stop's service is not offered at the stop's depot (v1)."""
    SERVICE_OFFERING_NOT_FOUND = "service_offering_not_found"
    """404: no current service offering has the given identifier (v1)."""
    SLA_START_NOT_CLEARABLE = "sla_start_not_clearable"
    """400: a stop's SLA start cannot be cleared while a service is assigned to it (v1)."""
    STOP_NOT_EDITABLE = "stop_not_editable"
    """422: the stop can no longer be edited (it was attempted, or its route finished)."""
    VEHICLE_CAPACITY_DISABLED = "vehicle_capacity_disabled"
    """403: the team does not track vehicle capacity, so a stop cannot carry a weight."""

    @property
    def versions(self) -> frozenset[str]:
        """The API versions whose schema names this code (``{"v0.2b", "v1"}`` for most)."""
        return _ONLY_IN.get(self.value, _EVERY_VERSION)

    @classmethod
    def for_version(cls, version: str) -> frozenset[ErrorCode]:
        """The codes one API version's schema names (``"v0.2b"``, ``"v1"``).

        Raises:
            ValueError: ``version`` is not a registered version (the message names them).
        """
        name = api_version(version).name
        return frozenset(code for code in cls if name in code.versions)

    @classmethod
    def parse(cls, code: str | None, version: str | None = None) -> ErrorCode | None:
        """The member for ``code``; None for None or a code the version does not know.

        Args:
            code: The error body's ``code``.
            version: The API version that answered; None accepts a code of any version.

        Raises:
            ValueError: ``version`` is not a registered version (the message names them).
        """
        if version is not None:
            api_version(version)
        if code is None:
            return None
        try:
            member = cls(code)
        except ValueError:
            return None
        return member if version is None or version in member.versions else None


_EVERY_VERSION = frozenset(API_VERSIONS)

_ONLY_IN: Mapping[str, frozenset[str]] = {
    # v1 dropped the main depot lookup; its stop endpoints check the stop's service.
    ErrorCode.MAIN_DEPOT_NOT_FOUND: frozenset({V0_2B.name}),
    ErrorCode.OPERATING_AREA_MISSING_COORDINATES: frozenset({V1.name}),
    ErrorCode.OPERATING_AREA_VIOLATION: frozenset({V1.name}),
    ErrorCode.SERVICE_ACTIVITY_NOT_SUPPORTED: frozenset({V1.name}),
    ErrorCode.SERVICE_NOT_AVAILABLE_AT_DEPOT: frozenset({V1.name}),
    ErrorCode.SERVICE_OFFERING_NOT_FOUND: frozenset({V1.name}),
    ErrorCode.SLA_START_NOT_CLEARABLE: frozenset({V1.name}),
}
"""The codes that not every version names, with the versions that do; every other
code is in every version."""
