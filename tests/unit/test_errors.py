"""The exception tree (``_errors/__init__.py``): its shape, the mapping of error answers,
the attributes every error carries, the hints and the error body parsing."""

from __future__ import annotations

import json
import re

import pytest

import route_planning_async as rp
from route_planning_async import _errors
from route_planning_async._errors import AttemptRecord
from route_planning_async._errors import _answers as _error_answers
from route_planning_async._errors._answers import error_for_status
from route_planning_async.redis import RedisBackendError

URL = "https://api.example.test/public/v0.2b/plans/p1"


def body(**fields: str) -> bytes:
    return json.dumps(fields).encode()


# The tree ------------------------------------------------------------------


def _drawn_tree() -> list[tuple[str, str]]:
    """``(class, parent)`` for every class drawn below the root of the module docstring's tree."""
    assert _errors.__doc__ is not None
    pairs: list[tuple[str, str]] = []
    stack: list[tuple[int, str]] = []  # (column of the name, name), from the root down
    for line in _errors.__doc__.splitlines():
        match = re.search(r"(?:^ {4}|── )([A-Z][A-Za-z]+Error)\b", line)
        if match is None:
            continue
        column, name = match.start(1), match.group(1)
        while stack and stack[-1][0] >= column:
            stack.pop()
        if stack:
            pairs.append((name, stack[-1][1]))
        stack.append((column, name))
    return pairs


def test_the_drawn_tree_is_the_real_one() -> None:
    drawn = _drawn_tree()
    classes = {name: getattr(rp, name, None) or getattr(_errors, name, None) for name, _ in drawn}
    classes["RedisBackendError"] = RedisBackendError
    classes["RoutePlanningError"] = rp.RoutePlanningError
    assert [parent for name, parent in drawn if name == "RequestTimeoutError"] == ["TransportError"]
    for name, parent in drawn:
        cls = classes[name]
        assert cls is not None, name
        assert classes[parent] in cls.__bases__, f"{name} should derive from {parent}"
    # Every exception class of the module is drawn, and no other.
    defined = {
        name
        for name, value in vars(_errors).items()
        if isinstance(value, type) and issubclass(value, Exception) and value.__module__ == _errors.__name__
    }
    assert defined | {"RedisBackendError"} == {name for name, _ in drawn} | {"RoutePlanningError"}


def test_the_standard_library_bases_that_callers_may_catch() -> None:
    assert issubclass(rp.ValidationError, ValueError)
    assert issubclass(rp.ConfigurationError, ValueError)
    assert issubclass(rp.OperationTimeoutError, TimeoutError)
    assert not issubclass(rp.RequestTimeoutError, TimeoutError)


# Mapping of error answers --------------------------------------------------


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, rp.BadRequestError),
        (401, rp.AuthenticationError),
        (403, rp.PermissionDeniedError),
        (404, rp.NotFoundError),
        (409, rp.ConflictError),
        (410, rp.GoneError),
        (422, rp.UnprocessableEntityError),
        (429, rp.RateLimitError),
        (500, rp.ServerError),
        (502, rp.ServerError),
        (503, rp.ServerError),
        (599, rp.ServerError),
        (405, rp.APIError),
        (418, rp.APIError),
        (499, rp.APIError),
    ],
)
def test_each_status_maps_to_its_class(status: int, cls: type[rp.APIError]) -> None:
    error = error_for_status(status, body(message="m"))
    assert type(error) is cls
    assert error.status == status


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        ("plan_not_writable", rp.PlanNotWritableError),
        ("plan_optimization_in_progress", rp.OptimizationInProgressError),
        ("some_other_conflict", rp.ConflictError),
    ],
)
def test_a_409_code_picks_the_conflict_subclass(code: str, cls: type[rp.APIError]) -> None:
    error = error_for_status(409, body(message="m", code=code))
    assert type(error) is cls
    assert error.code == code


def test_the_status_class_attribute_names_the_status() -> None:
    assert rp.NotFoundError.status_code == 404
    assert rp.PlanNotWritableError.status_code == 409
    assert rp.APIError.status_code is None
    assert rp.ServerError.status_code is None


def test_retry_after_is_kept_on_a_429_only() -> None:
    limited = error_for_status(429, body(message="slow down"), retry_after=3.0)
    assert isinstance(limited, rp.RateLimitError)
    assert limited.retry_after == 3.0
    assert error_for_status(429, b"").retry_after is None  # type: ignore[attr-defined]
    assert not hasattr(error_for_status(503, b"", retry_after=3.0), "retry_after")


# Attributes ----------------------------------------------------------------


def test_an_api_error_carries_the_request_and_the_body_fields_apart() -> None:
    raw = body(message="Plan is not writable", code="plan_not_writable", param="p", url="https://docs/e")
    error = error_for_status(409, raw, headers={"X-Request-Id": "r1"}, method="PATCH", request_url=URL)
    assert (error.method, error.request_url) == ("PATCH", URL)
    assert (error.status, error.message, error.code, error.param, error.doc_url) == (
        409,
        "Plan is not writable",
        "plan_not_writable",
        "p",
        "https://docs/e",
    )
    assert error.headers == {"X-Request-Id": "r1"}
    assert error.body == raw
    assert error.history == ()
    assert not hasattr(error, "url")


def test_a_transport_error_carries_the_same_request_attributes() -> None:
    error = rp.TransportError("cannot connect", method="GET", request_url=URL, maybe_sent=False)
    assert (error.method, error.request_url, error.maybe_sent, error.history) == ("GET", URL, False, ())
    assert str(error) == f"GET {URL}: cannot connect"
    assert not hasattr(error, "url")
    timeout = rp.RequestTimeoutError("timed out", method="POST", request_url=URL, maybe_sent=True)
    assert (timeout.method, timeout.request_url, timeout.maybe_sent) == ("POST", URL, True)


def test_an_api_error_without_a_request_says_only_the_status() -> None:
    error = rp.NotFoundError(404, "No such plan")
    assert (error.method, error.request_url, error.doc_url) == (None, None, None)
    assert str(error) == "404: No such plan"


def test_the_message_names_the_request_code_param_and_attempts() -> None:
    history = [AttemptRecord(503, "503 Service Unavailable", 0.5), AttemptRecord(None, "reset", 1.0)]
    error = error_for_status(
        400,
        body(message="Bad title", code="invalid", param="title", url="https://docs/e"),
        method="POST",
        request_url=URL,
        history=history,
    )
    assert str(error) == f"POST {URL} -> 400: Bad title (code=invalid, param=title) after 3 attempts"
    assert [record.status for record in error.history] == [503, None]
    # The documentation link is an attribute, not part of the message.
    assert "docs" not in str(error)


def test_a_code_without_a_param() -> None:
    error = error_for_status(404, body(message="No such plan", code="not_found"))
    assert str(error) == "404: No such plan (code=not_found)"


def test_attempt_records_describe_themselves() -> None:
    assert repr(AttemptRecord(429, "429 Too Many Requests", 1.25)) == (
        "AttemptRecord(status=429, description='429 Too Many Requests', delay=1.250)"
    )


def test_a_validation_error_names_the_field_and_the_rule() -> None:
    error = rp.ValidationError("notes", "must be 1 to 2000 characters, got 0")
    assert (error.field, error.rule) == ("notes", "must be 1 to 2000 characters, got 0")
    assert str(error) == "notes: must be 1 to 2000 characters, got 0"
    assert error.at("stops[3]").field == "stops[3].notes"
    assert rp.ValidationError("[2]", "bad").at("stops").field == "stops[2]"
    assert error.at("stops[3]").rule == error.rule


# Hints ---------------------------------------------------------------------


def test_a_plan_that_is_not_writable_points_to_the_live_endpoints() -> None:
    error = error_for_status(409, body(message="Plan is not writable", code="plan_not_writable"))
    hint = error.hint()
    assert hint is not None
    assert "live_create" in hint
    assert str(error).endswith(f". {hint}")


def test_an_optimization_in_progress_says_to_wait() -> None:
    error = error_for_status(409, body(message="busy", code="plan_optimization_in_progress"))
    assert error.hint() == "An optimization of this plan is running; wait for its operation to finish"


def test_410_explains_both_meanings() -> None:
    error = error_for_status(410, body(message="Gone"))
    assert "2023-04-01" in str(error)
    assert "deleted while the request was being processed" in str(error)


# Official error codes ---------------------------------------------------------

OFFICIAL_CODES = {
    "depot_missing_start_address", "depot_not_found", "driver_not_active", "feature_not_in_subscription",
    "main_depot_not_found", "no_drivers_available", "no_end_time_and_max_stops_per_driver",
    "operation_already_done", "operation_not_found", "plan_already_distributed", "plan_already_optimized",
    "plan_concurrent_modification", "plan_inaccessible", "plan_not_optimized", "plan_not_writable",
    "plan_optimization_in_progress", "plan_optimization_not_supported", "route_inaccessible",
    "stop_not_editable", "vehicle_capacity_disabled",
}  # fmt: skip


def test_error_code_names_every_official_code() -> None:
    assert {code.value for code in rp.ErrorCode.for_version("v0.2b")} == OFFICIAL_CODES


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (409, "plan_already_optimized", rp.PlanAlreadyOptimizedError),
        (409, "plan_optimization_not_supported", rp.OptimizationNotSupportedError),
        (409, "operation_already_done", rp.OperationAlreadyDoneError),
        (422, "stop_not_editable", rp.StopNotEditableError),
        (403, "feature_not_in_subscription", rp.FeatureNotInSubscriptionError),
        (403, "vehicle_capacity_disabled", rp.VehicleCapacityDisabledError),
        (409, "plan_not_writable", rp.PlanNotWritableError),
        (409, "plan_optimization_in_progress", rp.OptimizationInProgressError),
    ],
)
def test_an_official_code_picks_its_class(status: int, code: str, cls: type[rp.APIError]) -> None:
    error = error_for_status(status, body(message="m", code=code))
    assert type(error) is cls
    assert isinstance(error, _error_answers._BY_STATUS[status])
    assert error.error_code == rp.ErrorCode(code)
    assert error.code == code
    assert error.hint()


def test_an_unknown_code_is_kept_as_a_string() -> None:
    error = error_for_status(409, body(message="m", code="plan_teleported"))
    assert (error.code, error.error_code) == ("plan_teleported", None)
    assert type(error) is rp.ConflictError
    assert rp.ErrorCode.parse(None) is None
    assert rp.ErrorCode.parse("stop_not_editable") is rp.ErrorCode.STOP_NOT_EDITABLE
    assert rp.ErrorCode.STOP_NOT_EDITABLE == "stop_not_editable"


def test_a_decode_error_names_the_path_and_the_value() -> None:
    error = rp.DecodeError("hour", 24, "out of range").inside("latestAttemptTime").inside("timing")
    assert (error.path, error.value, error.reason) == ("timing.latestAttemptTime.hour", 24, "out of range")
    assert str(error) == "cannot decode the answer at timing.latestAttemptTime.hour: out of range (got 24)"
    assert rp.DecodeError("id", None, "missing").inside(3).path == "[3].id"
    assert rp.DecodeError("", "x" * 500, "bad").inside("a").path == "a"
    assert len(str(rp.DecodeError("", "x" * 500, "bad"))) < 300
    assert isinstance(error, rp.RoutePlanningError)
    assert not isinstance(error, ValueError)


def test_other_errors_carry_no_hint() -> None:
    for status in (400, 404, 409, 429, 500):
        error = error_for_status(status, body(message="m"))
        assert error.hint() is None
        assert str(error) == f"{status}: m"


# Body parsing --------------------------------------------------------------


def test_an_error_body_that_is_not_json_gives_its_first_bytes_as_the_message() -> None:
    error = error_for_status(503, b"  upstream unavailable\n")
    assert type(error) is rp.ServerError
    assert (error.message, error.code, error.param, error.doc_url) == (
        "upstream unavailable",
        None,
        None,
        None,
    )


def test_a_long_body_is_cut_to_200_bytes_and_bad_utf8_is_replaced() -> None:
    assert error_for_status(502, b"x" * 500).message == "x" * 200
    assert error_for_status(502, b"\xffoops").message == "\ufffdoops"


@pytest.mark.parametrize("raw", [b"", b"   ", b"[1, 2]", b'"text"', b"null"])
def test_a_body_that_is_not_an_object_gives_its_text_or_the_status(raw: bytes) -> None:
    message = error_for_status(418, raw).message
    assert message == ("HTTP 418" if not raw.strip() else raw.decode())


def test_fields_that_are_not_strings_are_ignored() -> None:
    raw = b'{"message": 7, "code": ["x"], "param": null, "url": {}}'
    error = error_for_status(400, raw)
    assert (error.message, error.code, error.param, error.doc_url) == ("HTTP 400", None, None, None)


def test_an_unknown_code_keeps_the_status_class() -> None:
    error = error_for_status(400, body(message="m", code="plan_not_found"))
    assert type(error) is rp.BadRequestError
    assert error.code == "plan_not_found"


@pytest.mark.parametrize(
    ("status", "expected"),
    [(409, "PlanNotWritableError"), (500, "ServerError"), (503, "ServerError"), (429, "RateLimitError")],
)
def test_a_code_refines_its_status_class_but_never_overrules_it(status: int, expected: str) -> None:
    # A 5xx carrying a known code may have been applied: it must stay a ServerError
    # (retried, reconciled by the importer), not become a definite refusal.
    body = json.dumps({"message": "m", "code": "plan_not_writable", "param": "", "url": ""}).encode()
    error = error_for_status(status, body)
    assert type(error).__name__ == expected
    assert error.code == "plan_not_writable"
