"""Which exception of the tree (``_errors.py``) an error answer becomes.

The status picks the class; a code the answering version names refines it to
the subclass where a caller would act differently, never to another status's
class. The error body ``{message, code, param, url}`` gives the error's fields;
a body that is not JSON still gives an error, with its first bytes as the message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from route_planning_async._error_codes import ErrorCode
from route_planning_async._errors import (
    APIError,
    AttemptRecord,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    FeatureNotInSubscriptionError,
    GoneError,
    NotFoundError,
    OperationAlreadyDoneError,
    OptimizationInProgressError,
    OptimizationNotSupportedError,
    PermissionDeniedError,
    PlanAlreadyOptimizedError,
    PlanNotWritableError,
    PreconditionFailedError,
    RateLimitError,
    ServerError,
    StopNotEditableError,
    UnprocessableEntityError,
    VehicleCapacityDisabledError,
)
from route_planning_async._json import JSONInputError, read_json

__all__ = ["error_for_status"]

_BODY_PREVIEW = 200

_BY_STATUS: dict[int | None, type[APIError]] = {
    cls.status_code: cls
    for cls in (
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        ConflictError,
        GoneError,
        PreconditionFailedError,
        UnprocessableEntityError,
        RateLimitError,
    )
}

_BY_CODE: dict[str, type[APIError]] = {
    ErrorCode.PLAN_NOT_WRITABLE: PlanNotWritableError,
    ErrorCode.PLAN_OPTIMIZATION_IN_PROGRESS: OptimizationInProgressError,
    ErrorCode.PLAN_ALREADY_OPTIMIZED: PlanAlreadyOptimizedError,
    ErrorCode.PLAN_OPTIMIZATION_NOT_SUPPORTED: OptimizationNotSupportedError,
    ErrorCode.OPERATION_ALREADY_DONE: OperationAlreadyDoneError,
    ErrorCode.STOP_NOT_EDITABLE: StopNotEditableError,
    ErrorCode.FEATURE_NOT_IN_SUBSCRIPTION: FeatureNotInSubscriptionError,
    ErrorCode.VEHICLE_CAPACITY_DISABLED: VehicleCapacityDisabledError,
}
"""The classes a code selects within its status's class (the official schemas give
each code one status)."""


def error_for_status(
    status: int,
    body: bytes,
    *,
    headers: Mapping[str, str] | None = None,
    method: str | None = None,
    request_url: str | None = None,
    retry_after: float | None = None,
    history: Sequence[AttemptRecord] = (),
    api_version: str | None = None,
) -> APIError:
    """Turn an error answer into the most specific exception of the tree.

    ``api_version`` is the version that answered (``"v0.2b"``, ``"v1"``); a code
    that version does not name keeps its status's class and ``error_code`` None.
    None accepts the codes of every version.
    """
    message, code, param, doc_url = _parse_error_body(body, status)
    by_status = _BY_STATUS.get(status) or (ServerError if status >= 500 else APIError)
    known = ErrorCode.parse(code, api_version)
    by_code = _BY_CODE.get(known) if known is not None else None
    # A code refines its status's class, never overrules it: a 5xx or a 429 that
    # carries a known code is still a server error or a rate limit.
    cls = by_code if by_code is not None and issubclass(by_code, by_status) else by_status
    kwargs: dict[str, Any] = {
        "code": code,
        "param": param,
        "doc_url": doc_url,
        "method": method,
        "request_url": request_url,
        "headers": headers,
        "body": body,
        "history": history,
        "api_version": api_version,
    }
    if cls is RateLimitError:
        kwargs["retry_after"] = retry_after
    return cls(status, message, **kwargs)


def _parse_error_body(body: bytes, status: int) -> tuple[str, str | None, str | None, str | None]:
    try:
        data = read_json(body) if body else None
    except JSONInputError:
        data = None
    if not isinstance(data, dict):
        preview = body[:_BODY_PREVIEW].decode("utf-8", "replace").strip()
        return (preview or f"HTTP {status}", None, None, None)

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) else None

    return (text("message") or f"HTTP {status}", text("code"), text("param"), text("url"))
