"""Every exception the library raises, in one tree.

::

    RoutePlanningError
    ├── ConfigurationError            a setting was unusable (e.g. an http:// base URL, timeout=0),
    │                                 raised when it is given and naming it
    ├── RedisBackendError             (route_planning_async.redis) the shared limits could not be
    │                                 reached; nothing was sent
    ├── ValidationError               bad input, caught on the client; nothing was sent
    ├── DecodeError                   an answer whose shape the models cannot hold (names the
    │                                 JSON path and the value)
    ├── TransportError                no HTTP answer: connection refused, reset, timed out or
    │                                 unreadable; says "after N attempts over T s"
    │   └── RequestTimeoutError
    ├── APIError                      the service answered with an error status
    │   ├── BadRequestError           400
    │   ├── AuthenticationError       401
    │   ├── PermissionDeniedError     403
    │   │   ├── FeatureNotInSubscriptionError     code ``feature_not_in_subscription``
    │   │   └── VehicleCapacityDisabledError      code ``vehicle_capacity_disabled``
    │   ├── NotFoundError             404
    │   ├── ConflictError             409
    │   │   ├── PlanNotWritableError              code ``plan_not_writable``
    │   │   ├── OptimizationInProgressError       code ``plan_optimization_in_progress``
    │   │   ├── PlanAlreadyOptimizedError         code ``plan_already_optimized``
    │   │   ├── OptimizationNotSupportedError     code ``plan_optimization_not_supported``
    │   │   └── OperationAlreadyDoneError         code ``operation_already_done``
    │   ├── GoneError                 410 (related resources deleted meanwhile, or a plan
    │   │                             created before 2023-04-01, which has no stops)
    │   ├── PreconditionFailedError   412 (v1): a driver of the request is not linked to the
    │   │                             plan, or does not share the plan's depot
    │   ├── UnprocessableEntityError  422
    │   │   └── StopNotEditableError              code ``stop_not_editable``
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
``url``, a link to the documentation, never the request's URL). ``error_code``
is the body's code as an :class:`ErrorCode` (None for a code the answering
version, ``api_version``, does not know; ``code`` keeps the string either way).

The code of an answer picks the class where a caller would act differently
(the official schemas' codes); a code no class names keeps the status's class.
Which class an answer gets is decided in ``_answers.py`` (``error_for_status``).

No message, ``repr`` or attribute of these exceptions contains the API key: the
key lives only in the transport's ``Authorization`` header, and an HTTP
library's exception (which holds the request's headers) is never kept as a
cause or context, only a redacted copy of it (``TransportError``).

The room holds this tree, ``_codes.py`` (:class:`ErrorCode`) and ``_answers.py``; it
imports ``_versions``, ``_pickles`` and ``_json`` (the ground floor), nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

from route_planning_async._errors._codes import ErrorCode
from route_planning_async._pickles import PicklableError

__all__ = [
    "APIError",
    "AttemptRecord",
    "AuthenticationError",
    "BadRequestError",
    "ConfigurationError",
    "ConflictError",
    "DecodeError",
    "ErrorCode",
    "FeatureNotInSubscriptionError",
    "GoneError",
    "NotFoundError",
    "OperationAlreadyDoneError",
    "OperationCanceledError",
    "OperationTimeoutError",
    "OptimizationFailedError",
    "OptimizationInProgressError",
    "OptimizationNotSupportedError",
    "PermissionDeniedError",
    "PlanAlreadyOptimizedError",
    "PlanNotWritableError",
    "PreconditionFailedError",
    "RateLimitError",
    "RequestTimeoutError",
    "RoutePlanningError",
    "ServerError",
    "StopNotEditableError",
    "TransportError",
    "UnprocessableEntityError",
    "ValidationError",
    "VehicleCapacityDisabledError",
]

_BODY_PREVIEW = 200


class RoutePlanningError(PicklableError, Exception):
    """Base class of every error raised by ``route_planning_async``; each pickles (``_pickles.py``)."""


class ConfigurationError(RoutePlanningError, ValueError):
    """The client or one of its policies was configured with an unusable value."""


class _Operation(Protocol):
    """What an error about an operation reads of it (any API version's operation)."""

    @property
    def id(self) -> str:
        """The operation's serialized id, ``operations/<id>``."""


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


class DecodeError(RoutePlanningError):
    """An answer the models cannot hold: a null where an object is required, a
    missing required key, a value of the wrong type.

    ``path`` is the JSON path of the offending value (``routes[2].timing.latestAttemptTime``,
    empty for the whole answer), ``value`` the value found there (None for a missing
    key) and ``reason`` what was wrong with it. ``method`` and ``request_url`` name
    the request, when the error was made for one: every answer to a namespace
    call (``client.plans.create`` and the rest, list pages included) is.

    Attributes:
        method (str | None): HTTP method of the request.
        request_url (str | None): The URL the request was sent to.
    """

    def __init__(
        self,
        path: str,
        value: object,
        reason: str,
        *,
        method: str | None = None,
        request_url: str | None = None,
    ) -> None:
        shown = repr(value)
        if len(shown) > _BODY_PREVIEW:
            shown = shown[:_BODY_PREVIEW] + "..."
        where = f"{method} {request_url}: " if method and request_url else ""
        super().__init__(f"{where}cannot decode the answer at {path or '<root>'}: {reason} (got {shown})")
        self.path = path
        self.value = value
        self.reason = reason
        self.method = method
        """HTTP method of the request."""
        self.request_url = request_url
        """The URL the request was sent to."""

    def inside(self, key: str | int) -> DecodeError:
        """The same error, one level further out: ``key`` is put in front of the path."""
        part = f"[{key}]" if isinstance(key, int) else str(key)
        if not self.path:
            path = part
        elif self.path.startswith("["):
            path = part + self.path
        else:
            path = f"{part}.{self.path}"
        error = DecodeError(path, self.value, self.reason, method=self.method, request_url=self.request_url)
        error.__cause__ = self.__cause__
        return error

    def for_request(self, method: str, request_url: str) -> DecodeError:
        """The same error, naming the request whose answer it is about."""
        error = DecodeError(self.path, self.value, self.reason, method=method, request_url=request_url)
        error.__cause__ = self.__cause__
        return error


class TransportError(RoutePlanningError):
    """The request got no HTTP answer: connection refused, reset, timed out, or a
    malformed answer the HTTP library could not read.

    ``maybe_sent`` is False only when the connection was never made, so the
    service cannot have seen the request; otherwise the outcome is unknown.
    ``retryable`` is False when trying again cannot help: the service's TLS
    certificate could not be verified (raised at once, after one attempt).

    The HTTP library's own exception is never kept (aiohttp's errors hold the
    request's headers, ``Authorization`` among them): ``__cause__`` is None, the
    context is suppressed, and a redacted copy of what is useful is kept instead:
    ``error_type``, ``status``, ``request_headers`` and the text in the message.

    When the scheduler gives up, the message ends with ``after N attempts over
    T s`` and ``attempts``, ``elapsed`` and ``history`` say the same as data.

    Attributes:
        method (str): HTTP method of the request.
        request_url (str): The URL the request was sent to.
        maybe_sent (bool): False only when the connection was never made (the service cannot have seen
            it).
        retryable (bool): False when trying again cannot help (a TLS certificate that could not be
            verified).
        history (tuple[AttemptRecord, ...]): The failed attempts that came before this one, oldest
            first, when the request was retried.
        attempts: How many attempts were made, this one included.
        elapsed (float | None): Seconds from the first attempt's send to this failure (the scheduler's
            clock); None when the error did not pass through the scheduler.
        error_type (str | None): The HTTP library's exception class, by name
            (``aiohttp.ServerDisconnectedError``).
        status (int | None): The status the HTTP library reported with its error, if any (aiohttp
            reports an answer it could not parse, such as a malformed status line, as 400).
        request_headers (Mapping[str, str]): The request's headers as the library reported them, without
            ``Authorization`` (nor any other credential header).
    """

    def __init__(
        self,
        message: str,
        *,
        method: str,
        request_url: str,
        maybe_sent: bool,
        retryable: bool = True,
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
        self.retryable = retryable
        """False when trying again cannot help (a TLS certificate that could not be verified)."""
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
    """One failed attempt that came before the error that was finally raised.

    Attributes:
        status (int | None): HTTP status of the attempt, or None when it got no answer.
        description (str): What went wrong, in one line.
        delay (float): Seconds waited after this attempt before the next one.
        duration (float | None): Seconds from the attempt's send to its failure, when measured.
        error (TransportError | None): The (redacted) :class:`TransportError` of an attempt that got no
            answer, else None.
    """

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

    Attributes:
        status (int): HTTP status of the answer.
        api_version (str | None): The API version that answered (``"v0.2b"``, ``"v1"``), when known.
        message (str): The error body's ``message``, whole, however long (else a body's first bytes).
        code (str | None): The error body's machine-readable ``code``, when it has one.
        error_code: ``code`` as an :class:`ErrorCode`; None when absent or unknown to the answering
            version.
        param (str | None): The error body's ``param``: the request field the error is about, when it
            names one.
        doc_url (str | None): The error body's ``url``: a link to documentation about the error.
        method (str | None): HTTP method of the request.
        request_url (str | None): The URL the request was sent to.
        headers (Mapping[str, str]): The answer's headers.
        body (bytes): The answer's raw body.
        history (tuple[AttemptRecord, ...]): The failed attempts that came before this one, when the
            request was retried.
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
        api_version: str | None = None,
    ) -> None:
        self.status = status
        """HTTP status of the answer."""
        self.api_version = api_version
        """The API version that answered (``"v0.2b"``, ``"v1"``), when known."""
        self.message = message
        """The error body's ``message``, whole, however long (else a body's first bytes)."""
        self.code = code
        """The error body's machine-readable ``code``, when it has one."""
        self.error_code = ErrorCode.parse(code, api_version)
        """``code`` as an :class:`ErrorCode`; None when absent or unknown to the answering version."""
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


class FeatureNotInSubscriptionError(PermissionDeniedError):
    """403 ``feature_not_in_subscription``: the team's subscription lacks the feature."""

    def hint(self) -> str:
        return "The team's subscription does not include this feature; retrying will not help"


class VehicleCapacityDisabledError(PermissionDeniedError):
    """403 ``vehicle_capacity_disabled``: a stop's weight needs vehicle capacity turned on."""

    def hint(self) -> str:
        return (
            "The team does not track vehicle capacity: send the stop without a weight, "
            "or turn capacity on in the team settings"
        )


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


class PlanAlreadyOptimizedError(ConflictError):
    """409 ``plan_already_optimized``: optimize runs once, then reoptimize applies live changes;
    to a reoptimize, it means that there are no pending live changes to apply."""

    def hint(self) -> str:
        if self.request_url is not None and self.request_url.endswith(":reoptimize"):
            return (
                "The plan has no pending live changes to apply: make them first "
                "(stops.live_create / live_update / live_delete, or plans.live_edit)"
            )
        return "The plan is already optimized: use plans.reoptimize (after live changes) instead"


class OptimizationNotSupportedError(ConflictError):
    """409 ``plan_optimization_not_supported``: the optimization type does not fit the plan's state."""

    def hint(self) -> str:
        return (
            "This optimization is not supported for the plan in its current state "
            "(a distributed plan only takes reorder_changed_stops)"
        )


class OperationAlreadyDoneError(ConflictError):
    """409 ``operation_already_done``: the operation finished, so it cannot be canceled."""

    def hint(self) -> str:
        return "The operation already finished; read its result instead"


class GoneError(APIError):
    """410: related resources were deleted meanwhile, or the plan predates stop collections."""

    status_code = 410

    def hint(self) -> str:
        # Official schema: "Some related resources were deleted while the request was being
        # processed"; contract: plans created before 2023-04-01 have no stop collections.
        return (
            "Either a related resource (the plan, a driver, the depot) was deleted while the "
            "request was being processed (check it still exists, then retry), or the plan was "
            "created before 2023-04-01 and has no stop collections (no stop operation works on it)"
        )


class PreconditionFailedError(APIError):
    """412 (v1): a driver of the request is not linked to the plan or its depot.

    Sent without a code: ``Driver is not linked to plan`` (a stop names a driver the plan lacks) or
    ``Driver does not share depot with plan`` (a plan update names a driver of another depot).
    """

    status_code = 412

    def hint(self) -> str:
        if "not linked" in (self.message or ""):  # a stop named a driver the plan lacks
            return "A stop names only its plan's drivers: add the driver to the plan first (plans.update)"
        return (
            "Every driver of a plan must belong to the plan's depot (v1): link the driver to the plan's "
            "depot (drivers.update with the depot among its depots) and add it to the plan's drivers, or "
            "change the plan's depot (plans.update with depot=...)"
        )


class UnprocessableEntityError(APIError):
    """422: the request was well formed but could not be carried out."""

    status_code = 422


class StopNotEditableError(UnprocessableEntityError):
    """422 ``stop_not_editable``: the stop can no longer be changed."""

    def hint(self) -> str:
        return "The stop can no longer be edited (it was attempted, or its route is done)"


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

    def __init__(self, operation: _Operation, code: str, message: str) -> None:
        super().__init__(f"optimization {operation.id} failed: {code}: {message}")
        self.operation = operation
        self.code = code
        self.message = message


class OperationCanceledError(RoutePlanningError):
    """An operation's ``metadata.canceled`` is true; it will never produce a result."""

    def __init__(self, operation: _Operation) -> None:
        super().__init__(f"operation {operation.id} was canceled")
        self.operation = operation


class OperationTimeoutError(RoutePlanningError, TimeoutError):
    """An operation was not done before the wait's timeout ran out."""

    def __init__(self, operation_id: str, timeout: float) -> None:
        super().__init__(f"operation {operation_id} was not done after {timeout:g} s")
        self.operation_id = operation_id
        self.timeout = timeout
