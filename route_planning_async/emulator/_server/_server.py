"""The :class:`Emulator`: a local Route Planning server on a loopback socket."""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self, overload

import attrs
from aiohttp import web

from route_planning_async._operations import DEFAULT_MAX_POLL_INTERVAL, DEFAULT_POLL_INTERVAL
from route_planning_async._rate_limits._limits import Category, RateLimits, Rule
from route_planning_async._versions import api_version as registered_version
from route_planning_async.emulator._server._app import PARSER_LINE_LIMIT, EmulatorApp
from route_planning_async.emulator._server._tls import TLSMaterial, make_tls
from route_planning_async.emulator._server._versions import DEFAULT_VERSION, VERSIONS, api_version
from route_planning_async.emulator._server._versions import api_version as served_version
from route_planning_async.emulator._service._driving import drive_route
from route_planning_async.emulator._service._state import EmulatorState
from route_planning_async.emulator._setup._config import EmulatorConfig
from route_planning_async.emulator._traffic._faults import FaultInjector
from route_planning_async.emulator._traffic._limits import LimitTimeline, RateLimiter
from route_planning_async.emulator._traffic._log import RequestLog
from route_planning_async.emulator._wire._webhooks import WebhookSender

if TYPE_CHECKING:
    from route_planning_async import RoutePlanningClient
    from route_planning_async.v1 import RoutePlanningClient as V1Client

__all__ = ["Emulator"]

SHUTDOWN_TIMEOUT = 0.25
"""Seconds :meth:`Emulator.stop` lets a request still being answered finish, and as long again
for its cancelled handler to end. A stopped emulator drops what it was answering, as a service
that goes away does: its client sees a lost connection. (aiohttp's runner waited 2 s twice,
which held ``route-planning emulator`` seconds after SIGTERM with a request in flight.)"""


class Emulator:
    """A faithful local Route Planning server (in-memory state, aiohttp, HTTPS by default).

    ::

        async with Emulator(speedup=60) as emu:
            async with emu.client() as client:
                plan = await client.plans.create(title="Monday", starts=date(2026, 11, 23))
            assert emu.max_in_window("write", 1.0) <= 5

    Args:
        config: An :class:`EmulatorConfig`; None: the defaults.
        **overrides: Fields of :class:`EmulatorConfig` (``speedup``, ``tls``,
            ``rate_limits``, ``seed``, ...) that override those of ``config``.

    Attributes:
        config (EmulatorConfig): The configuration in force.
        state: Direct access to plans, stops, unassigned stops, routes and operations.
        timeline: Which limits are in force when: ``rate_limits``, then the ``limit_schedule`` from the
            start, and :meth:`set_rate_limits` changes. The limiter and the log share it.
        log: Every request, with its server time, category, weight, status and outcome.
        faults: Scripted faults: ``emu.faults.add(Fault(...))``.
        limiter: The server-side limits: sliding windows or token buckets (``EmulatorConfig.limiter``).
        webhooks: The service's webhook events, signed and POSTed to ``webhook_url``: ``deliveries``,
            ``await emu.webhooks.drain()`` until all are delivered, ``send(type, data)`` for any other.
    """

    def __init__(self, config: EmulatorConfig | None = None, /, **overrides: Any) -> None:
        base = config if config is not None else EmulatorConfig()
        self.config: EmulatorConfig = attrs.evolve(base, **overrides) if overrides else base
        """The configuration in force."""
        self.state = EmulatorState(self.config)
        """Direct access to plans, stops, unassigned stops, routes and operations."""
        self.timeline = LimitTimeline(self.config.rate_limits, self.config.speedup)
        """Which limits are in force when: ``rate_limits``, then the ``limit_schedule`` from the
        start, and :meth:`set_rate_limits` changes. The limiter and the log share it."""
        self.log = RequestLog(self.timeline)
        """Every request, with its server time, category, weight, status and outcome."""
        self.faults = FaultInjector(self.config.seed)
        """Scripted faults: ``emu.faults.add(Fault(...))``."""
        self.limiter = RateLimiter(
            kind=self.config.limiter,
            burst=self.config.burst,
            count_rejected=self.config.count_rejected,
            punish_sustained=self.config.punish_sustained,
            lockout=self.config.lockout,
            timeline=self.timeline,
        )
        """The server-side limits: sliding windows or token buckets (``EmulatorConfig.limiter``)."""
        self.webhooks = WebhookSender(self.config, self.state, api_version(self.config.webhook_version))
        """The service's webhook events, signed and POSTed to ``webhook_url``: ``deliveries``,
        ``await emu.webhooks.drain()`` until all are delivered, ``send(type, data)`` for any other."""
        self._app = EmulatorApp(self.config, self.state, self.limiter, self.faults, self.log, VERSIONS)
        self._runner: web.AppRunner | None = None
        self._tls: TLSMaterial | None = None
        self._port: int | None = None

    def __repr__(self) -> str:
        where = self.base_url if self._port is not None else "not running"
        return f"<Emulator {where}>"

    # -------------------------------------------------------------- lifecycle

    async def start(self) -> Self:
        """Bind the socket and serve (the ``limit_schedule`` counts from here). Returns self."""
        if self._runner is not None:
            raise RuntimeError("the emulator is already running")
        self.restart_limit_schedule()
        if self.config.tls and self._tls is None:
            self._tls = make_tls()
        runner = web.AppRunner(
            self._app.application(),
            handle_signals=False,
            access_log=None,
            shutdown_timeout=SHUTDOWN_TIMEOUT,
            max_line_size=PARSER_LINE_LIMIT,
        )
        await runner.setup()
        site = web.TCPSite(
            runner,
            self.config.host,
            self.config.port,
            ssl_context=self._tls.server_context if self._tls is not None else None,
        )
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        """Stop serving and close every connection. The state stays readable."""
        runner, self._runner = self._runner, None
        self._app.cancel_timers()
        await self.webhooks.close()
        if runner is not None:
            await runner.cleanup()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # ------------------------------------------------------------- addresses

    @property
    def port(self) -> int:
        """The bound TCP port."""
        if self._port is None:
            raise RuntimeError("the emulator is not running; use 'async with Emulator() as emu:'")
        return self._port

    @property
    def origin(self) -> str:
        """``https://127.0.0.1:<port>`` (or ``http://`` without TLS)."""
        host = f"[{self.config.host}]" if ":" in self.config.host else self.config.host
        return f"{'https' if self.config.tls else 'http'}://{host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The service address to give a client: ``<origin>/public/v0.2b``."""
        return self.origin + DEFAULT_VERSION.base_path

    def base_url_for(self, version: str) -> str:
        """The service address of one API version the emulator serves.

        Args:
            version: The version, as the service names it (``"v0.2b"``, ``"v1"``).

        Returns:
            ``<origin>`` and the version's base path (``<origin>/public/v0.2b``).

        Raises:
            ConfigurationError: The emulator serves no such version.
        """
        return self.origin + api_version(version).base_path

    @property
    def api_key(self) -> str:
        """The key the emulator accepts."""
        return self.config.api_key

    @property
    def ssl_context(self) -> ssl.SSLContext | None:
        """A client-side context that trusts the emulator's throwaway CA (None without TLS)."""
        if not self.config.tls:
            return None
        if self._tls is None:
            self._tls = make_tls()
        return self._tls.client_context

    @property
    def ca_pem(self) -> bytes | None:
        """The throwaway CA certificate in PEM (None without TLS)."""
        if not self.config.tls:
            return None
        if self._tls is None:
            self._tls = make_tls()
        return self._tls.ca_pem

    def write_ca(self, path: str | Path) -> Path:
        """Write the CA certificate to a file (for other processes to trust it).

        Args:
            path: The file to write; a file already there is overwritten (it is the
                emulator's to write at each start, as ``--ca-file`` does).

        Returns:
            The path written.

        Raises:
            RuntimeError: The emulator serves plain HTTP (``tls=False``); there is no CA.
        """
        pem = self.ca_pem
        if pem is None:
            raise RuntimeError("the emulator serves plain HTTP (tls=False); there is no CA")
        target = Path(path)
        target.write_bytes(pem)
        return target

    @overload
    def client(self, *, api_version: Literal["v0.2b"] = "v0.2b", **kwargs: Any) -> RoutePlanningClient: ...

    @overload
    def client(self, *, api_version: Literal["v1"], **kwargs: Any) -> V1Client: ...

    def client(self, *, api_version: str = "v0.2b", **kwargs: Any) -> RoutePlanningClient | V1Client:
        """A client of one API version for this emulator (v0.2b's unless ``api_version="v1"``).

        Open it with ``async with``. Its limits are the emulator's, sped up the same way, and so
        are its waits' ``poll_interval`` and ``max_poll_interval`` (a minute-long optimization
        at ``speedup=60`` is polled as often, in its one second, as at real speed).

        Args:
            api_version: ``"v0.2b"`` for :class:`route_planning_async.RoutePlanningClient`,
                ``"v1"`` for :class:`route_planning_async.v1.RoutePlanningClient`.
            **kwargs: Arguments of the client; they override the emulator's address of that
                version, ``ssl``, ``rate_limits``, ``poll_interval`` and ``max_poll_interval``.

        Returns:
            The client (not yet open).

        Raises:
            ConfigurationError: The emulator serves no such version.
        """
        served = served_version(api_version)  # before any other check: the documented error
        if "base_url" not in kwargs:
            kwargs["base_url"] = self.origin + served.base_path
        if "ssl" not in kwargs and "transport" not in kwargs:  # a transport of one's own takes no ssl
            kwargs["ssl"] = self.ssl_context
        kwargs.setdefault("rate_limits", self.config.server_limits)
        kwargs.setdefault("poll_interval", self.config.scaled(DEFAULT_POLL_INTERVAL))
        kwargs.setdefault("max_poll_interval", self.config.scaled(DEFAULT_MAX_POLL_INTERVAL))
        client_type: type[RoutePlanningClient | V1Client]
        client_type = registered_version(served.name).module().RoutePlanningClient
        return client_type(self.api_key, **kwargs)

    # -------------------------------------------------------------- driving

    async def simulate_route(self, route_id: str, outcomes: Mapping[str, str] | None = None) -> None:
        """Have the driver of a distributed route work through it, as the driver app would report it.

        Tracking links, out for delivery, then stop by stop an attempt
        (``deliveryInfo`` filled in) and the departure. With a ``webhook_url``,
        returns once the events (these, and any queued before) were delivered or
        given up.

        Args:
            route_id: The route, ``routes/<id>``; it must have been distributed.
            outcomes: Stop ids mapped to the ``DeliveryState`` value of their
                attempt; the others succeed. None: every stop succeeds.

        Raises:
            LookupError: No such route.
            ValueError: The route was not distributed.
        """
        drive_route(self.state, route_id, outcomes or {}, tracking_origin=self.origin)
        await self.webhooks.drain()

    # -------------------------------------------------------------- checking

    @property
    def internal_errors(self) -> list[BaseException]:
        """Exceptions the emulator's handlers raised (each answered 500); empty when all is well."""
        return self._app.internal_errors

    def settle(self) -> None:
        """Finish the optimizations whose time has come (useful with a fake ``clock``)."""
        self.state.settle(self.config.clock())

    def rule(self, category: Category | str, per: Literal["request", "weight"] = "request") -> Rule:
        """The configured rule of a category (the longest one), in contract seconds.

        This is ``rate_limits``'s rule, whatever the schedule; ``log.rule_at`` tells the one in
        force at a time.

        Args:
            category: The :class:`Category`, or its value (``"read"``, ...).
            per: ``"request"`` or ``"weight"``: which kind of rule.

        Returns:
            The :class:`Rule`.

        Raises:
            LookupError: The category has no such rule.
        """
        rules = [r for r in self.config.rate_limits.for_category(Category(category)) if r.per == per]
        if not rules:
            raise LookupError(f"no {per} rule for category {category!r}")
        return max(rules, key=lambda r: r.period)

    def max_in_window(
        self,
        category: Category | str,
        period: float | None = None,
        *,
        per: Literal["request", "weight"] = "request",
    ) -> int:
        """Most admitted requests (or stops) of a category in any sliding window.

        Compare it with the rule's amount.

        Args:
            category: The :class:`Category`, or its value (``"read"``, ...).
            period: The window, in contract seconds; None: the category's rule period.
            per: ``"request"`` counts requests, ``"weight"`` their weight (stops).

        Returns:
            The largest count.
        """
        seconds = self.rule(category, per).period if period is None else period
        return self.log.max_in_window(category, self.config.scaled(seconds), per=per)

    def utilization(
        self, category: Category | str, *, per: Literal["request", "weight"] = "request"
    ) -> float:
        """How much of what the category's rule allows the admitted traffic used, over its span.

        Args:
            category: The :class:`Category`, or its value (``"read"``, ...).
            per: ``"request"`` or ``"weight"``: which rule to measure against.

        Returns:
            The share; 1.0 is a perfectly saturating client.
        """
        rule = self.rule(category, per)
        return self.log.utilization(category, rule.amount, self.config.scaled(rule.period), per=per)

    def reset_limits(self) -> None:
        """Empty every rate-limit window (the log, the limits in force and the schedule stay)."""
        self.limiter.reset()

    # ---------------------------------------------------------- limit changes

    @property
    def rate_limits(self) -> RateLimits:
        """The limits in force now, in contract seconds."""
        return self.timeline.at(self.config.clock()).limits

    def set_rate_limits(self, limits: RateLimits) -> None:
        """Enforce other limits from now until the next change of the ``limit_schedule``.

        The windows and buckets keep their history: what was sent in the last
        period counts against the new limits.

        Args:
            limits: The limits, in contract seconds (sped up like ``rate_limits``).
        """
        self.timeline.set(self.config.clock(), limits)

    def restart_limit_schedule(self) -> None:
        """Start over from now: ``rate_limits`` in force, and the ``limit_schedule``'s offsets
        counted from now (``start()`` does it; a benchmark calls it after its setup traffic)."""
        self.timeline.restart(self.config.clock(), self.config.rate_limits, self.config.limit_schedule)
