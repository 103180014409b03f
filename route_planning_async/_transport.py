"""The transport seam: a :class:`~._core.Request` in, a :class:`~._core.Response` out.

:class:`Transport` is the protocol the client sends every attempt through;
:class:`AiohttpTransport` is the default one. A transport knows nothing of rate
limits, retries or models. Its only decisions are how to put bytes on the wire
and how to wrap what its HTTP library raises: a failure to reach the service is
a :class:`~route_planning_async.TransportError`, with ``maybe_sent`` False only
when the request cannot have left (the connection was never made).
"""

from __future__ import annotations

import base64
import copy
import ssl
from collections.abc import Mapping
from typing import Any, Protocol

import aiohttp
from multidict import CIMultiDict

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
        # A request with a body names its Content-Type itself.
        self._body_options = {**self._options, "headers": {**headers, "Content-Type": JSON_CONTENT_TYPE}}
        # aiohttp adds "Content-Type: application/octet-stream" to a POST, PUT or
        # PATCH without a body (an action call); only those are told to skip it,
        # since asking aiohttp to skip a header costs it time on every request.
        self._action_options = dict(self._options)
        if "Content-Type" not in session.skip_auto_headers:
            self._action_options["skip_auto_headers"] = ("Content-Type",)
        # Every form of the key, to scrub from the text of an error (the key is
        # in ``headers`` or in the session's own default headers).
        self._secrets = _secret_forms(headers.get("Authorization") or session.headers.get("Authorization"))

    def with_timeout(self, timeout: aiohttp.ClientTimeout) -> AiohttpTransport:
        """A transport on the same session whose requests are bounded by ``timeout`` instead.

        For a client's view with another ``timeout`` (``with_options``): a per-request
        timeout replaces the session's default, which may be shorter.
        """
        bounded = copy.copy(self)
        bounded._options = {**self._options, "timeout": timeout}
        bounded._body_options = {**self._body_options, "timeout": timeout}
        bounded._action_options = {**self._action_options, "timeout": timeout}
        return bounded

    async def send(self, request: Request) -> Response:
        """Send ``request`` and read the whole answer."""
        url = request.url(self._base_url)
        # Action calls without a body send neither a body nor a Content-Type
        # (contract, General conventions).
        if request.body is not None:
            options = {**self._body_options, "data": request.body}
        elif request.method in _BODY_METHODS:
            options = self._action_options
        else:
            options = self._options
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
            if answer.status >= 400 and self._secrets:
                # An error answer becomes an exception that is logged and shown:
                # a proxy or a hostile server may have echoed the key into it.
                return self._scrubbed(Response(answer.status, answer.headers, body))
            return Response(answer.status, answer.headers, body)
        except (TimeoutError, aiohttp.ClientError) as exc:
            error = self._translate(exc, request.method, url)
        # Raised here, outside the handler, so that not even ``__context__``
        # keeps aiohttp's exception (and through it the request's headers).
        raise error

    def _translate(self, exc: BaseException, method: str, url: str) -> TransportError:
        """A library error with a redacted copy of what ``exc`` says; ``exc`` itself is dropped."""
        error_type = f"{type(exc).__module__.split('.')[0]}.{type(exc).__qualname__}"
        if isinstance(exc, TimeoutError):
            return RequestTimeoutError(
                "timed out", method=method, request_url=url, maybe_sent=True, error_type=error_type
            )
        status: int | None = None
        request_headers: Mapping[str, str] | None = None
        if isinstance(exc, aiohttp.ClientResponseError):
            status = exc.status
            request_headers = _redacted_headers(exc.request_info.headers)
        retryable = True
        certificate = _certificate_error(exc)
        if certificate is not None:
            # No retry can succeed: the service's certificate stays what it is.
            reason = certificate.verify_message or certificate.reason or str(certificate)
            text, maybe_sent, retryable = (
                "the service's TLS certificate could not be verified, so the request was not "
                f"retried; give the client an ssl.SSLContext that trusts the service's CA ({reason})",
                False,
                False,
            )
        elif isinstance(exc, aiohttp.ClientConnectorError):
            # The connection was never made: the service cannot have seen the request.
            text, maybe_sent = f"cannot connect: {exc.os_error}", False
        else:
            text, maybe_sent = f"{type(exc).__name__}: {exc}", True
        return TransportError(
            self._scrub(text),
            method=method,
            request_url=url,
            maybe_sent=maybe_sent,
            retryable=retryable,
            error_type=error_type,
            status=status,
            request_headers=request_headers,
        )

    def _scrubbed(self, response: Response) -> Response:
        """``response`` with every form of the credentials replaced in its body and headers."""
        body = response.body
        for secret in self._secrets:
            body = body.replace(secret.encode(), b"<redacted>")
        headers = CIMultiDict((name, self._scrub(value)) for name, value in response.headers.items())
        return Response(response.status, headers, body)

    def _scrub(self, text: str) -> str:
        """``text`` with every form of the credentials replaced (a hostile answer may echo them)."""
        for secret in self._secrets:
            text = text.replace(secret, "<redacted>")
        return text


def _certificate_error(exc: BaseException) -> ssl.SSLCertVerificationError | None:
    """The certificate verification failure behind ``exc``, if that is what it is."""
    if isinstance(exc, aiohttp.ClientConnectorCertificateError):
        found: object = exc.certificate_error
    elif isinstance(exc, aiohttp.ClientConnectorError):
        found = exc.os_error
    else:
        found = exc.__cause__
    return found if isinstance(found, ssl.SSLCertVerificationError) else None


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
"""The methods aiohttp gives a default Content-Type when they carry no body."""

_CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})


def _redacted_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """A plain copy of ``headers`` without the ones that carry credentials."""
    return {name: value for name, value in headers.items() if name.lower() not in _CREDENTIAL_HEADERS}


def _secret_forms(authorization: str | None) -> tuple[str, ...]:
    """Every form the key takes in an ``Authorization`` value, longest first."""
    if not authorization:
        return ()
    forms = {authorization}
    scheme, _, token = authorization.partition(" ")
    if token:
        forms.add(token)
        if scheme.lower() == "basic":
            try:
                decoded = base64.b64decode(token, validate=True).decode()
            except (ValueError, UnicodeDecodeError):
                decoded = ""
            forms.update(part for part in (decoded, decoded.rstrip(":")) if part)
    return tuple(sorted(forms, key=len, reverse=True))
