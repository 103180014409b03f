"""The pure core: requests and responses as data, and how an answer is decoded.

Nothing here does I/O. A namespace method builds a :class:`Request` (through its
version's endpoint table, ``v0_2b/_endpoints.py``), the scheduler admits it, the transport
turns it into bytes on the wire and back into a :class:`Response`, and
:func:`decode` turns that into JSON data or the right exception.
"""

from __future__ import annotations

import base64
import email.utils
import json
import math
import time
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import Any, Literal

import attrs

from route_planning_async._errors import (
    AttemptRecord,
    ConfigurationError,
    ServerError,
    ValidationError,
    error_for_status,
)
from route_planning_async._limits import Category

__all__ = [
    "AuthScheme",
    "Request",
    "Response",
    "auth_header",
    "decode",
    "encode_body",
    "parse_retry_after",
    "user_agent",
]

AuthScheme = Literal["basic", "bearer"]

JSON_CONTENT_TYPE = "application/json"


# Request and Response are built once per call; slotted classes that are not
# frozen store their fields several times faster than frozen ones. Nothing
# changes them after they are built (a retry sends the same Request again).


@attrs.define
class Request:
    """One HTTP request, before it is sent. Paths are relative to the base URL."""

    method: str
    """HTTP method, upper case."""
    path: str
    """Path below the base URL, starting with ``/`` (``/plans/p1:optimize``)."""
    category: Category
    """The rate-limit category the endpoint belongs to."""
    query: tuple[tuple[str, str], ...] = ()
    """Query parameters in the order they are sent."""
    body: bytes | None = None
    """The JSON body, already encoded; None for requests without a body."""
    weight: int = 1
    """Weight for weighted rules: the number of stops in a batch import, else 1."""

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


@attrs.define
class Response:
    """An HTTP answer, fully read."""

    status: int
    """HTTP status code."""
    headers: Mapping[str, str]
    """Response headers (case-insensitive mapping when it comes from aiohttp)."""
    body: bytes
    """The raw body."""

    @property
    def ok(self) -> bool:
        """True for 2xx."""
        return 200 <= self.status < 300

    def json(self) -> Any:
        """The body parsed as JSON (``json.JSONDecodeError`` when it is not JSON)."""
        return json.loads(self.body)


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

    The inputs refuse strings that UTF-8 cannot carry (lone surrogates) when they
    are built; this is the backstop for a body built some other way: the same
    :class:`~route_planning_async.ValidationError`, naming the field, and nothing sent.
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode()
    except UnicodeEncodeError:
        raise ValidationError(_unencodable_path(data, "") or "body", "cannot be encoded as UTF-8") from None


def _unencodable_path(value: Any, path: str) -> str:
    """The path of the first string in ``value`` (a key or a value) that UTF-8 cannot carry."""

    def bad(text: str) -> bool:
        try:
            text.encode()
        except UnicodeEncodeError:
            return True
        return False

    if isinstance(value, Mapping):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and bad(key):
                return where
            found = _unencodable_path(item, where)
            if found:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _unencodable_path(item, f"{path}[{index}]")
            if found:
                return found
    elif isinstance(value, str) and bad(value):
        return path or "body"
    return ""


def decode(request: Request, response: Response, *, base_url: str = "") -> Any:
    """The JSON data of a 2xx answer (None when it has no body), or raise the error.

    Every response body is JSON (contract, General conventions); a 2xx whose
    body is not raises :class:`~route_planning_async.ServerError`: the service
    answered, but not with anything usable.
    """
    if not response.ok:
        raise error_for(request, response, base_url=base_url)
    if not response.body or response.body.isspace():
        return None
    try:
        return json.loads(response.body)
    except ValueError:
        preview = response.body[:80].decode("utf-8", "replace")
        raise ServerError(
            response.status,
            f"the answer is not JSON: {preview!r}",
            method=request.method,
            request_url=base_url + request.path,
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
        request_url=base_url + request.path,
        retry_after=parse_retry_after(response.headers.get("Retry-After")),
        history=history,
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
