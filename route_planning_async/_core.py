"""The pure core: requests and responses as data, and how an answer is decoded.

Nothing here does I/O. A namespace method builds a :class:`Request` (through an
:class:`Endpoint` of its version's endpoint table, ``v0_2b/_endpoints.py`` or
``v1/_endpoints.py``), the scheduler admits it, the transport
turns it into bytes on the wire and back into a :class:`Response`, and
:func:`decode` turns that into JSON data or the right exception.
"""

from __future__ import annotations

import base64
import email.utils
import json
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from typing import Any, Literal, Protocol

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import (
    AttemptRecord,
    ConfigurationError,
    ServerError,
    ValidationError,
)
from route_planning_async._errors._answers import error_for_status
from route_planning_async._json import JSONInputError, read_json
from route_planning_async._rate_limits._limits import Category

__all__ = [
    "AttemptHooks",
    "AuthScheme",
    "Endpoint",
    "Request",
    "Response",
    "auth_header",
    "decode",
    "encode_body",
    "json_problem",
    "parse_retry_after",
    "user_agent",
]

AuthScheme = Literal["basic", "bearer"]

JSON_CONTENT_TYPE = "application/json"


# Request and Response are built once per call; slotted classes that are not
# frozen store their fields several times faster than frozen ones. Nothing
# changes them after they are built (a retry sends the same Request again).


class AttemptHooks(Protocol):
    """What a caller is told of each attempt of its request (the bulk importer, of its batches).

    Called as an attempt is handed to the transport (up to then the service cannot
    have seen the request), and :meth:`attempt_ended` as that attempt ends,
    answered or not (a retry then waits for capacity again).
    """

    def __call__(self) -> None:
        """An attempt is handed to the transport."""

    def attempt_ended(self) -> None:
        """The attempt ended: answered, failed or cancelled."""


@fields_documented(title="Attributes")
@attrs.define
class Request:
    """One HTTP request, before it is sent. Paths are relative to the base URL.

    Attributes:
        method (str): HTTP method, upper case.
        path (str): Path below the base URL, starting with ``/`` (``/plans/p1:optimize``).
        category (Category): The rate-limit category the endpoint belongs to.
        query (tuple[tuple[str, str], ...]): Query parameters in the order they are sent.
        body (bytes | None): The JSON body, already encoded; None for requests without a body.
        weight (int): Weight for weighted rules: the number of stops in a batch import, else 1.
        api_version (str | None): The API version of the endpoint (``"v0.2b"``, ``"v1"``): an error
            answer's code is read as that version's (:meth:`ErrorCode.parse`); None reads it as any
            version's.
    """

    method: str = attrs.field(metadata=described("HTTP method, upper case."))
    path: str = attrs.field(
        metadata=described("Path below the base URL, starting with ``/`` (``/plans/p1:optimize``).")
    )
    category: Category = attrs.field(metadata=described("The rate-limit category the endpoint belongs to."))
    query: tuple[tuple[str, str], ...] = attrs.field(
        default=(), metadata=described("Query parameters in the order they are sent.")
    )
    body: bytes | None = attrs.field(
        default=None, metadata=described("The JSON body, already encoded; None for requests without a body.")
    )
    weight: int = attrs.field(
        default=1,
        metadata=described("Weight for weighted rules: the number of stops in a batch import, else 1."),
    )
    api_version: str | None = attrs.field(
        default=None,
        kw_only=True,
        metadata=described(
            """The API version of the endpoint (``"v0.2b"``, ``"v1"``): an error answer's code is
            read as that version's (:meth:`ErrorCode.parse`); None reads it as any version's."""
        ),
    )

    @property
    def idempotent(self) -> bool:
        """Whether repeating the request after an unknown outcome is harmless.

        GET is; so is DELETE, which the contract says to retry after a 500
        (Plans, rule 3). POST and PATCH are not retried blindly.
        """
        return self.method in ("GET", "DELETE")

    def describe(self) -> str:
        """``METHOD /path`` for logs and messages (never holds credentials)."""
        return f"{self.method} {self.path}"

    def url(self, base_url: str) -> str:
        """The URL below ``base_url`` (the query left out): the one place an error's
        ``request_url`` is made, for the first attempt and after retries alike."""
        return base_url + self.path


@fields_documented(title="Attributes")
@attrs.define
class Response:
    """An HTTP answer, fully read.

    Attributes:
        status (int): HTTP status code.
        headers (Mapping[str, str]): Response headers (case-insensitive mapping when it comes from
            aiohttp).
        body (bytes): The raw body.
    """

    status: int = attrs.field(metadata=described("HTTP status code."))
    headers: Mapping[str, str] = attrs.field(
        metadata=described("Response headers (case-insensitive mapping when it comes from aiohttp).")
    )
    body: bytes = attrs.field(metadata=described("The raw body."))

    @property
    def ok(self) -> bool:
        """True for 2xx."""
        return 200 <= self.status < 300

    def json(self) -> Any:
        """The body parsed as JSON (a ``ValueError`` when it is not JSON or passes a bound of
        ``_json.py``)."""
        return read_json(self.body)


_NO_BODY = object()


@attrs.frozen
class Endpoint:
    """One endpoint of an API version: a row of the version's endpoint table."""

    name: str
    """The method that calls it, as ``resource.method``."""
    method: str
    """HTTP method."""
    template: str
    """Path below the base URL, with ``{placeholders}`` for already checked ids."""
    category: Category
    """Its rate-limit category."""
    sends_body: bool
    """Whether the request carries a JSON body (action calls do not)."""
    max_page_size: int | None = attrs.field(default=None, kw_only=True)
    """Largest ``maxPageSize`` of a list endpoint (the smallest is 1); None for
    every other endpoint, and for a list that takes no page size."""
    max_page_token: int | None = attrs.field(default=255, kw_only=True)
    """Longest page token of a list endpoint, in characters (the schemas' ``maxLength``;
    the shortest is 1); None where the schema sets no bound."""
    api_version: str | None = attrs.field(default=None, kw_only=True)
    """The API version the endpoint belongs to (``"v0.2b"``, ``"v1"``), given to its
    requests (:attr:`Request.api_version`) so that their error codes are read as its own."""

    def request(
        self,
        path: Mapping[str, str] | None = None,
        *,
        query: Iterable[tuple[str, str]] = (),
        json: object = _NO_BODY,
        weight: int = 1,
    ) -> Request:
        """Build the request. Path values must already have been checked by ``_ids``."""
        if self.sends_body == (json is _NO_BODY):
            wrong = "no body given to" if self.sends_body else "a body given to"
            raise AssertionError(f"{self.name}: {wrong} {self.method} {self.template}")
        return Request(
            self.method,
            self.template.format_map(path or {}),
            self.category,
            tuple(query),
            None if json is _NO_BODY else encode_body(json),
            weight,
            api_version=self.api_version,
        )


def auth_header(api_key: str, scheme: AuthScheme) -> str:
    """The ``Authorization`` value: Basic ``base64("<key>:")`` (primary) or Bearer."""
    if scheme == "basic":
        token = base64.b64encode(f"{api_key}:".encode()).decode("ascii")
        return f"Basic {token}"
    if scheme == "bearer":
        return f"Bearer {api_key}"
    raise ConfigurationError(f"auth must be 'basic' or 'bearer', got {scheme!r}")


def user_agent() -> str:
    """``route_planning_async/<version>``, naming the installed package."""
    try:
        version = metadata.version("route_planning_async")
    except metadata.PackageNotFoundError:
        version = "0+unknown"
    return f"route_planning_async/{version}"


def encode_body(data: Any) -> bytes:
    """Compact JSON, UTF-8.

    The inputs refuse what JSON cannot carry (lone surrogates, NaN) when they
    are built; this is the backstop for a body built some other way: a
    :class:`~route_planning_async.ValidationError` naming the field (see
    :func:`json_problem`), and nothing sent.
    """
    try:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return text.encode()
    except (TypeError, ValueError, RecursionError):
        # UnicodeEncodeError is a ValueError.
        field, rule = json_problem(data) or ("", "cannot be encoded as JSON")
        raise ValidationError(field or "body", rule) from None


_JSON_TYPES = "str, int, float, bool, None, list or dict"


def json_problem(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first part of ``value`` that is not JSON, as ``(field path, rule)``; None when it all is.

    JSON is: a ``dict`` with ``str`` keys, a ``list`` or ``tuple``, a ``str``
    that UTF-8 can carry, a finite ``int`` or ``float``, ``bool`` and ``None``.
    ``path`` names ``value`` itself (``""`` for a body's root).
    """
    try:
        return _json_problem(value, path, set())
    except RecursionError:
        return (path, "is nested too deeply to encode as JSON")


def _json_problem(value: Any, path: str, enclosing: set[int]) -> tuple[str, str] | None:
    if value is None or isinstance(value, bool | int):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, f"must be a finite number, got {value!r}")
    if isinstance(value, str):
        return None if _utf8(value) else (path, "cannot be encoded as UTF-8")
    if not isinstance(value, dict | list | tuple):
        return (path, f"is not a JSON value ({_JSON_TYPES}), got {type(value).__name__}")
    if id(value) in enclosing:
        return (path, "contains itself, which JSON cannot encode")
    enclosing.add(id(value))
    try:
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return (path, f"has a key that is not a str: {type(key).__name__} {key!r}")
                where = f"{path}.{key}" if path else key
                if not _utf8(key):
                    return (where, "cannot be encoded as UTF-8")
                found = _json_problem(item, where, enclosing)
                if found:
                    return found
        else:
            for index, item in enumerate(value):
                found = _json_problem(item, f"{path}[{index}]", enclosing)
                if found:
                    return found
    finally:
        enclosing.discard(id(value))
    return None


def _utf8(text: str) -> bool:
    """Whether UTF-8 can carry ``text`` (a lone surrogate it cannot)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def decode(request: Request, response: Response, *, base_url: str = "") -> Any:
    """The JSON data of a 2xx answer (None when it has no body), or raise the error.

    Every response body is JSON (contract, General conventions); a 2xx whose
    body is not raises :class:`~route_planning_async.ServerError`: the service
    answered, but not with anything usable.
    """
    if not response.ok:
        raise error_for(request, response, base_url=base_url)
    body = response.body
    if not body or body.isspace():
        return None
    try:
        return read_json(body)
    except JSONInputError as exc:
        preview = response.body[:80].decode("utf-8", "replace")
        raise ServerError(
            response.status,
            f"the answer {'is not JSON' if exc.syntax else exc}: {preview!r}",
            method=request.method,
            request_url=request.url(base_url),
            headers=response.headers,
            body=response.body,
        ) from None


def error_for(
    request: Request,
    response: Response,
    *,
    base_url: str = "",
    history: Sequence[AttemptRecord] = (),
) -> Exception:
    """The exception for an error answer, with the attempts that came before it."""
    return error_for_status(
        response.status,
        response.body,
        headers=response.headers,
        method=request.method,
        request_url=request.url(base_url),
        retry_after=parse_retry_after(response.headers.get("Retry-After")),
        history=history,
        api_version=request.api_version,
    )


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if math.isnan(seconds) or math.isinf(seconds):
        return None
    return max(0.0, seconds)
