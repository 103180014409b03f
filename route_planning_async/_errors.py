"""Every exception the library raises, in one tree.

::

    RoutePlanningError
    ├── ConfigurationError            a setting was unusable (e.g. an http:// base URL, timeout=0),
    │                                 raised when it is given and naming it
    ├── RedisBackendError             (route_planning_async.redis) the shared limits could not be
    │                                 reached; nothing was sent
    ├── ValidationError               bad input, caught on the client; nothing was sent
    ├── TransportError                no HTTP answer: connection refused, reset, timed out or
    │                                 unreadable; says "after N attempts over T s"
    │   └── RequestTimeoutError
    ├── APIError                      the service answered with an error status
    │   ├── BadRequestError           400
    │   ├── AuthenticationError       401
    │   ├── PermissionDeniedError     403
    │   ├── NotFoundError             404
    │   ├── ConflictError             409
    │   │   ├── PlanNotWritableError          code ``plan_not_writable``
    │   │   └── OptimizationInProgressError   code ``plan_optimization_in_progress``
    │   ├── GoneError                 410 (plans created before 2023-04-01 have no stops)
    │   ├── UnprocessableEntityError  422
    │   ├── RateLimitError            429, with ``retry_after`` when the service sent one
    │   └── ServerError               5xx
    ├── OptimizationFailedError       an operation finished with a failure result
    ├── OperationCanceledError        an operation was canceled
    └── OperationTimeoutError         waiting for an operation ran out of time

Every error that concerns one request (``TransportError``, ``APIError`` and
their subclasses) carries the request as ``method`` and ``request_url`` (the
full URL, without its query), and ``history``, the failed attempts before it.
``APIError`` adds the answer: ``status``, ``headers``, ``body`` and the error
body's fields ``message``, ``code``, ``param`` and ``doc_url`` (the body's
``url``, a link to the documentation, never the request's URL).

No message, ``repr`` or attribute of these exceptions contains the API key: the
key lives only in the transport's ``Authorization`` header, and an HTTP
library's exception (which holds the request's headers) is never kept as a
cause or context, only a redacted copy of it (``TransportError``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from route_planning_async._models import Operation

__all__ = [
    "APIError",
    "AttemptRecord",
    "AuthenticationError",
    "BadRequestError",
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
    "RequestTimeoutError",
    "RoutePlanningError",
    "ServerError",
    "TransportError",
    "UnprocessableEntityError",
    "ValidationError",
    "error_for_status",
]

_BODY_PREVIEW = 200


class RoutePlanningError(Exception):
    """Base class of every error raised by ``route_planning_async``."""


class ConfigurationError(RoutePlanningError, ValueError):
    """The client or one of its policies was configured with an unusable value."""


class ValidationError(RoutePlanningError, ValueError):
    """An input broke a rule of the contract; it was caught before anything was sent.

    ``field`` is the dotted path of the offending field (``address.latitude``,
    ``stops[3].notes``) and ``rule`` says what the contract requires.
    """

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule

    def at(self, prefix: str) -> ValidationError:
        """Return the same error with ``prefix`` put in front of its field path."""
        joined = f"{prefix}.{self.field}" if not self.field.startswith("[") else prefix + self.field
        return ValidationError(joined, self.rule)


class TransportError(RoutePlanningError):
    """The request got no HTTP answer: connection refused, reset, timed out, or a
    malformed answer the HTTP library could not read.

    ``maybe_sent`` is False only when the connection was never made, so the
    service cannot have seen the request; otherwise the outcome is unknown.

    The HTTP library's own exception is never kept (aiohttp's errors hold the
    request's headers, ``Authorization`` among them): ``__cause__`` is None, the
    context is suppressed, and a redacted copy of what is useful is kept instead:
    ``error_type``, ``status``, ``request_headers`` and the text in the message.

    When the scheduler gives up, the message ends with ``after N attempts over
    T s`` and ``attempts``, ``elapsed`` and ``history`` say the same as data.
    """

    def __init__(
        self,
        message: str,
        *,
        method: str,
        request_url: str,
        maybe_sent: bool,
        history: Sequence[AttemptRecord] = (),
        error_type: str | None = None,
        status: int | None = None,
        request_headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{method} {request_url}: {message}")
        self.method = method
        """HTTP method of the request."""
        self.request_url = request_url
        """The URL the request was sent to."""
        self.maybe_sent = maybe_sent
        """False only when the connection was never made (the service cannot have seen it)."""
        self.history: tuple[AttemptRecord, ...] = tuple(history)
        """The failed attempts that came before this one, oldest first, when the request was retried."""
        self.attempts = len(self.history) + 1
        """How many attempts were made, this one included."""
        self.elapsed: float | None = None
        """Seconds from the first attempt's send to this failure (the scheduler's clock);
        None when the error did not pass through the scheduler."""
        self.error_type = error_type
        """The HTTP library's exception class, by name (``aiohttp.ServerDisconnectedError``)."""
        self.status = status
        """The status the HTTP library reported with its error, if any (aiohttp reports an
        answer it could not parse, such as a malformed status line, as 400)."""
        self.request_headers: Mapping[str, str] = dict(request_headers or {})
        """The request's headers as the library reported them, without ``Authorization``
        (nor any other credential header)."""

    def record_attempts(self, history: Sequence[AttemptRecord], elapsed: float) -> None:
        """Mark this as the last of ``len(history) + 1`` attempts made over ``elapsed`` seconds."""
        self.history = tuple(history)
        self.attempts = len(self.history) + 1
        self.elapsed = elapsed
        plural = "attempt" if self.attempts == 1 else "attempts"
        self.args = (f"{self.args[0]} after {self.attempts} {plural} over {_seconds_text(elapsed)} s",)


class RequestTimeoutError(TransportError):
    """The request did not complete within the configured timeout."""


def _seconds_text(seconds: float) -> str:
    return f"{seconds:.1f}" if seconds >= 0.95 else f"{seconds:.3f}"


class AttemptRecord:
    """One failed attempt that came before the error that was finally raised."""

    __slots__ = ("delay", "description", "duration", "error", "status")

    def __init__(
        self,
        status: int | None,
        description: str,
        delay: float,
        *,
        duration: float | None = None,
        error: TransportError | None = None,
    ) -> None:
        self.status = status
        """HTTP status of the attempt, or None when it got no answer."""
        self.description = description
        """What went wrong, in one line."""
        self.delay = delay
        """Seconds waited after this attempt before the next one."""
        self.duration = duration
        """Seconds from the attempt's send to its failure, when measured."""
        self.error = error
        """The (redacted) :class:`TransportError` of an attempt that got no answer, else None."""

    def __repr__(self) -> str:
        duration = "" if self.duration is None else f", duration={self.duration:.3f}"
        return (
            f"AttemptRecord(status={self.status!r}, description={self.description!r}, "
            f"delay={self.delay:.3f}{duration})"
        )


class APIError(RoutePlanningError):
    """The service answered with an error status.

    ``message``, ``code``, ``param`` and ``doc_url`` come from the error body
    ``{message, code, param, url}``; a body that is not JSON still gives an
    error, with its first bytes as the message. ``method`` and ``request_url``
    name the request, when the error was made for one.
    """

    status_code: ClassVar[int | None] = None

    def __init__(
        self,
        status: int,
        message: str,
        *,
        code: str | None = None,
        param: str | None = None,
        doc_url: str | None = None,
        method: str | None = None,
        request_url: str | None = None,
        headers: Mapping[str, str] | None = None,
        body: bytes = b"",
        history: Sequence[AttemptRecord] = (),
    ) -> None:
        self.status = status
        """HTTP status of the answer."""
        self.message = message
        """The error body's ``message`` (or the first bytes of a body that is not JSON)."""
        self.code = code
        """The error body's machine-readable ``code``, when it has one."""
        self.param = param
        """The error body's ``param``: the request field the error is about, when it names one."""
        self.doc_url = doc_url
        """The error body's ``url``: a link to documentation about the error."""
        self.method = method
        """HTTP method of the request."""
        self.request_url = request_url
        """The URL the request was sent to."""
        self.headers: Mapping[str, str] = dict(headers or {})
        """The answer's headers."""
        self.body = body
        """The answer's raw body."""
        self.history: tuple[AttemptRecord, ...] = tuple(history)
        """The failed attempts that came before this one, when the request was retried."""
        super().__init__(self._describe())

    def _describe(self) -> str:
        where = f"{self.method} {self.request_url} -> " if self.method and self.request_url else ""
        text = f"{where}{self.status}: {self.message}"
        if self.code:
            text += f" (code={self.code}"
            text += f", param={self.param})" if self.param else ")"
        if self.history:
            text += f" after {len(self.history) + 1} attempts"
        hint = self.hint()
        return f"{text}. {hint}" if hint else text

    def hint(self) -> str | None:
        """A sentence that tells the user what to do next, when one helps."""
        return None


class BadRequestError(APIError):
    """400: the service rejected the request as malformed or invalid."""

    status_code = 400


class AuthenticationError(APIError):
    """401: the API key is missing, wrong or revoked."""

    status_code = 401


class PermissionDeniedError(APIError):
    """403: the key may not do this, or the plan is outside the team's data access."""

    status_code = 403


class NotFoundError(APIError):
    """404: no such resource."""

    status_code = 404


class ConflictError(APIError):
    """409: the resource is in a state that does not allow the call."""

    status_code = 409


class PlanNotWritableError(ConflictError):
    """409 ``plan_not_writable``: the plan was optimized; use the live endpoints."""

    def hint(self) -> str:
        return (
            "The plan is not writable: change it through the live endpoints "
            "(stops.live_create / live_update / live_delete, or plans.live_edit), "
            "then reoptimize and redistribute or save"
        )


class OptimizationInProgressError(ConflictError):
    """409 ``plan_optimization_in_progress``: wait for the running optimization."""

    def hint(self) -> str:
        return "An optimization of this plan is running; wait for its operation to finish"


class GoneError(APIError):
    """410: the resource is gone, or the plan predates stop collections."""

    status_code = 410

    def hint(self) -> str:
        return (
            "Plans created before 2023-04-01 have no stop collections, "
            "so no stop operation is available for them"
        )


class UnprocessableEntityError(APIError):
    """422: the request was well formed but could not be carried out."""

    status_code = 422


class RateLimitError(APIError):
    """429: the request went over a rate limit.

    ``retry_after`` is the wait in seconds the service asked for, when it sent one.
    """

    status_code = 429

    def __init__(self, *args: Any, retry_after: float | None = None, **kwargs: Any) -> None:
        self.retry_after = retry_after
        super().__init__(*args, **kwargs)


class ServerError(APIError):
    """5xx: the service failed. A write may or may not have been applied."""


class OptimizationFailedError(RoutePlanningError):
    """An optimization operation finished with a failure result ``{code, message}``."""

    def __init__(self, operation: Operation, code: str, message: str) -> None:
        super().__init__(f"optimization {operation.id} failed: {code}: {message}")
        self.operation = operation
        self.code = code
        self.message = message


class OperationCanceledError(RoutePlanningError):
    """An operation's ``metadata.canceled`` is true; it will never produce a result."""

    def __init__(self, operation: Operation) -> None:
        super().__init__(f"operation {operation.id} was canceled")
        self.operation = operation


class OperationTimeoutError(RoutePlanningError, TimeoutError):
    """An operation was not done before the wait's timeout ran out."""

    def __init__(self, operation_id: str, timeout: float) -> None:
        super().__init__(f"operation {operation_id} was not done after {timeout:g} s")
        self.operation_id = operation_id
        self.timeout = timeout


_BY_STATUS: dict[int | None, type[APIError]] = {
    cls.status_code: cls
    for cls in (
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        ConflictError,
        GoneError,
        UnprocessableEntityError,
        RateLimitError,
    )
}

_BY_CODE: dict[str, type[APIError]] = {
    "plan_not_writable": PlanNotWritableError,
    "plan_optimization_in_progress": OptimizationInProgressError,
}


def error_for_status(
    status: int,
    body: bytes,
    *,
    headers: Mapping[str, str] | None = None,
    method: str | None = None,
    request_url: str | None = None,
    retry_after: float | None = None,
    history: Sequence[AttemptRecord] = (),
) -> APIError:
    """Turn an error answer into the most specific exception of the tree."""
    message, code, param, doc_url = _parse_error_body(body, status)
    cls = _BY_CODE.get(code or "") or _BY_STATUS.get(status)
    if cls is None:
        cls = ServerError if status >= 500 else APIError
    kwargs: dict[str, Any] = {
        "code": code,
        "param": param,
        "doc_url": doc_url,
        "method": method,
        "request_url": request_url,
        "headers": headers,
        "body": body,
        "history": history,
    }
    if cls is RateLimitError:
        kwargs["retry_after"] = retry_after
    return cls(status, message, **kwargs)


def _parse_error_body(body: bytes, status: int) -> tuple[str, str | None, str | None, str | None]:
    try:
        data = json.loads(body) if body else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        preview = body[:_BODY_PREVIEW].decode("utf-8", "replace").strip()
        return (preview or f"HTTP {status}", None, None, None)

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) else None

    return (text("message") or f"HTTP {status}", text("code"), text("param"), text("url"))
