"""The transport seam: a :class:`~._core.Request` in, a :class:`~._core.Response` out.

:class:`Transport` is the protocol the client sends every attempt through;
:class:`AiohttpTransport` is the default one. A transport knows nothing of rate
limits, retries or models. Its only decisions are how to put bytes on the wire
and how to wrap what its HTTP library raises: a failure to reach the service is
a :class:`~route_planning_async.TransportError`, with ``maybe_sent`` False only
when the request cannot have left (the connection was never made).
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from typing import Any, Protocol

import aiohttp

from route_planning_async._core import JSON_CONTENT_TYPE, Request, Response
from route_planning_async._errors import RequestTimeoutError, TransportError

__all__ = ["AiohttpTransport", "Transport"]


class Transport(Protocol):
    """What the client sends each attempt of each request through.

    ``request.path`` is relative to the service's base URL and the request
    carries no credentials: a transport knows where the service is and how to
    authenticate (the default :class:`AiohttpTransport` is given the client's
    ``base_url`` and ``Authorization`` header). A transport given to
    ``RoutePlanningClient(transport=...)`` (a test double, another HTTP
    library) is the caller's: the client neither opens nor closes it.
    """

    async def send(self, request: Request) -> Response:
        """Send one attempt and return the whole answer, or raise ``TransportError``."""


class AiohttpTransport:
    """Sends requests on one :class:`aiohttp.ClientSession`."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        base_url: str,
        headers: Mapping[str, str],
        *,
        ssl_context: ssl.SSLContext | None,
        timeout: aiohttp.ClientTimeout | None,
    ) -> None:
        """``headers`` and ``timeout`` are sent with every request; leave them empty
        (None) when the session already carries them as its defaults."""
        self._session = session
        self._base_url = base_url
        # Only what differs from aiohttp's defaults is passed: every keyword
        # argument costs aiohttp time on every request.
        self._options: dict[str, Any] = {"allow_redirects": False}
        if ssl_context is not None:
            # Without one, aiohttp verifies against the system's CAs.
            self._options["ssl"] = ssl_context
        if timeout is not None:
            self._options["timeout"] = timeout
        if headers:
            self._options["headers"] = dict(headers)
        self._body_options = {**self._options, "headers": {**headers, "Content-Type": JSON_CONTENT_TYPE}}

    async def send(self, request: Request) -> Response:
        """Send ``request`` and read the whole answer."""
        url = self._base_url + request.path
        # Action calls without a body send neither a body nor a Content-Type
        # (contract, General conventions).
        options = self._options if request.body is None else {**self._body_options, "data": request.body}
        if request.query:
            options = {**options, "params": request.query}
        try:
            # Awaited rather than entered with "async with": the context manager's
            # exit adds a coroutine per request for what release() does here.
            answer = await self._session.request(request.method, url, **options)
            try:
                body = await answer.read()
            finally:
                answer.release()
            return Response(answer.status, answer.headers, body)
        except TimeoutError as exc:
            raise RequestTimeoutError(
                "timed out", method=request.method, request_url=url, maybe_sent=True
            ) from exc
        except aiohttp.ClientConnectorError as exc:
            # The connection was never made: the service cannot have seen the request.
            raise TransportError(
                f"cannot connect: {exc.os_error}",
                method=request.method,
                request_url=url,
                maybe_sent=False,
            ) from exc
        except aiohttp.ClientError as exc:
            raise TransportError(
                f"{type(exc).__name__}: {exc}", method=request.method, request_url=url, maybe_sent=True
            ) from exc
