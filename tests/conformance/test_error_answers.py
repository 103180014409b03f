"""Part 4: every documented error answer decodes to its typed error.

For each version, each 4xx and 5xx JSON answer its document gives (per operation and
status; the same schema is checked once per status), Hypothesis draws bodies from
the schema (its ``oneOf`` read as ``anyOf``: the branches overlap, see
``docs/differences.md``), and the client's error decoding
(``error_for_status``, what every call raises through) must give an error of the
status's class carrying the body's message, code and param, refined to the code's
own class where the code names one, and every code the documents list must be one the
version's ``ErrorCode`` knows.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema

import route_planning_async as rp
from route_planning_async import _error_answers
from route_planning_async._error_answers import error_for_status

from .schema import document, for_generation, resolved
from .versions import VERSIONS, Version

ERRORS = settings(
    max_examples=8,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def _any_of(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_any_of(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {("anyOf" if key == "oneOf" else key): _any_of(value) for key, value in schema.items()}


def _documented(version: Version) -> list[tuple[int, str, Any]]:
    """Each distinct (status, schema) of the document's 4xx and 5xx JSON answers, with the first
    operation that gives it."""
    seen: set[tuple[int, str]] = set()
    found: list[tuple[int, str, Any]] = []
    for template, operations in document(version.schema)["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation.get("responses", {}).items():
                if not re.fullmatch(r"[45]\d\d", status) or "content" not in answer:
                    continue
                schema = resolved(version.schema, answer["content"]["application/json"]["schema"])
                key = (int(status), json.dumps(schema, sort_keys=True))
                if key not in seen:
                    seen.add(key)
                    found.append((int(status), f"{method.upper()} {template}", schema))
    return found


def _codes(schema: Any) -> set[str]:
    """The ``code`` values a schema's ``enum`` lists."""
    if isinstance(schema, list):
        return {code for item in schema for code in _codes(item)}
    if not isinstance(schema, dict):
        return set()
    found = {code for value in schema.values() for code in _codes(value)}
    code = schema.get("properties", {}).get("code") if isinstance(schema.get("properties"), dict) else None
    if isinstance(code, dict):
        found |= {value for value in code.get("enum", ()) if isinstance(value, str)}
    return found


ANSWERS = [
    pytest.param(version, status, where, schema, id=f"{version.name} {status} {where}")
    for version in VERSIONS
    for status, where, schema in _documented(version)
]


def _status_class(status: int) -> type[rp.APIError]:
    return _error_answers._BY_STATUS.get(status) or (rp.ServerError if status >= 500 else rp.APIError)


@pytest.mark.parametrize(("version", "status", "where", "schema"), ANSWERS)
def test_a_documented_error_answer_decodes_to_its_typed_error(
    version: Version, status: int, where: str, schema: Any
) -> None:
    @ERRORS
    @given(body=from_schema(for_generation(_any_of(schema))))
    def decodes(body: Any) -> None:
        error = error_for_status(status, json.dumps(body).encode(), api_version=version.name)
        assert isinstance(error, _status_class(status)), (where, type(error))
        assert error.status == status
        if not isinstance(body, dict):
            return
        if isinstance(body.get("message"), str) and body["message"]:
            assert error.message == body["message"]
        code = body.get("code")
        if isinstance(code, str):
            assert error.code == code
            known = rp.ErrorCode.parse(code, version.name)
            by_code = _error_answers._BY_CODE.get(known) if known is not None else None
            if by_code is not None and issubclass(by_code, _status_class(status)):
                assert type(error) is by_code, (where, code, type(error))
        if isinstance(body.get("param"), str):
            assert error.param == body["param"]

    decodes()


@pytest.mark.parametrize("version", VERSIONS, ids=lambda version: version.name)
def test_every_documented_error_code_is_one_the_version_knows(version: Version) -> None:
    listed = {code for _, _, schema in _documented(version) for code in _codes(schema)}
    assert listed
    unknown = sorted(code for code in listed if rp.ErrorCode.parse(code, version.name) is None)
    assert unknown == []


def test_the_answers_cover_every_error_status_the_documents_give() -> None:
    statuses = {status for version in VERSIONS for status, _, _ in _documented(version)}
    assert {400, 401, 403, 404, 409, 422, 500} <= statuses
