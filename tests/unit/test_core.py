"""The pure core (``_core.py``), without any network: decoding answers, Retry-After, auth.

The error classes and their mapping are tested in ``test_errors.py``, ids in ``test_ids.py``."""

from __future__ import annotations

import base64
import email.utils
import json

import pytest

from route_planning_async import (
    ConfigurationError,
    ConflictError,
    PlanNotWritableError,
    RateLimitError,
    ServerError,
    ValidationError,
)
from route_planning_async._core import (
    Request,
    Response,
    auth_header,
    decode,
    encode_body,
    parse_retry_after,
)
from route_planning_async._rate_limits._limits import Category

GET = Request("GET", "/plans/p1", Category.READ)


def answer(status: int, body: bytes, **headers: str) -> Response:
    return Response(status, headers, body)


def test_a_2xx_json_body_is_decoded() -> None:
    assert decode(GET, answer(200, b'{"id": "plans/p1"}')) == {"id": "plans/p1"}


@pytest.mark.parametrize("body", [b'{"a": 1}\n', b"[1, 2] \r\n\t", b'{"a": "\xc3\xa9"}'])
def test_a_json_value_may_be_followed_by_whitespace_only(body: bytes) -> None:
    assert decode(GET, answer(200, body)) == json.loads(body)
    with pytest.raises(ServerError, match="not JSON"):
        decode(GET, answer(200, body + b"x"))
    with pytest.raises(ServerError, match="not JSON"):
        decode(GET, answer(200, body.strip() + b"{}"))


def test_an_empty_2xx_body_decodes_to_none() -> None:
    assert decode(GET, answer(204, b"")) is None


def test_a_2xx_body_that_is_not_json_is_a_server_error_with_the_real_status() -> None:
    with pytest.raises(ServerError) as caught:
        decode(GET, answer(200, b"<html>oops</html>"), base_url="https://h/public/v0.2b")
    assert caught.value.status == 200
    assert "not JSON" in str(caught.value)
    assert "https://h/public/v0.2b/plans/p1" in str(caught.value)


def test_an_error_answer_raises_the_mapped_error_naming_the_request() -> None:
    body = b'{"message": "Plan is not writable", "code": "plan_not_writable", "param": "p", "url": "u"}'
    with pytest.raises(PlanNotWritableError) as caught:
        decode(GET, answer(409, body, **{"X-Request-Id": "r1"}), base_url="https://h/public/v0.2b")
    error = caught.value
    assert (error.status, error.message, error.code, error.param, error.doc_url) == (
        409,
        "Plan is not writable",
        "plan_not_writable",
        "p",
        "u",
    )
    assert (error.method, error.request_url) == ("GET", "https://h/public/v0.2b/plans/p1")
    assert error.headers == {"X-Request-Id": "r1"}
    assert error.body == body
    assert "live" in str(error)


def test_an_error_answer_that_is_not_json_still_raises() -> None:
    with pytest.raises(ServerError) as caught:
        decode(GET, answer(503, b"upstream unavailable"))
    assert caught.value.message == "upstream unavailable"
    assert caught.value.request_url == "/plans/p1"


@pytest.mark.parametrize(
    ("header", "expected"),
    [("7", 7.0), ("0.5", 0.5), ("-3", 0.0), ("soon", None), ("nan", None)],
)
def test_retry_after_in_seconds(header: str, expected: float | None) -> None:
    assert parse_retry_after(header) == expected


def test_retry_after_as_an_http_date() -> None:
    now = 1_700_000_000.0
    header = email.utils.formatdate(now + 12, usegmt=True)
    assert parse_retry_after(header, now=now) == pytest.approx(12.0)


def test_a_429_carries_retry_after() -> None:
    with pytest.raises(RateLimitError) as caught:
        decode(GET, Response(429, {"Retry-After": "3"}, b'{"message": "slow down"}'))
    assert caught.value.retry_after == 3.0


def test_basic_auth_is_the_key_as_user_with_an_empty_password() -> None:
    assert auth_header("k3y", "basic") == "Basic " + base64.b64encode(b"k3y:").decode()
    assert auth_header("k3y", "bearer") == "Bearer k3y"
    with pytest.raises(ConfigurationError):
        auth_header("k3y", "digest")  # type: ignore[arg-type]


def test_a_body_utf8_cannot_carry_is_a_validation_error_naming_the_field() -> None:
    assert encode_body({"notes": "café"}) == '{"notes":"café"}'.encode()
    with pytest.raises(ValidationError) as info:
        encode_body({"stops": [{"notes": "ok"}, {"recipient": {"name": "caf\udce9"}}]})
    assert info.value.field == "stops[1].recipient.name"
    assert "UTF-8" in info.value.rule
    with pytest.raises(ValidationError) as info:
        encode_body(["\ud800"])
    assert info.value.field == "[0]"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"x": float("nan")}, "x"),
        ({"a": [1, float("-inf")]}, "a[1]"),
        ({"x": {1}}, "x"),
        (float("inf"), "body"),
    ],
)
def test_a_body_that_is_not_json_is_a_validation_error_naming_the_field(body: object, field: str) -> None:
    # json.dumps writes NaN and Infinity, which no JSON parser reads.
    with pytest.raises(ValidationError) as info:
        encode_body(body)
    assert info.value.field == field


@pytest.mark.parametrize(
    "body",
    [
        b'{"id": "plans/p1", "title": "Caf\xc3\xa9"}',
        '{"id": "plans/p1", "title": "Café"}'.encode("utf-16"),
        b'\xef\xbb\xbf{"id": "plans/p1", "title": "Caf\xc3\xa9"}',
        b'  {"id": "plans/p1", "title": "Caf\xc3\xa9"}',
    ],
)
def test_a_json_body_is_read_in_any_encoding_json_allows(body: bytes) -> None:
    """UTF-8 opening with { or [ is decoded at once; anything else (UTF-16, a BOM) as json.loads reads it."""
    request = Request("GET", "/plans/p1", Category.READ)
    assert decode(request, Response(200, {}, body)) == {"id": "plans/p1", "title": "Café"}


# Hardening, fifth round: answers nested past any document, numbers of hundreds of digits.

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("body", [DEEP, b'{"id": ' + DEEP + b"}", b'{"n": ' + b"9" * 401 + b"}"])
def test_a_deep_or_huge_answer_is_the_librarys_error_with_its_status(body: bytes) -> None:
    with pytest.raises(ServerError, match=r"nests too deep|more than 64 digits") as caught:
        decode(GET, answer(200, body))
    assert caught.value.status == 200
    conflict = b'{"message": "busy", "code": "plan_not_writable", "param": ' + body + b"}"
    with pytest.raises(ConflictError) as refused:
        decode(GET, answer(409, conflict))
    assert refused.value.status == 409
