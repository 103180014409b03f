"""The reviewed list: every fuzzer failure the project accepts, each with its reason.

Two kinds, and nothing else: the official files contradicting themselves (a fuzzer
reading them literally flags an answer no service could give otherwise), and the
semantic refusals a real service makes too (an unknown page token, an address that
cannot be geocoded, a duplicate e-mail). Each entry names the failure codes it covers
(``ST108`` response schema, ``ST202`` schema-valid request refused, ...), the
operations, and what in the request or answer singles it out; its evidence is the
section of ``docs/differences.md`` it names. Any failure no entry matches fails the
fuzz session.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["KNOWN", "Known", "classify"]


@attrs.frozen
class Known:
    """One accepted kind of failure."""

    id: str
    """A short name, tallied by the runs."""
    codes: frozenset[str]
    """The schemathesis failure codes it covers."""
    operations: str
    """A regular expression over ``METHOD /path`` of the operations it covers."""
    reason: str
    """Why it is not an infidelity of the emulator."""
    evidence: str
    """The section of ``docs/differences.md`` holding the evidence."""
    matches: Callable[[Any, Any, Any], bool] = lambda failure, case, response: True
    """Whether a failure of those codes and operations is this one (the failure, case, response)."""


def _body(response: Any) -> dict[str, Any]:
    try:
        value = json.loads(response.content)
    except (ValueError, TypeError, AttributeError):
        return {}
    return value if isinstance(value, dict) else {}


def _refused(
    *params: str, code: str | None = None, message: str | None = None
) -> Callable[[Any, Any, Any], bool]:
    """A 4xx answer naming one of ``params`` (a regex each), with ``code`` / ``message`` when given."""

    def matches(failure: Any, case: Any, response: Any) -> bool:
        body = _body(response)
        if not 400 <= response.status_code < 500:
            return False
        if params and not any(re.fullmatch(p, str(body.get("param", ""))) for p in params):
            return False
        if code is not None and body.get("code") != code:
            return False
        return message is None or re.search(message, str(body.get("message", ""))) is not None

    return matches


EMAIL_PATTERN = re.compile(
    r"^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$"
)
"""The e-mail ``pattern`` of the official files (drivers and members)."""

_PATH_IDS = (
    "planId", "stopId", "driverId", "depotId", "routeId", "operationId", "unassignedStopId", "memberId",
    "customStopPropertyId",
)  # fmt: skip


def _message(text: str) -> Callable[[Any, Any, Any], bool]:
    return lambda failure, case, response: text in str(getattr(failure, "message", ""))


def _emails(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [e for key, item in value.items() for e in ([item] if key == "email" else _emails(item))]
    if isinstance(value, list):
        return [e for item in value for e in _emails(item)]
    return []


def _email_in_pattern(failure: Any, case: Any, response: Any) -> bool:
    """A body whose e-mails all fit the files' ``pattern`` (so only ``format: email`` can refuse one)."""
    emails = [e for e in _emails(case.body) if isinstance(e, str)]
    return bool(emails) and all(EMAIL_PATTERN.fullmatch(e) for e in emails)


def _whole_id_in_path(failure: Any, case: Any, response: Any) -> bool:
    values = [str(v) for v in (case.path_parameters or {}).values()]
    url = str(getattr(getattr(response, "request", None), "url", ""))
    whole = any("/" in v for v in values) or re.search(r"/(\w+)%2F", url, re.IGNORECASE) is not None
    return whole and _refused(*_PATH_IDS)(failure, case, response)


_SEARCH_SIZES = frozenset({"1", "20", "1.0", "20.0"})

_EVIDENCE = "docs/differences.md#what-the-fuzzer-flags-reviewed"

KNOWN: tuple[Known, ...] = (
    # The files contradicting themselves.
    Known(
        "oneof-overlap",
        frozenset({"ST108"}),
        ".*",
        "error answers are a `oneOf` whose branches overlap ({message} and {message, param}, or "
        "{message, code} twice): every body matches two branches, so none is valid literally",
        _EVIDENCE,
        _message("valid under more than one of the schemas listed in the 'oneOf'"),
    ),
    Known(
        "filter-style",
        frozenset({"ST202", "ST201"}),
        "GET /(plans|drivers|operations|unassignedStops|plans/\\{planId\\}/stops|routes/\\{routeId\\}/stops)",
        "the list filters are one `filter` object parameter with no `style`: the fuzzer sends its "
        "keys bare (`?active=true`, and, the object being open, any key) while the files' text says "
        "`?filter.active=` or `?filter[active]=`",
        _EVIDENCE,
        _refused(message="is not a query parameter"),
    ),
    Known(
        "body-required-missing",
        frozenset({"ST202"}),
        ".*",
        "14 v1 operations leave `requestBody.required` out, so a request without a body is schema-valid; "
        "their bodies have required fields, and the service needs one",
        _EVIDENCE,
        _refused("", message="a JSON body is required"),
    ),
    Known(
        "search-page-size-bounds",
        frozenset({"ST201", "ST202"}),
        "GET /stops:search",
        "`maxPageSize` of `stops:search` defaults to 20 with `exclusiveMaximum: 20` (and "
        "`exclusiveMinimum: 1`): the emulator takes 1 to 20, its default included",
        _EVIDENCE,
        lambda failure, case, response: (
            str((case.query or {}).get("maxPageSize")) in {"1", "20", "1.0", "20.0"}
        ),
    ),
    Known(
        "email-pattern-vs-format",
        frozenset({"ST108", "ST201"}),
        "(POST|PATCH) /(drivers|members)(:import)?(/\\{\\w+\\})?",
        "an e-mail carries both a `pattern` and `format: email`, which disagree (label lengths, "
        "quoting): the emulator checks the pattern, the fuzzer the format too",
        _EVIDENCE,
        _email_in_pattern,
    ),
    Known(
        "whole-id-in-path",
        frozenset({"ST202"}),
        ".*",
        "answers carry ids whole (`plans/<id>`) and paths take them bare; a link the fuzzer infers "
        "puts the whole id (with its `/`) in a path parameter whose `pattern` refuses it",
        _EVIDENCE,
        _whole_id_in_path,
    ),
    # Semantic refusals a real service makes too.
    Known(
        "unknown-page-token",
        frozenset({"ST202"}),
        "GET .*",
        "a page token the service never handed out cannot be resumed",
        _EVIDENCE,
        _refused("pageToken", code="invalid_page_token"),
    ),
    Known(
        "page-size-whole",
        frozenset({"ST202"}),
        "GET .*",
        "`maxPageSize` is typed `number`: a page of 2.57 items does not exist (an integral float is taken)",
        _EVIDENCE,
        _refused("maxPageSize", message="whole number"),
    ),
    Known(
        "time-of-day",
        frozenset({"ST202"}),
        ".*",
        "times of day take any integer in the files, described as 'Hour of the day' and 'Minute of "
        "the hour': the service refuses 24:00 or minute 60 (the contract: hour 0..23, minute 0..59)",
        _EVIDENCE,
        _refused(r"(\[\d+\]\.|unassignedStops\[\d+\]\.)?(routeOverrides|timing)\.\w+Time\.(hour|minute)"),
    ),
    Known(
        "plan-date-range",
        frozenset({"ST202"}),
        "(POST|PATCH) /plans(/\\{planId\\})?",
        "'Does not accept dates that are too far in the future or past' (the files' `starts`)",
        _EVIDENCE,
        _refused(r"starts(\.year)?"),
    ),
    Known(
        "driver-or-allowed-drivers",
        frozenset({"ST202"}),
        ".*",
        "`driver` and `allowedDrivers` are mutually exclusive (the contract, Stops in a plan)",
        _EVIDENCE,
        _refused(r"(\[\d+\]\.)?allowedDrivers", message="mutually exclusive"),
    ),
    Known(
        "address-needs-a-field",
        frozenset({"ST202"}),
        ".*",
        "'you need to provide at least one of the fields in it' (the files' stop body address)",
        _EVIDENCE,
        _refused(message="at least one address field is required"),
    ),
    Known(
        "depot-in-use",
        frozenset({"ST202"}),
        "DELETE /depots/\\{depotId\\}",
        "a depot that is the main one or is in use cannot be removed: the file's own 400 "
        "`Depot cannot be deleted`",
        _EVIDENCE,
        _refused("", message="Depot cannot be deleted"),
    ),
    Known(
        "coordinates-in-pairs",
        frozenset({"ST202"}),
        ".*",
        "an address's latitude and longitude are set together or not at all (the contract, Stops in a "
        "plan: 'both must be set if either is'; the files: 'they will override any of the others')",
        _EVIDENCE,
        _refused(message="latitude and longitude must be set together"),
    ),
    Known(
        "search-filter-syntax",
        frozenset({"ST202"}),
        "GET /stops:search",
        "a `filter` or `keyword` is text in the search language the file describes (fields, "
        "operators, quoting): text outside it is refused as the service refuses it",
        _EVIDENCE,
        _refused("filter", "keyword", "sortField", "sortOrder", code="invalid_argument"),
    ),
    Known(
        "depot-rule",
        frozenset({"ST202"}),
        ".*",
        "v1's precondition: 'Drivers and plans must have the same depot configured' and 'Drivers must "
        "be part of the plan to be referenced by stops' (the file's 412 answers)",
        _EVIDENCE,
        lambda failure, case, response: response.status_code == 412,
    ),
    Known(
        "unknown-reference",
        frozenset({"ST202"}),
        ".*",
        "a body naming a depot, driver or custom stop property the team does not have (the files' 422 "
        "and 404 answers)",
        _EVIDENCE,
        _refused(message="(Depot|Driver|Main depot) not found|is not the id of a custom stop property"),
    ),
    Known(
        "failed-geocode",
        frozenset({"ST202"}),
        ".*",
        "an address that cannot be geocoded (422 `geocoding_failed`)",
        _EVIDENCE,
        _refused(code="geocoding_failed"),
    ),
    Known(
        "duplicate-email",
        frozenset({"ST202"}),
        "POST /(drivers|members)(:import)?",
        "a driver or member whose e-mail (or phone) the team already has",
        _EVIDENCE,
        lambda failure, case, response: (
            _refused(code="driver_already_exists")(failure, case, response)
            or _refused(message="conflict")(failure, case, response)
        ),
    ),
)


def classify(failure: Any, case: Any, response: Any) -> Known | None:
    """The entry of :data:`KNOWN` a failure is, or None."""
    operation = f"{case.method.upper()} {case.operation.path}"
    for known in KNOWN:
        matching = failure.code in known.codes and re.fullmatch(known.operations, operation)
        if matching and known.matches(failure, case, response):
            return known
    return None
