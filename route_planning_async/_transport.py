"""The thin aiohttp transport: a :class:`~._core.Request` in, a :class:`~._core.Response` out.

It knows nothing of rate limits, retries or models. Its only decisions are how
to put bytes on the wire and how to wrap what aiohttp raises.
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from typing import Any

import aiohttp

from route_planning_async._core import JSON_CONTENT_TYPE, Request, Response
from route_planning_async._errors import RequestTimeoutError, TransportError

__all__ = ["AiohttpTransport"]


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
        self._headers = dict(headers) or None
        self._body_headers = {**headers, "Content-Type": JSON_CONTENT_TYPE}
        self._options: dict[str, Any] = {
            # None keeps aiohttp's default verification; a context adds a private CA.
            "ssl": ssl_context if ssl_context is not None else True,
            "allow_redirects": False,
        }
        if timeout is not None:
            self._options["timeout"] = timeout

    async def send(self, request: Request) -> Response:
        """Send ``request`` and read the whole answer."""
        url = self._base_url + request.path
        # Action calls without a body send neither a body nor a Content-Type
        # (contract, General conventions).
        headers = self._headers if request.body is None else self._body_headers
        try:
            async with self._session.request(
                request.method,
                url,
                params=request.query or None,
                data=request.body,
                headers=headers,
                **self._options,
            ) as answer:
                body = await answer.read()
                return Response(answer.status, answer.headers, body)
        except TimeoutError as exc:
            raise RequestTimeoutError("timed out", method=request.method, url=url, maybe_sent=True) from exc
        except aiohttp.ClientConnectorError as exc:
            # The connection was never made: the service cannot have seen the request.
            raise TransportError(
                f"cannot connect: {exc.os_error}",
                method=request.method,
                url=url,
                maybe_sent=False,
            ) from exc
        except aiohttp.ClientError as exc:
            raise TransportError(
                f"{type(exc).__name__}: {exc}", method=request.method, url=url, maybe_sent=True
            ) from exc
