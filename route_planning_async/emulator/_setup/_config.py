"""The emulator's configuration, as plain frozen data.

Everything the emulator decides that the contract leaves open is a field here,
with its default, so a test can see (and change) what it relies on.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Literal

import attrs
import yarl

from route_planning_async._checks._hosts import host_problem
from route_planning_async._checks._keys import key_problem
from route_planning_async._docs import described, fields_documented
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async.emulator._setup._lockout import Lockout
from route_planning_async.emulator._setup._team import TeamConfig

__all__ = [
    "EmulatorConfig",
    "LimiterKind",
    "PunishSustained",
]


LimiterKind = Literal["sliding_window", "token_bucket"]
"""How the server reads a rule: ``sliding_window`` (exact windows) or ``token_bucket`` (with a burst)."""


@fields_documented(title="Attributes")
@attrs.frozen
class PunishSustained:
    """Reject traffic that stays near a limit for too long (contract, Limits: "sustained traffic at
    or near the limit is rejected with 429"; the public docs: "traffic at or close to the requests
    limit for an extended period" gets rate-limited).

    Traffic is measured the same way with either limiter: what was counted in the last ``period``
    of each rule in force (admitted requests, and refused ones with ``count_rejected``). When a
    request would bring any rule of its category to ``threshold`` of its amount or more, the
    category is "hot"; once it has been hot without a break for ``after`` times the longest period
    of the category, every request is rejected (``reason="sustained"``, ``Retry-After`` the longest
    period) until the traffic drops below the threshold. A change of limits keeps the hot streak
    and measures it against the new limits.

    Attributes:
        threshold (float): Fraction of a rule's amount that counts as "near the limit".
        after (float): How many of the category's longest period the traffic may stay near the limit.
    """

    threshold: float = attrs.field(
        default=0.9, metadata=described('Fraction of a rule\'s amount that counts as "near the limit".')
    )
    after: float = attrs.field(
        default=3.0,
        metadata=described("How many of the category's longest period the traffic may stay near the limit."),
    )


def loopback_host(host: str) -> str:
    """``host`` when it is a loopback address; a ValueError saying why the emulator binds nothing else."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ValueError(
            f"{host!r}: the emulator binds loopback only (127.0.0.1, ::1 or localhost): "
            "it takes any caller with its well-known API key, so no other machine may reach it"
        )
    return host


def shown_url(url: str) -> str:
    """``url`` as the emulator shows it (banner, logs, ``repr``): its credentials and its query,
    which may carry a secret, masked as ``***``; its fragment left out."""
    try:
        parsed = yarl.URL(url)
    except ValueError:
        return "***"
    if not parsed.is_absolute():
        return "***"
    shown = str(parsed.with_user(None).with_query(None).with_fragment(None))
    if parsed.raw_user is not None or parsed.raw_password is not None:
        scheme, _, rest = shown.partition("://")
        shown = f"{scheme}://***@{rest}"
    if parsed.raw_query_string or "?" in url.partition("#")[0]:
        shown += "?***"
    return shown


def _masked_url(url: str | None) -> str:
    return "None" if url is None else repr(shown_url(url))


def _masked_secret(secret: str) -> str:
    return "'***'"


def _loopback(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    loopback_host(value)


def _usable_key(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    problem = key_problem(value)
    if problem is not None:
        raise ValueError(f"{attribute.name} {problem}: a client could not send it")


def _usable_keys(
    instance: object, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]
) -> None:
    for key in value:
        problem = key_problem(key)
        if problem is not None:
            raise ValueError(f"each of {attribute.name} {problem}: a client could not send it")


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not value > 0:
        raise ValueError(f"{attribute.name} must be positive, got {value!r}")


def _non_negative(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not 0 <= value < math.inf:
        raise ValueError(f"{attribute.name} must be a finite number, not negative, got {value!r}")


def _webhook_url(instance: object, attribute: attrs.Attribute[str | None], value: str | None) -> None:
    if value is not None:
        checked_webhook_url(value)


def checked_webhook_url(value: str) -> str:
    """``value``, when events can be POSTed to it: an ``http://`` or ``https://`` URL whose host
    a request can reach; else a ValueError saying why."""
    try:
        url = yarl.URL(value)
    except (TypeError, ValueError):
        url = yarl.URL()
    if url.scheme not in ("http", "https") or not url.raw_host:
        raise ValueError(f"webhook_url must be an absolute http:// or https:// URL, got {value[:80]!r}")
    problem = host_problem(url.raw_host)
    if problem is not None:
        raise ValueError(f"webhook_url's host {problem}")
    return value


def _limiter_kind(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in ("sliding_window", "token_bucket"):
        raise ValueError(f"limiter must be 'sliding_window' or 'token_bucket', got {value!r}")


def _schedule(value: Iterable[tuple[float, RateLimits]]) -> tuple[tuple[float, RateLimits], ...]:
    entries = [(float(offset), limits) for offset, limits in value]
    for offset, limits in entries:
        if offset < 0:
            raise ValueError(f"limit_schedule offsets must not be negative, got {offset!r}")
        if not isinstance(limits, RateLimits):
            raise TypeError(f"limit_schedule entries are (seconds, RateLimits), got {limits!r}")
    return tuple(sorted(entries, key=lambda entry: entry[0]))


@fields_documented(title="Attributes")
@attrs.frozen
class EmulatorConfig:
    """How the emulator behaves. Every field has a default; ``attrs.evolve`` makes variants.

    Times that model the service (rate-limit periods, optimization delays) are given in the
    contract's seconds and divided by ``speedup``.

    Attributes:
        api_key (str): The team's API key (Basic ``base64("<key>:")`` or Bearer).
        extra_api_keys (tuple[str, ...]): More keys of the same team; each key has its own rate-limit
            windows.
        host (str): Loopback address to bind: ``127.0.0.1`` or ``::1``.
        port (int): TCP port; 0 picks a free one.
        tls (bool): Serve HTTPS with a throwaway CA (``trustme``); False serves plain HTTP on loopback.
        speedup (float): Divides every rate-limit period and optimization delay: 60 makes a minute last
            one second.
        rate_limits (RateLimits): The server-side limits, before the speed-up.
            ``RateLimits.unlimited()`` turns them off.
        limiter (LimiterKind): How the server reads each rule: ``sliding_window`` (at most ``amount`` in
            any window of ``period``; the strictest reading) or ``token_bucket`` (a bucket of ``burst *
            amount`` tokens, full at first, refilled continuously at ``amount / period``; a request
            takes ``rule.cost(weight)`` tokens of every rule of its category).
        burst (float): A token bucket's capacity as a multiple of each rule's amount (``token_bucket``
            only): 1.0 admits ``amount`` at once, then the refill rate; 2.0 a burst of twice that.
        count_rejected (bool): Whether requests answered 429 still count ("continued retrying at a high
            rate keeps being rejected until the rate drops", contract Limits): in a sliding window they
            occupy it like admitted ones; in a token bucket they take their cost too, down to an empty
            bucket (never into debt). Either way retrying faster than the limit never gets through, and
            slower does.
        limit_schedule (tuple[tuple[float, RateLimits], ...]): Changes of the server's limits mid-run:
            ``(seconds, limits)`` pairs, the seconds counted in contract time (divided by ``speedup``)
            from the emulator's start (or from ``Emulator.restart_limit_schedule()``), the limits in
            contract seconds and in force from then until the next change. E.g. ``((20,
            four_per_second), (40, ten_per_second))`` drops reads from ``rate_limits``'s 10/s to 4/s at
            t=20 and restores them at t=40. The windows (and buckets) keep their history across a
            change; ``Emulator.set_rate_limits`` changes them at run time; the request log tells which
            limits were in force when (``emu.log.limits_at(t)``).
        punish_sustained (PunishSustained | None): Reject sustained traffic near the limit in force;
            None (the default) only enforces the limits.
        lockout (Lockout | None): Refuse every request of a key and category whose attempts were refused
            at a high rate until it slows down (the v1 description's rule; :class:`Lockout` states it);
            None (the default) only enforces the limits.
        latency (float): One-way link delay in real seconds (not divided by ``speedup``: it models the
            network). A request arrives (is counted by the limiter, logged and handled) ``latency`` (+
            jitter) after it reached the socket, and its answer is sent ``latency`` (+ jitter) after it
            was made.
        latency_jitter (float): Up to this many real seconds more, drawn uniformly per direction and per
            request from a ``random.Random`` seeded by ``seed`` (so requests can overtake each other, as
            on a real link).
        instant_optimization_max_stops (int): Plans with at most this many stops are optimized at once
            (``done: true`` in the answer).
        optimization_delay (float): Seconds a larger optimization takes, before the speed-up.
        optimization_delay_per_stop (float): Extra seconds per stop for a larger optimization, before
            the speed-up.
        driving_speed_kmh (float): Speed used to turn haversine distances into travel durations.
        keep_stops (bool): False keeps only ids, counts and externalIds of stops (for million-stop
            memory benchmarks); stops are then served as skeletons and optimizations only count them.
        ungeocodable_marker (str): An address whose text contains this (any case) cannot be geocoded.
        team (TeamConfig): Depots, drivers and custom stop properties.
        seed (int): Seeds the id generator and the fault injector's random draws.
        strict (bool): Reject unknown body fields where the official schemas close the object
            (``additionalProperties: false``), unknown query parameters and bodies on body-less calls
            (400).
        strict_inputs (bool): Reject unknown keys inside the objects the official schemas leave open too
            (a stop's ``weight``, a driver's and a depot's ``routeOverrides``), to catch a typo. False
            (the default) accepts and drops them, as a service driven by those schemas does.
        earliest_plan_date (datetime.date): Plans starting earlier are rejected ("dates too far in the
            past").
        latest_plan_date (datetime.date): Plans starting later are rejected ("dates too far in the
            future").
        stop_collections_since (datetime.date): Plans starting before this have no stop collections:
            stop calls answer 410.
        inaccessible_before (datetime.date | None): Plans starting before this answer 403
            ``plan_inaccessible`` (the public OpenAPI document's data-access restriction); None keeps
            every plan accessible.
        route_title (Literal['plan', 'driver']): What an optimized route is titled: ``plan`` (the
            default) gives it its plan's title, as clients written against the service expect;
            ``driver`` gives it its driver's name. The official schema does not settle it.
        webhook_url (str | None): Where the emulator POSTs the service's webhook events
            (``stop.allocated`` on distribution, the driver's progress on ``Emulator.simulate_route``),
            signed as the service signs them (``route_planning_async.webhooks``); None sends none. An
            ``http://`` or ``https://`` URL with a host a request can reach: anything else is refused
            when the configuration is made, rather than every event dropped. The banner, the logs and
            ``repr`` show it with its credentials and query masked.
        webhook_version (str): The API version of the webhook events: their ``version`` and the shape of
            their stops (``"v0.2b"`` or ``"v1"``). Either way they are signed with ``spoke-signature``
            only (the v1 migration guide: "Webhooks requests will now only contain the
            ``spoke-signature`` header").
        webhook_secret (str): The team's webhook secret: the HMAC-SHA256 key of the ``spoke-signature``
            header.
        webhook_retries (int): Deliveries answered with other than 2xx (or not answered) are tried this
            many times more.
        webhook_backoff (float): Seconds before the first retry of a delivery, doubled for each next
            one, before the speed-up (waited with ``sleep``).
        clock (Callable[[], float]): The server's monotonic clock (rate-limit windows, operation
            deadlines, the request log).
        wall_clock (Callable[[], float]): Epoch seconds for timestamps in bodies (operation metadata,
            route states).
        sleep (Callable[[float], Awaitable[object]]): How the link delays (``latency``) wait; a test
            with a fake ``clock`` passes one that advances it.
    """

    api_key: str = attrs.field(
        default="emulator-api-key",
        validator=_usable_key,
        metadata=described('The team\'s API key (Basic ``base64("<key>:")`` or Bearer).'),
    )
    extra_api_keys: tuple[str, ...] = attrs.field(
        default=(),
        converter=tuple,
        validator=_usable_keys,
        metadata=described("More keys of the same team; each key has its own rate-limit windows."),
    )
    host: str = attrs.field(
        default="127.0.0.1",
        validator=_loopback,
        metadata=described("Loopback address to bind: ``127.0.0.1`` or ``::1``."),
    )
    port: int = attrs.field(default=0, metadata=described("TCP port; 0 picks a free one."))
    tls: bool = attrs.field(
        default=True,
        metadata=described(
            "Serve HTTPS with a throwaway CA (``trustme``); False serves plain HTTP on loopback."
        ),
    )
    speedup: float = attrs.field(
        default=1.0,
        validator=_positive,
        metadata=described(
            "Divides every rate-limit period and optimization delay: 60 makes a minute last one second."
        ),
    )
    rate_limits: RateLimits = attrs.field(
        factory=RateLimits.default,
        metadata=described(
            "The server-side limits, before the speed-up. ``RateLimits.unlimited()`` turns them off."
        ),
    )
    limiter: LimiterKind = attrs.field(
        default="sliding_window",
        validator=_limiter_kind,
        metadata=described(
            "How the server reads each rule: ``sliding_window`` (at most ``amount`` in any window of "
            "``period``; the strictest reading) or ``token_bucket`` (a bucket of ``burst * amount`` "
            "tokens, full at first, refilled continuously at ``amount / period``; a request takes "
            "``rule.cost(weight)`` tokens of every rule of its category)."
        ),
    )
    burst: float = attrs.field(
        default=1.0,
        validator=_positive,
        metadata=described(
            "A token bucket's capacity as a multiple of each rule's amount (``token_bucket`` only): 1.0 "
            "admits ``amount`` at once, then the refill rate; 2.0 a burst of twice that."
        ),
    )
    count_rejected: bool = attrs.field(
        default=True,
        metadata=described(
            'Whether requests answered 429 still count ("continued retrying at a high rate keeps being '
            'rejected until the rate drops", contract Limits): in a sliding window they occupy it like '
            "admitted ones; in a token bucket they take their cost too, down to an empty bucket (never "
            "into debt). Either way retrying faster than the limit never gets through, and slower does."
        ),
    )
    limit_schedule: tuple[tuple[float, RateLimits], ...] = attrs.field(
        default=(),
        converter=_schedule,
        metadata=described(
            "Changes of the server's limits mid-run: ``(seconds, limits)`` pairs, the seconds counted "
            "in contract time (divided by ``speedup``) from the emulator's start (or from "
            "``Emulator.restart_limit_schedule()``), the limits in contract seconds and in force from "
            "then until the next change. E.g. ``((20, four_per_second), (40, ten_per_second))`` drops "
            "reads from ``rate_limits``'s 10/s to 4/s at t=20 and restores them at t=40. The windows "
            "(and buckets) keep their history across a change; ``Emulator.set_rate_limits`` changes "
            "them at run time; the request log tells which limits were in force when "
            "(``emu.log.limits_at(t)``)."
        ),
    )
    punish_sustained: PunishSustained | None = attrs.field(
        default=None,
        metadata=described(
            "Reject sustained traffic near the limit in force; None (the default) only enforces the limits."
        ),
    )
    lockout: Lockout | None = attrs.field(
        default=None,
        metadata=described(
            "Refuse every request of a key and category whose attempts were refused at a high rate "
            "until it slows down (the v1 description's rule; :class:`Lockout` states it); None (the "
            "default) only enforces the limits."
        ),
    )
    latency: float = attrs.field(
        default=0.0,
        validator=_non_negative,
        metadata=described(
            "One-way link delay in real seconds (not divided by ``speedup``: it models the network). A "
            "request arrives (is counted by the limiter, logged and handled) ``latency`` (+ jitter) "
            "after it reached the socket, and its answer is sent ``latency`` (+ jitter) after it was "
            "made."
        ),
    )
    latency_jitter: float = attrs.field(
        default=0.0,
        validator=_non_negative,
        metadata=described(
            "Up to this many real seconds more, drawn uniformly per direction and per request from a "
            "``random.Random`` seeded by ``seed`` (so requests can overtake each other, as on a real "
            "link)."
        ),
    )
    instant_optimization_max_stops: int = attrs.field(
        default=25,
        metadata=described(
            "Plans with at most this many stops are optimized at once (``done: true`` in the answer)."
        ),
    )
    optimization_delay: float = attrs.field(
        default=5.0,
        validator=_non_negative,
        metadata=described("Seconds a larger optimization takes, before the speed-up."),
    )
    optimization_delay_per_stop: float = attrs.field(
        default=0.0,
        validator=_non_negative,
        metadata=described("Extra seconds per stop for a larger optimization, before the speed-up."),
    )
    driving_speed_kmh: float = attrs.field(
        default=40.0,
        validator=_positive,
        metadata=described("Speed used to turn haversine distances into travel durations."),
    )
    keep_stops: bool = attrs.field(
        default=True,
        metadata=described(
            "False keeps only ids, counts and externalIds of stops (for million-stop memory "
            "benchmarks); stops are then served as skeletons and optimizations only count them."
        ),
    )
    ungeocodable_marker: str = attrs.field(
        default="UNGEOCODABLE",
        metadata=described("An address whose text contains this (any case) cannot be geocoded."),
    )
    team: TeamConfig = attrs.field(
        factory=TeamConfig, metadata=described("Depots, drivers and custom stop properties.")
    )
    seed: int = attrs.field(
        default=0, metadata=described("Seeds the id generator and the fault injector's random draws.")
    )
    strict: bool = attrs.field(
        default=True,
        metadata=described(
            "Reject unknown body fields where the official schemas close the object "
            "(``additionalProperties: false``), unknown query parameters and bodies on body-less "
            "calls (400)."
        ),
    )
    strict_inputs: bool = attrs.field(
        default=False,
        metadata=described(
            "Reject unknown keys inside the objects the official schemas leave open too (a stop's "
            "``weight``, a driver's and a depot's ``routeOverrides``), to catch a typo. False (the "
            "default) accepts and drops them, as a service driven by those schemas does."
        ),
    )
    earliest_plan_date: datetime.date = attrs.field(
        default=datetime.date(2000, 1, 1),
        metadata=described('Plans starting earlier are rejected ("dates too far in the past").'),
    )
    latest_plan_date: datetime.date = attrs.field(
        default=datetime.date(2100, 12, 31),
        metadata=described('Plans starting later are rejected ("dates too far in the future").'),
    )
    stop_collections_since: datetime.date = attrs.field(
        default=datetime.date(2023, 4, 1),
        metadata=described("Plans starting before this have no stop collections: stop calls answer 410."),
    )
    inaccessible_before: datetime.date | None = attrs.field(
        default=None,
        metadata=described(
            "Plans starting before this answer 403 ``plan_inaccessible`` (the public OpenAPI document's "
            "data-access restriction); None keeps every plan accessible."
        ),
    )
    route_title: Literal["plan", "driver"] = attrs.field(
        default="plan",
        metadata=described(
            "What an optimized route is titled: ``plan`` (the default) gives it its plan's title, as "
            "clients written against the service expect; ``driver`` gives it its driver's name. The "
            "official schema does not settle it."
        ),
    )
    webhook_url: str | None = attrs.field(
        default=None,
        repr=_masked_url,
        validator=_webhook_url,
        metadata=described(
            "Where the emulator POSTs the service's webhook events (``stop.allocated`` on distribution, "
            "the driver's progress on ``Emulator.simulate_route``), signed as the service signs them "
            "(``route_planning_async.webhooks``); None sends none. An ``http://`` or ``https://`` URL "
            "with a host a request can reach: anything else is refused when the configuration is made, "
            "rather than every event dropped. The banner, the logs and ``repr`` show it with its "
            "credentials and query masked."
        ),
    )
    webhook_version: str = attrs.field(
        default="v0.2b",
        metadata=described(
            "The API version of the webhook events: their ``version`` and the shape of their stops "
            '(``"v0.2b"`` or ``"v1"``). Either way they are signed with ``spoke-signature`` only (the '
            'v1 migration guide: "Webhooks requests will now only contain the ``spoke-signature`` '
            'header").'
        ),
    )
    webhook_secret: str = attrs.field(
        default="emulator-webhook-secret-32-chars",
        repr=_masked_secret,
        validator=attrs.validators.min_len(1),
        metadata=described(
            "The team's webhook secret: the HMAC-SHA256 key of the ``spoke-signature`` header."
        ),
    )
    webhook_retries: int = attrs.field(
        default=5,
        validator=attrs.validators.ge(0),
        metadata=described(
            "Deliveries answered with other than 2xx (or not answered) are tried this many times more."
        ),
    )
    webhook_backoff: float = attrs.field(
        default=1.0,
        validator=_non_negative,
        metadata=described(
            "Seconds before the first retry of a delivery, doubled for each next one, before the "
            "speed-up (waited with ``sleep``)."
        ),
    )
    clock: Callable[[], float] = attrs.field(
        default=time.monotonic,
        eq=False,
        metadata=described(
            "The server's monotonic clock (rate-limit windows, operation deadlines, the request log)."
        ),
    )
    wall_clock: Callable[[], float] = attrs.field(
        default=time.time,
        eq=False,
        metadata=described("Epoch seconds for timestamps in bodies (operation metadata, route states)."),
    )
    sleep: Callable[[float], Awaitable[object]] = attrs.field(
        default=asyncio.sleep,
        eq=False,
        metadata=described(
            "How the link delays (``latency``) wait; a test with a fake ``clock`` passes one that "
            "advances it."
        ),
    )

    def scaled(self, seconds: float) -> float:
        """``seconds`` of contract time in server time, after the speed-up."""
        return seconds / self.speedup

    @property
    def server_limits(self) -> RateLimits:
        """The rate limits the server enforces: ``rate_limits`` with every period sped up."""
        return self.rate_limits.scaled(self.speedup)
