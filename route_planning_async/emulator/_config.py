"""The emulator's configuration, as plain frozen data.

Everything the emulator decides that the contract leaves open is a field here,
with its default, so a test can see (and change) what it relies on.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Literal

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._limits import RateLimits

__all__ = [
    "CustomStopPropertyConfig",
    "DepotConfig",
    "DriverConfig",
    "EmulatorConfig",
    "LimiterKind",
    "PunishSustained",
    "ServiceOfferingConfig",
    "TeamConfig",
    "WeightUnit",
]


WeightUnit = Literal["kilogram", "pound", "metric-ton"]
"""A unit of weight: of a team's vehicle capacity, and of a stop's ``weight`` (official schema)."""

_ID = re.compile(r"[A-Za-z0-9_-]{1,50}")


def _bare_id(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if _ID.fullmatch(value) is None:
        raise ValueError(f"{attribute.name} must be 1 to 50 letters, digits, '-' or '_', got {value!r}")


@fields_documented(title="Attributes")
@attrs.frozen
class DepotConfig:
    """A depot of the emulated team: where its routes start and end, with a full address.

    Only ``id`` and ``name`` are served as the Depot (contract, Depot); the address is what a
    route's ``start`` and ``end`` stops carry (official schema, stopSchema ``address``):
    ``address`` (the one-line form, :attr:`one_line`), ``addressLineOne``, ``addressLineTwo``,
    ``latitude``, ``longitude`` and ``placeId``.
    """

    id: str = attrs.field(validator=_bare_id, metadata=described("Bare id; served as ``depots/<id>``."))
    name: str = attrs.field(metadata=described("Display name; the first part of the one-line address."))
    latitude: float = attrs.field(
        metadata=described(
            "Latitude of where routes start and end, and of the centre of the deterministic geocoder."
        )
    )
    longitude: float = attrs.field(metadata=described("Longitude of the same place."))
    address_line_one: str = attrs.field(
        default="1 Example Street",
        metadata=described("Street and number: the start and end stops' ``addressLineOne``."),
    )
    address_line_two: str = attrs.field(
        default="", metadata=described("Flat, floor, building (may be empty).")
    )
    city: str = attrs.field(
        default="London",
        metadata=described("City, in the one-line address and the stops' ``addressLineTwo``."),
    )
    state: str = attrs.field(default="", metadata=described("State or region (may be empty)."))
    zip: str = attrs.field(default="N1 1AA", metadata=described("ZIP or postal code."))
    country: str = attrs.field(default="GB", metadata=described("Country (ISO 3166-1 alpha-2 code or name)."))
    place_id: str | None = attrs.field(
        default=None,
        metadata=described(
            "The stops' ``placeId``; None: ``depot-<id>``, so a client can tell depot stops by it."
        ),
    )

    @property
    def one_line(self) -> str:
        """The full one-line address: name, lines, city, state, zip and country joined by ``", "``."""
        parts = (self.name, self.address_line_one, self.address_line_two, self.city, self.state, self.zip)
        return ", ".join(part for part in (*parts, self.country) if part)

    @property
    def second_line(self) -> str:
        """The stops' ``addressLineTwo``: the second line, city, state, zip and country."""
        parts = (self.address_line_two, self.city, self.state, self.zip, self.country)
        return ", ".join(part for part in parts if part)

    @property
    def served_place_id(self) -> str:
        """The ``placeId`` of the depot's start and end stops."""
        return self.place_id if self.place_id is not None else f"depot-{self.id}"


@fields_documented(title="Attributes")
@attrs.frozen
class DriverConfig:
    """A driver of the emulated team."""

    id: str = attrs.field(validator=_bare_id, metadata=described("Bare id; served as ``drivers/<id>``."))
    name: str | None = attrs.field(
        default=None, metadata=described("Driver name; also the title of the driver's routes.")
    )
    email: str | None = attrs.field(
        default=None,
        metadata=described("E-mail; the identifier a stop's ``allowedDriversIdentifiers`` lists."),
    )
    phone: str | None = attrs.field(
        default=None, metadata=described("Phone; the identifier used when the driver has no e-mail.")
    )
    display_name: str | None = attrs.field(default=None, metadata=described("The driver's ``displayName``."))
    active: bool = attrs.field(
        default=True,
        metadata=described("Paused (inactive) drivers cannot be added to plans and get no routes."),
    )
    depots: tuple[str, ...] = attrs.field(
        default=(), metadata=described("Bare depot ids; empty means the team's main depot.")
    )
    start_time: datetime.time | None = attrs.field(
        default=None, metadata=described("Route start; ETAs count from here. None: the team default.")
    )
    end_time: datetime.time | None = attrs.field(
        default=None, metadata=described("Route end (served in routeOverrides only).")
    )
    max_stops: int | None = attrs.field(
        default=None, metadata=described("Most stops the optimizer gives this driver; the rest are skipped.")
    )
    driving_speed: str = attrs.field(
        default="average", metadata=described("How fast the driver drives: ``routeOverrides.drivingSpeed``.")
    )
    delivery_speed: str = attrs.field(
        default="average",
        metadata=described("How fast the driver delivers at a stop: ``routeOverrides.deliverySpeed``."),
    )
    vehicle_type: str | None = attrs.field(
        default=None, metadata=described("The driver's vehicle: ``routeOverrides.vehicleType``.")
    )

    @property
    def identifier(self) -> str:
        """How stops refer to this driver in ``allowedDriversIdentifiers``: e-mail, else phone, else id."""
        return self.email or self.phone or f"drivers/{self.id}"


@fields_documented(title="Attributes")
@attrs.frozen
class CustomStopPropertyConfig:
    """A custom stop property definition of the team (at most 3, contract Limits)."""

    id: str = attrs.field(metadata=described("A UUID string; stops send values keyed by it."))
    name: str = attrs.field(metadata=described("The property's name, as the service shows it."))
    visible_to_drivers: bool = attrs.field(
        default=True, metadata=described("Served as ``visibleToDrivers`` (public docs field).")
    )
    visible_to_recipients: bool = attrs.field(
        default=False, metadata=described("Served as ``visibleToRecipients`` (public docs field).")
    )


def _service_identifier(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if re.fullmatch(r"[A-Za-z0-9]{1,32}", value) is None:
        raise ValueError(f"identifier must be 1 to 32 letters or digits, got {value!r}")


@fields_documented
@attrs.frozen
class ServiceOfferingConfig:
    """A service the team offers (v1's ``serviceInfo``): a stop names it by ``identifier``.

    A stop may take it when its activity is one of ``activities``, its plan's depot one of
    ``depots`` (none: every depot) and, with an operating area, its place within
    ``area_radius_km`` of the area's centre; otherwise its create or update is refused
    (400 ``service_activity_not_supported``, ``service_not_available_at_depot``,
    ``operating_area_violation``). Its SLA is due ``horizon_days`` after it starts.
    """

    identifier: str = attrs.field(
        validator=_service_identifier,
        metadata=described("1 to 32 letters or digits; stops send it as ``serviceInfo.identifier``."),
    )
    name: str = attrs.field(metadata=described("Display name."))
    activities: tuple[str, ...] = attrs.field(
        default=("delivery", "pickup"), metadata=described("The stop activities it serves.")
    )
    depots: tuple[str, ...] = attrs.field(
        default=(), metadata=described("Bare ids of the depots it is offered at; empty: every depot.")
    )
    area_latitude: float | None = attrs.field(
        default=None,
        metadata=described("Latitude of its operating area's centre; None: it operates everywhere."),
    )
    area_longitude: float | None = attrs.field(
        default=None, metadata=described("Longitude of its operating area's centre.")
    )
    area_radius_km: float | None = attrs.field(
        default=None, metadata=described("Radius of its operating area, in kilometres.")
    )
    horizon_days: int = attrs.field(
        default=1, metadata=described("Days from the SLA start to its due date (``deliveryHorizon``).")
    )
    due_time: datetime.time | None = attrs.field(
        default=None,
        metadata=described("Time of day the SLA is due (``slaDueTime``); None: the whole day."),
    )
    price: float = attrs.field(default=0.0, metadata=described("Its price (``price.value``)."))
    currency: str = attrs.field(default="GBP", metadata=described("Its price's currency (ISO 4217)."))


def _default_services() -> tuple[ServiceOfferingConfig, ...]:
    return (
        ServiceOfferingConfig(
            "NEXTDAY",
            "Next day delivery",
            activities=("delivery",),
            area_latitude=51.5074,
            area_longitude=-0.1278,
            area_radius_km=40.0,
            price=4.5,
        ),
    )


def _default_depots() -> tuple[DepotConfig, ...]:
    return (
        DepotConfig("main", "Main depot", 51.5074, -0.1278, "1 Example Street", zip="WC2N 5DU"),
        DepotConfig("north", "North depot", 51.5560, -0.1180, "2 Holloway Road", zip="N7 8JG"),
    )


def _default_drivers() -> tuple[DriverConfig, ...]:
    return (
        DriverConfig("driver-ana", "Ana", "ana@example.com", "+440000000001"),
        DriverConfig("driver-ben", "Ben", "ben@example.com", "+440000000002"),
        DriverConfig(
            "driver-cleo", "Cleo", "cleo@example.com", "+440000000003", start_time=datetime.time(7, 30)
        ),
        DriverConfig("driver-dan", "Dan", "dan@example.com", "+440000000004", max_stops=40),
        DriverConfig("driver-paused", "Pat", "pat@example.com", "+440000000005", active=False),
    )


def _default_properties() -> tuple[CustomStopPropertyConfig, ...]:
    return (
        CustomStopPropertyConfig("6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a01", "Gate code"),
        CustomStopPropertyConfig("6f1c4f0e-4a44-4b7b-9d59-0d6f2b1d1a02", "Floor", visible_to_recipients=True),
    )


def _at_most_three(
    instance: object,
    attribute: attrs.Attribute[tuple[CustomStopPropertyConfig, ...]],
    value: tuple[object, ...],
) -> None:
    if len(value) > 3:
        raise ValueError("a team has at most 3 custom stop properties (contract, Limits)")


def _some(
    instance: object, attribute: attrs.Attribute[tuple[DepotConfig, ...]], value: tuple[object, ...]
) -> None:
    if not value:
        raise ValueError("a team needs at least one depot (its main depot)")


@fields_documented(title="Attributes")
@attrs.frozen
class TeamConfig:
    """The emulated team: depots (the first is the main depot), drivers, custom stop properties,
    service offerings."""

    depots: tuple[DepotConfig, ...] = attrs.field(
        factory=_default_depots,
        converter=tuple,
        validator=_some,
        metadata=described("The team's depots; the first one is the main depot used when a plan names none."),
    )
    drivers: tuple[DriverConfig, ...] = attrs.field(
        factory=_default_drivers, converter=tuple, metadata=described("The team's drivers.")
    )
    custom_stop_properties: tuple[CustomStopPropertyConfig, ...] = attrs.field(
        factory=_default_properties,
        converter=tuple,
        validator=_at_most_three,
        metadata=described("The team's custom stop property definitions."),
    )
    service_offerings: tuple[ServiceOfferingConfig, ...] = attrs.field(
        factory=_default_services,
        converter=tuple,
        metadata=described(
            "The services the team offers (v1's ``serviceInfo``): by default ``NEXTDAY``, deliveries "
            "within 40 km of central London."
        ),
    )
    default_start_time: datetime.time = attrs.field(
        default=datetime.time(9, 0), metadata=described("Route start for drivers without a ``start_time``.")
    )
    default_attempt_duration: float = attrs.field(
        default=120.0,
        metadata=described(
            "Seconds spent at a stop whose ``estimatedAttemptDuration`` is null (the team default)."
        ),
    )
    timezone: str = attrs.field(
        default="UTC",
        metadata=described("IANA zone of the team; plan dates and times of day are read in it for ETAs."),
    )
    capacity_unit: WeightUnit | None = attrs.field(
        default=None,
        metadata=described(
            "The team's vehicle capacity unit. None (the default) leaves capacity off, as a new team "
            "has it: a stop sent with a ``weight`` is then refused with 403 "
            "``vehicle_capacity_disabled`` (official schema). With a unit, a weight must be given in it "
            "(400 ``weight.unit`` otherwise)."
        ),
    )

    @property
    def main_depot(self) -> DepotConfig:
        """The depot plans and unassigned stops get when they name none."""
        return self.depots[0]


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


def _loopback(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    loopback_host(value)


def _positive(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if not value > 0:
        raise ValueError(f"{attribute.name} must be positive, got {value!r}")


def _non_negative(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} must not be negative, got {value!r}")


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
    """

    api_key: str = attrs.field(
        default="emulator-api-key",
        metadata=described('The team\'s API key (Basic ``base64("<key>:")`` or Bearer).'),
    )
    extra_api_keys: tuple[str, ...] = attrs.field(
        default=(),
        converter=tuple,
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
            "Reject unknown body fields, unknown query parameters and bodies on body-less calls (400)."
        ),
    )
    earliest_plan_date: datetime.date = attrs.field(
        default=datetime.date(2000, 1, 1),
        metadata=described('Plans starting earlier are rejected ("dates too far in the past").'),
    )
    latest_plan_date: datetime.date = attrs.field(
        default=datetime.date(2099, 12, 31),
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
        metadata=described(
            "Where the emulator POSTs the service's webhook events (``stop.allocated`` on distribution, "
            "the driver's progress on ``Emulator.simulate_route``), signed as the service signs them "
            "(``route_planning_async.webhooks``); None sends none."
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
