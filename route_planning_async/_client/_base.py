"""The base client: owns (or borrows) the transport and is the one seam every request passes.

A namespace method (the version's ``resources/``) builds a request; :meth:`BaseClient._execute`
hands it to the scheduler (``_scheduler/``), which admits it into its
rate-limit category and calls the transport (``_transport.py``); the pure core
(``_core.py``) decodes the answer or raises. ``ARCHITECTURE.md`` draws the flow.

The base knows no API version: a version's client (its package's ``_client.py``)
is a subclass that names its service address (``default_base_url``) and binds its
namespaces (``_bind_namespaces``).
"""

from __future__ import annotations

import abc
import asyncio
import copy
import os
import ssl
from collections.abc import Coroutine, Mapping
from types import TracebackType
from typing import Any, ClassVar, Self, TypeVar, Unpack, cast

import aiohttp

from route_planning_async._checks._validators import UNSET, UnsetType, check_options
from route_planning_async._client._settings import (
    BASE_URL_ENV,
    ClientSettings,
    SettingTexts,
    check_instance,
    checked_api_key,
    checked_base_url,
    checked_polling,
    checked_timeout,
    limits_from_environment,
    ssl_from_environment,
)
from route_planning_async._core import AttemptHooks, Request, Response, auth_header, decode, user_agent
from route_planning_async._docs import keywords_documented, keywords_of
from route_planning_async._errors import ConfigurationError, RequestTimeoutError, RoutePlanningError
from route_planning_async._rate_limits._backends import contract_problem, lease_problem
from route_planning_async._rate_limits._budgets import claim_problem, process_backend
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async._rate_limits._limits_file import NAMED_LIMITS
from route_planning_async._scheduler import Clock, Scheduler, Send
from route_planning_async._scheduler._retry import RetryPolicy
from route_planning_async._scheduler._stats import SchedulerStats
from route_planning_async._transport import AiohttpTransport, Transport

__all__ = ["BaseClient"]

WaitOptionsT = TypeVar("WaitOptionsT", bound=Mapping[str, object])


class BaseClient(abc.ABC):
    """What every version's client shares: settings, session, scheduler, the send path.

    A version's client subclasses it with its service address
    (:attr:`default_base_url`), its published limits (:attr:`published_limits`) and its
    namespaces (:meth:`_bind_namespaces`).
    """

    default_base_url: ClassVar[str]
    """The version's service address, when neither ``base_url`` nor ``ROUTE_PLANNING_BASE_URL`` is given."""
    published_limits: ClassVar[str]
    """The name of the limits the version publishes (its :attr:`ApiVersion.limits
    <route_planning_async._versions.ApiVersion.limits>`), assumed when no ``rate_limits`` are given."""

    @keywords_documented(keywords_of(SettingTexts, types=ClientSettings))
    def __init__(self, api_key: str | None = None, **settings: Unpack[ClientSettings]) -> None:
        """Check every setting, before anything is sent.

        Args:
            api_key: The team's API key, a non-blank ``str`` without control
                characters. It is sent only in the ``Authorization``
                header and never appears in ``repr()``, logs or exceptions. ``None``
                (the default) reads it from ``ROUTE_PLANNING_API_KEY``.

        Keyword Args:
            base_url (str | None): The service address; ``http://`` is refused but for loopback hosts, and
                so are an empty string, a relative URL, a query and credentials. ``None`` (the default)
                means ``ROUTE_PLANNING_BASE_URL``, else the version's service.
            auth (AuthScheme): ``"basic"`` (the primary scheme, the default) or ``"bearer"``.
            rate_limits (RateLimits | None): The client-side limits. ``None`` (the default) reads
                ``ROUTE_PLANNING_LIMITS`` when it is set (``contract``, ``public-docs`` or a limits file),
                else takes the version's: v0.2b the contract's (:meth:`RateLimits.default`), v1 the public
                API documentation's (:meth:`RateLimits.public_docs`).
            retry (RetryPolicy | None): How 429s, 5xx answers and connection errors are retried.
            rate_limit_backend (RateLimitBackend | None): Where the limit state lives. ``None`` (the
                default): in memory, shared by the clients of this process that use the same origin and API
                key (one budget per process); give an :class:`InMemoryBackend` of its own to keep a client
                apart. A shared backend (Redis) lets many processes share one key's limits. A backend holds
                one budget: a client of another origin or API key than its first is refused
                (:class:`ConfigurationError`).
            session (aiohttp.ClientSession | None): An aiohttp session to borrow; it is left open on exit.
                Note that aiohttp re-sends a GET or DELETE once, unseen, over a fresh connection when a
                pooled one was closed; the client turns that off on the session it creates.
            ssl (ssl.SSLContext | None): An :class:`ssl.SSLContext` for a private CA. Verification stays on.
                ``None`` (the default), without ``session`` or ``transport``, trusts the CA file
                ``ROUTE_PLANNING_CA_FILE`` names when it is set, else the system's CAs.
            timeout (float | None): Total seconds for one attempt of one request: finite and positive, or
                ``None`` to turn the timeout off. Default 60.
            transport (Transport | None): Send every attempt through this :class:`Transport` instead of an
                aiohttp session (a test double, another HTTP library). It gets requests relative to
                ``base_url`` and without credentials, and is neither opened nor closed by the client;
                ``session`` and ``ssl`` do not apply.
            trace_configs (Sequence[aiohttp.TraceConfig]): aiohttp :class:`aiohttp.TraceConfig` objects for
                the session the client creates (tracing, metrics: see the docs' OpenTelemetry recipe). A
                borrowed ``session`` keeps its own.
            poll_interval (float | None): The ``poll_interval`` of every wait (``operations.wait``,
                ``wait_many``, ``plans.optimize_and_wait``, ``live_edit``) that gives none; ``None`` (the
                default): the waits' own default. ``Emulator.client()`` divides it by the emulator's
                speed-up.
            max_poll_interval (float | None): The ``max_poll_interval`` of every wait that gives none, as
                ``poll_interval``.

        Raises:
            ConfigurationError: A setting is invalid (the error names it).
        """
        check_options(settings, ClientSettings.__optional_keys__, type(self).__name__)
        api_key = checked_api_key(api_key)
        session, transport = settings.get("session"), settings.get("transport")
        ssl_context = settings.get("ssl")
        trace_configs = settings.get("trace_configs", ())
        if transport is not None and (session is not None or ssl_context is not None):
            raise ConfigurationError("give either transport= or session=/ssl=, not both")
        if trace_configs and (session is not None or transport is not None):
            raise ConfigurationError(
                "trace_configs= applies to the session the client creates; "
                "give them to your own session (or transport) instead"
            )
        if not all(isinstance(config, aiohttp.TraceConfig) for config in trace_configs):
            raise ConfigurationError("trace_configs must be aiohttp.TraceConfig objects")
        self._base_url = self._checked_base_url(settings.get("base_url"))
        seconds = checked_timeout(settings.get("timeout", 60.0))
        self._poll_defaults = checked_polling(
            settings.get("poll_interval"), settings.get("max_poll_interval")
        )
        rate_limits, retry = settings.get("rate_limits"), settings.get("retry")
        check_instance("rate_limits", rate_limits, RateLimits)
        check_instance("retry", retry, RetryPolicy)
        check_instance("ssl", ssl_context, ssl.SSLContext)
        check_instance("session", session, aiohttp.ClientSession)
        if transport is not None and not callable(getattr(transport, "send", None)):
            raise ConfigurationError("transport must have an async send(request) method")
        self._headers = {
            "Authorization": auth_header(api_key, settings.get("auth", "basic")),
            "User-Agent": user_agent(),
            "Accept": "application/json",
        }
        if ssl_context is None and session is None and transport is None:
            ssl_context = ssl_from_environment()
        self._ssl = ssl_context
        self._timeout = aiohttp.ClientTimeout(total=seconds)
        self._borrowed_session = session
        self._borrowed_transport = transport
        self._trace_configs = list(trace_configs)
        self._session: aiohttp.ClientSession | None = None
        self._transport: Transport | None = None
        # The transport the client made on an aiohttp session (None for one given
        # as transport=): a view's timeout is then handed to aiohttp per request.
        self._made_transport: AiohttpTransport | None = None
        self._entered = False
        if rate_limits is None:
            rate_limits = limits_from_environment()
        backend = settings.get("rate_limit_backend")
        problem = None if backend is None else contract_problem(backend)
        if problem is not None:
            raise ConfigurationError(
                f"rate_limit_backend {type(backend).__name__} does not meet the RateLimitBackend "
                f"contract of this release: {problem}"
            )
        if backend is not None and (problem := claim_problem(backend, self._base_url, api_key)):
            raise ConfigurationError(f"rate_limit_backend {backend!r} cannot be shared here: {problem}")
        if backend is not None and (problem := lease_problem(backend, seconds)):
            raise ConfigurationError(
                f"rate_limit_backend {backend!r} does not fit timeout={seconds}: {problem}"
            )
        self._scheduler = Scheduler(
            rate_limits if rate_limits is not None else self._default_rate_limits(),
            retry if retry is not None else RetryPolicy(),
            backend=backend if backend is not None else process_backend(self._base_url, api_key),
        )
        # The client that owns the session; a view from with_options() is not it.
        self._owner = self
        self._call_timeout: float | UnsetType | None = UNSET
        self._call_retry: RetryPolicy | None = None
        self._bind_namespaces()

    @classmethod
    def _default_rate_limits(cls) -> RateLimits:
        """The limits of a client given none: its version's published ones."""
        return NAMED_LIMITS[cls.published_limits]()

    def _checked_base_url(self, base_url: str | None) -> str:
        """The given address, else ``ROUTE_PLANNING_BASE_URL``, else the version's service."""
        if base_url is not None:
            return checked_base_url(base_url)
        if BASE_URL_ENV in os.environ:
            return checked_base_url(os.environ[BASE_URL_ENV], BASE_URL_ENV)
        return self.default_base_url

    @abc.abstractmethod
    def _bind_namespaces(self) -> None:
        """Make the version's namespaces (``client.plans`` and the rest) for this client or view."""

    def __repr__(self) -> str:
        name = type(self).__name__
        if self._owner is not self:
            return f"<{name} base_url={self._base_url!r} (with options)>"
        return f"<{name} base_url={self._base_url!r}>"

    def with_options(
        self,
        *,
        timeout: float | UnsetType | None = UNSET,
        retry: RetryPolicy | UnsetType = UNSET,
    ) -> Self:
        """A view of this client whose calls use other settings.

        The view shares everything else with the client: its session, its
        scheduler (so its requests count against the same limits, in the same
        queues) and its learned limits. It needs no closing and cannot be
        entered; it works while the client is open. Options not given keep the
        client's (or the view's, for a view of a view)::

            slow = client.with_options(timeout=300)
            plan = await slow.plans.get(plan_id)
            patient = client.with_options(retry=RetryPolicy(attempts=10, cap=60))

        Args:
            timeout: Seconds for one attempt of each request, finite and
                positive, or ``None`` to turn the timeout off. With a transport of
                your own (``transport=``), an attempt that takes longer raises
                :class:`RequestTimeoutError` and is retried as a lost answer is.
            retry: The retry policy for the view's requests. How the
                category learns the service's limit stays the client's
                (``RetryPolicy.learning`` of the client's own policy).

        Returns:
            The view, a client of the same class.

        Raises:
            ConfigurationError: A setting is invalid (the error names it).
        """
        view = copy.copy(self)
        if not isinstance(timeout, UnsetType):
            view._call_timeout = checked_timeout(timeout)
            if problem := lease_problem(self._scheduler.backend, view._call_timeout):
                raise ConfigurationError(
                    f"timeout={view._call_timeout} does not fit rate_limit_backend: {problem}"
                )
        if not isinstance(retry, UnsetType):
            check_instance("retry", retry, RetryPolicy)
            view._call_retry = retry
        view._bind_namespaces()
        return view

    @property
    def base_url(self) -> str:
        """The service address every path is appended to."""
        return self._base_url

    @property
    def rate_limits(self) -> RateLimits:
        """The client-side limits in force."""
        return self._scheduler.limits

    @property
    def stats(self) -> SchedulerStats:
        """Per category: requests sent, 429s, retries, time spent waiting, effective rate."""
        return self._scheduler.stats

    @property
    def _clock(self) -> Clock:
        """The scheduler's clock, which the workflows wait on."""
        return self._scheduler.clock

    def _with_polling(self, options: WaitOptionsT) -> WaitOptionsT:
        """A wait's options, with the client's ``poll_interval`` and ``max_poll_interval`` where
        it gives none (a wait's own first delay above the client's cap raises the cap to it)."""
        merged: dict[str, Any] = {**self._poll_defaults, **options}
        if "max_poll_interval" in self._poll_defaults and "max_poll_interval" not in options:
            merged["max_poll_interval"] = max(merged["max_poll_interval"], merged.get("poll_interval", 0.0))
        return cast("WaitOptionsT", merged)

    async def __aenter__(self) -> Self:
        if self._owner is not self:
            raise RoutePlanningError(
                "a view from with_options() shares its client's session: open the client itself"
            )
        if self._entered:
            if self._transport is None:
                raise RoutePlanningError(
                    "this client was closed and cannot be opened again; create a new one"
                )
            raise RoutePlanningError("this client is already open; create one client per context")
        self._entered = True
        if self._borrowed_transport is not None:
            self._transport = self._borrowed_transport
            return self
        transport: Transport
        if self._borrowed_session is not None:
            session = self._borrowed_session
            transport = AiohttpTransport(
                session, self._base_url, self._headers, ssl_context=self._ssl, timeout=self._timeout
            )
        else:
            # The session carries the headers and the timeout as its defaults,
            # which spares aiohttp merging them again on every request.
            session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=100),
                headers=self._headers,
                timeout=self._timeout,
                trace_configs=self._trace_configs or None,
            )
            transport = AiohttpTransport(session, self._base_url, {}, ssl_context=self._ssl, timeout=None)
            # aiohttp silently sends a GET or DELETE again when a pooled
            # connection turns out to be closed. The service would then see a
            # request the scheduler never counted, so that retry is left to the
            # scheduler, which counts every attempt. (A borrowed session keeps
            # its owner's setting.) aiohttp has no public switch for it
            # (aio-libs/aiohttp#10790); this attribute exists from aiohttp 3.11,
            # below the floor pyproject.toml declares, and tests/unit/test_transport.py
            # fails on a version where it does nothing.
            session._retry_connection = False
        self._session = session
        self._transport = self._made_transport = transport
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the session this client opened; a borrowed session or transport stays open.

        On a view from :meth:`with_options` this does nothing: the client owns the session.
        """
        if self._owner is not self:
            return
        session, self._session, self._transport, self._made_transport = self._session, None, None, None
        await self._scheduler.aclose()
        if session is not None and session is not self._borrowed_session:
            await session.close()

    async def _execute(self, request: Request, *, on_sent: AttemptHooks | None = None) -> Any:
        """Send ``request`` through the scheduler and return its decoded JSON data.

        ``on_sent`` is told of each attempt: called as it is handed to the
        transport (up to then the service cannot have seen the request: the bulk
        importer tells a batch that never left from one that may have been
        applied), and its ``attempt_ended()`` as it ends (the importer times its
        waits for capacity by the two).
        """
        response = await self._send(request, on_sent=on_sent)
        return decode(request, response, base_url=self._base_url)

    def _send(
        self, request: Request, *, on_sent: AttemptHooks | None = None
    ) -> Coroutine[Any, Any, Response]:
        """Send ``request`` through the scheduler and return the final answer, whatever its status.

        A plain function that hands back the scheduler's coroutine: the callers
        await it directly, one coroutine fewer on the path of every request.
        """
        transport = self._owner._transport
        if transport is None:
            if self._owner._entered:
                raise RoutePlanningError("the client is not open (it was closed): nothing was sent")
            raise RoutePlanningError(
                f"the client is not open: use 'async with {type(self).__name__}(...) as client:'"
            )
        send = transport.send if self._owner is self else self._send_with_timeout(transport)
        if on_sent is not None:
            send = _announcing(send, on_sent)
        return self._scheduler.run(request, send, retry=self._call_retry, base_url=self._base_url)

    def _send_with_timeout(self, transport: Transport) -> Send:
        """The transport's ``send``, bounded by the view's timeout when it has one."""
        seconds = self._call_timeout
        if isinstance(seconds, UnsetType):
            return transport.send
        made = self._owner._made_transport
        if made is not None:
            return made.with_timeout(aiohttp.ClientTimeout(total=seconds)).send
        if seconds is None:
            return transport.send
        base_url = self._base_url
        limit = seconds

        async def send_within(request: Request) -> Response:
            try:
                async with asyncio.timeout(limit):
                    return await transport.send(request)
            except TimeoutError:
                pass
            raise RequestTimeoutError(
                f"timed out after {limit:g} s",
                method=request.method,
                request_url=request.url(base_url),
                maybe_sent=True,
            )

        return send_within


def _announcing(send: Send, on_sent: AttemptHooks) -> Send:
    """``send``, telling ``on_sent`` of each attempt as it is handed to it and as it ends."""

    async def announced(request: Request) -> Response:
        on_sent()
        try:
            return await send(request)
        finally:
            on_sent.attempt_ended()

    return announced
