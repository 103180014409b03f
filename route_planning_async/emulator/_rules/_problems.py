"""Error answers of the emulator: one exception that becomes ``{message, code, param, url}``.

The contract (Errors) gives the body shape; the codes and messages follow the public
OpenAPI document where it names them (``plan_not_writable`` ...), and are the
emulator's own choice elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["DOCS_URL", "PAYWALL_URL", "TEAM_PROFILE_URL", "Problem"]

DOCS_URL = "https://route-planning.example/docs/errors"
"""Base of the ``url`` field of error bodies (an ``.example`` address: the emulator has no docs site)."""

PAYWALL_URL = "https://dispatch.spoke.com/paywall"
"""The ``url`` of the paywall 403s (``plan_inaccessible``, ``route_inaccessible``): the one the
official schemas fix for them (``enum``), the service's upgrade page."""

TEAM_PROFILE_URL = "https://dispatch.spoke.com/settings/team-profile"
"""The ``url`` of 403 ``vehicle_capacity_disabled``: the one the official schemas fix for it
(``enum``), the team settings where vehicle capacity is turned on."""


class Problem(Exception):
    """An error answer. Raised anywhere below a handler; the app turns it into JSON."""

    def __init__(
        self,
        status: int,
        message: str,
        code: str | None,
        param: str = "",
        *,
        headers: Mapping[str, str] | None = None,
        url: str | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.url = url if url is not None or code is None else f"{DOCS_URL}#{code}"
        self.status = status
        self.message = message
        self.code = code
        self.param = param
        self.headers = dict(headers or {})

    def body(self) -> dict[str, str]:
        """The error body of the contract: every field is a string; an answer without a code
        (v1's 412, and the bare answers v1 documents with a message only) has ``message``
        and ``param`` alone."""
        if self.code is None:
            return {"message": self.message, "param": self.param}
        return {
            "message": self.message,
            "code": self.code,
            "param": self.param,
            "url": self.url or "",
        }

    @classmethod
    def invalid(cls, param: str, message: str) -> Problem:
        """400 for a body or query that breaks a rule of the contract."""
        return cls(400, f"{param}: {message}" if param else message, "invalid_request", param)

    @classmethod
    def not_found(cls, message: str, code: str = "not_found", param: str = "") -> Problem:
        """404 for an unknown resource."""
        return cls(404, message, code, param)

    @classmethod
    def conflict(cls, code: str, message: str) -> Problem:
        """409 for a call the resource's state does not allow."""
        return cls(409, message, code)


# The messages the public OpenAPI document gives for its 409 codes.
PLAN_NOT_WRITABLE = ("plan_not_writable", "Plan is not writable")
PLAN_OPTIMIZATION_IN_PROGRESS = ("plan_optimization_in_progress", "Plan optimization in progress")
PLAN_NOT_OPTIMIZED = ("plan_not_optimized", "Plan not optimized")
PLAN_ALREADY_OPTIMIZED = ("plan_already_optimized", "Plan already optimized")
PLAN_ALREADY_DISTRIBUTED = ("plan_already_distributed", "Plan already distributed")
PLAN_OPTIMIZATION_NOT_SUPPORTED = (
    "plan_optimization_not_supported",
    "Only `reorder_changed_stops` optimization type is supported when the plan is already distributed.",
)
PLAN_INACCESSIBLE = (
    "plan_inaccessible",
    "Plan is no longer accessible due to data access restrictions. Upgrade to a plan that supports a "
    "longer delivery history period to access it.",
)
NO_DRIVERS_AVAILABLE = (
    "no_drivers_available",
    "Plan has no drivers. Either the plan's depot has no drivers, if the optimization is for "
    "minimizing drivers, or the plan has no assigned drivers.",
)

# Operation cancel (public OpenAPI document, POST /operations/<id>:cancel).
OPERATION_ALREADY_DONE = (
    "operation_already_done",
    "The operation cannot be canceled because it is already done.",
)
ROUTE_INACCESSIBLE = (
    "route_inaccessible",
    "Route is no longer accessible due to data access restrictions.",
)
