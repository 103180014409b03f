"""Request bodies as attrs classes, checked against the contract when they are built.

Every rule the contract documents for a request body is checked in the
constructor, which raises :class:`~route_planning_async.ValidationError` naming
the field path (``address.latitude``, ``allowed_drivers[3]``) and the rule. So a
bad input fails before any request is built, and before any rate-limit budget
is spent.

One rule for every optional field of every input: it defaults to :data:`UNSET`
and is then left out of the JSON body; ``None`` is sent as JSON ``null``; arrays
are sent whole (a PATCH replaces an array in full; contract, General
conventions). Field names are the snake_case forms of the JSON names, and the
one converter (``_converter.py``) turns an input into its camelCase JSON body.

Nested objects are typed inputs too (``StopInput(address=AddressInput(...))``);
plain dicts are not accepted, so a type checker sees every field. Conveniences:
driver and depot references may be bare ids (``"d1"`` becomes ``"drivers/d1"``),
times of day are :class:`datetime.time` and dates :class:`datetime.date`, and
the enumerated values accept the ``StrEnum`` members or their strings.
"""

from __future__ import annotations

import datetime
import enum
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, Literal, NoReturn

import attrs

from route_planning_async import _ids
from route_planning_async._errors import ValidationError
from route_planning_async._models import Activity, OptimizationOrder, ProofOfAttemptRequirements

__all__ = [
    "MAX_ALLOWED_DRIVERS",
    "MAX_BARCODES",
    "MAX_IMPORT_BATCH",
    "MAX_PLAN_DRIVERS",
    "PLAN_YEAR_RANGE",
    "UNSET",
    "AddressInput",
    "OrderInfoInput",
    "PlanInput",
    "PlanUpdate",
    "RecipientInput",
    "ReoptimizationType",
    "StopInput",
    "StopUpdate",
    "TimingInput",
    "UnassignedStopInput",
    "UnassignedStopUpdate",
    "UnsetType",
    "a_or_an",
    "check_batch",
]


class UnsetType(enum.Enum):
    """The type of :data:`UNSET`: a field that was not given and is left out of the body."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> Literal[False]:
        return False


UNSET: Final = UnsetType.UNSET
"""Not given: the field is left out of the JSON body (``None`` is sent as ``null``)."""


class ReoptimizationType(enum.StrEnum):
    """``optimizationType`` values of ``:reoptimize`` (public API documentation)."""

    REORDER_CHANGED_STOPS = "reorder_changed_stops"
    """Place only the stops changed by live calls (the service's default)."""
    REORDER_ALL_STOPS = "reorder_all_stops"
    """Re-order every stop of each route."""
    REDISTRIBUTE_STOPS_BETWEEN_DRIVERS = "redistribute_stops_between_drivers"
    """Move stops between drivers as well."""


# Limits of the contract's Limits section and stop body table.
MAX_IMPORT_BATCH: Final = 100
"""Stops in one batch import (1 to 100)."""
MAX_PLAN_DRIVERS: Final = 50
"""Drivers of a plan."""
MAX_ALLOWED_DRIVERS: Final = 100
"""``allowedDrivers`` of a stop."""
MAX_BARCODES: Final = 50
"""Barcodes of a stop, each 1 to 255 characters."""
PLAN_YEAR_RANGE: Final = (2000, 2100)
"""Years accepted for a plan's ``starts``, inclusive. The contract only says dates
"too far in the future or past are rejected" without bounds; this range keeps
obvious mistakes (year 20026, year 26) on the client and lets every real plan through."""

_ACTIVITIES: Final = frozenset(Activity)
_OPTIMIZATION_ORDERS: Final = frozenset(OptimizationOrder)
_REOPTIMIZATION_TYPES: Final = frozenset(ReoptimizationType)


def _fail(field: str, rule: str) -> NoReturn:
    raise ValidationError(field, rule)


def _path(instance: object, attribute: attrs.Attribute[Any]) -> str:
    prefix: str = getattr(type(instance), "_PATH", "")
    return prefix + attribute.name


def a_or_an(name: str) -> str:
    """``"a StopInput"``, ``"an AddressInput"``: for messages that name a class."""
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


def _absent(value: object) -> bool:
    return value is None or isinstance(value, UnsetType)


# Validators (scalars) --------------------------------------------------------

_Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def _text(min_len: int | None = None, max_len: int | None = None, *, nullable: bool = True) -> _Validator:
    """A string, with an optional length range; UNSET always passes."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        field = _path(instance, attribute)
        if not isinstance(value, str):
            _fail(field, f"must be a string, got {type(value).__name__}")
        if min_len is not None and max_len is not None and not min_len <= len(value) <= max_len:
            _fail(field, f"must be {min_len} to {max_len} characters, got {len(value)}")

    return check


def _number(
    low: float, high: float | None = None, *, integer: bool = False, nullable: bool = True
) -> _Validator:
    """A finite number (never a bool) in ``low..high``; UNSET always passes."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        field = _path(instance, attribute)
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            _fail(field, f"must be {'an integer' if integer else 'a number'}, got {type(value).__name__}")
        if not math.isfinite(value):
            _fail(field, f"must be a finite number, got {value!r}")
        if value < low or (high is not None and value > high):
            bound = f"from {low:g} to {high:g}" if high is not None else f"at least {low:g}"
            _fail(field, f"must be {bound}, got {value!r}")

    return check


def _choice(allowed: frozenset[str], *, nullable: bool = True) -> _Validator:
    """One of the contract's enumerated values."""

    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        if not isinstance(value, str) or value not in allowed:
            names = ", ".join(sorted(allowed))
            _fail(_path(instance, attribute), f"must be one of {names}, got {value!r}")

    return check


def _time_of_day(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """A TimeOfDay: ``datetime.time`` with hour and minute only (contract, TimeOfDay)."""
    if _absent(value):
        return
    field = _path(instance, attribute)
    if not isinstance(value, datetime.time):
        _fail(field, f"must be a datetime.time, got {type(value).__name__}")
    if value.second or value.microsecond or value.tzinfo is not None:
        _fail(field, f"must have hour and minute only (no seconds or time zone), got {value!r}")


def _boolean_or_none(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not _absent(value) and not isinstance(value, bool):
        _fail(_path(instance, attribute), f"must be True, False or None, got {value!r}")


def _instance(cls: type, *, nullable: bool = True) -> _Validator:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, UnsetType) or (value is None and nullable):
            return
        if not isinstance(value, cls):
            _fail(_path(instance, attribute), f"must be {a_or_an(cls.__name__)}, got {type(value).__name__}")

    return check


def _plan_date(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, UnsetType):
        return
    field = _path(instance, attribute)
    if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
        _fail(field, f"must be a datetime.date (not a datetime), got {type(value).__name__}")
    low, high = PLAN_YEAR_RANGE
    if not low <= value.year <= high:
        _fail(field, f"year must be from {low} to {high}, got {value.year}")


# Converters (arrays and references): check, normalize, copy into a list ------


def _string_list(
    field: str, value: object, *, max_items: int, item_min: int = 0, item_max: int | None = None
) -> list[str]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        _fail(field, f"must be a list of strings, got {type(value).__name__}")
    items = list(value)
    if len(items) > max_items:
        _fail(field, f"must have at most {max_items} items, got {len(items)}")
    for index, item in enumerate(items):
        if not isinstance(item, str):
            _fail(f"{field}[{index}]", f"must be a string, got {type(item).__name__}")
        if item_max is not None and not item_min <= len(item) <= item_max:
            _fail(f"{field}[{index}]", f"must be {item_min} to {item_max} characters, got {len(item)}")
    return items


def _driver_list(field: str, value: object, *, max_items: int, dedupe: bool) -> list[str]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        _fail(field, f"must be a list of driver references, got {type(value).__name__}")
    refs = [_ids.driver_ref(item, f"{field}[{index}]") for index, item in enumerate(value)]
    if dedupe:
        # The service ignores duplicates (contract, POST /plans), so they are
        # dropped before the "at most 50" rule is applied.
        refs = list(dict.fromkeys(refs))
    if len(refs) > max_items:
        _fail(field, f"must have at most {max_items} drivers, got {len(refs)}")
    return refs


def _barcodes(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return _string_list("barcodes", value, max_items=MAX_BARCODES, item_min=1, item_max=255)


def _products(value: Sequence[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return _string_list("order_info.products", value, max_items=2**31)


def _plan_drivers(value: Iterable[str] | UnsetType) -> list[str] | UnsetType:
    if isinstance(value, UnsetType):
        return value
    return _driver_list("drivers", value, max_items=MAX_PLAN_DRIVERS, dedupe=True)


def _allowed_drivers(value: Iterable[str] | UnsetType | None) -> list[str] | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    return _driver_list("allowed_drivers", value, max_items=MAX_ALLOWED_DRIVERS, dedupe=False)


def _driver(value: str | UnsetType | None) -> str | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    return _ids.driver_ref(value, "driver")


def _depot(value: str | UnsetType | None) -> str | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    return _ids.depot_ref(value, "depot")


def _custom_properties(
    value: Mapping[str, str] | UnsetType | None,
) -> dict[str, str] | UnsetType | None:
    if value is None or isinstance(value, UnsetType):
        return value
    if not isinstance(value, Mapping):
        _fail("custom_properties", f"must be a mapping of property id to string, got {type(value).__name__}")
    entries: Iterable[tuple[object, object]] = value.items()
    result: dict[str, str] = {}
    for key, item in entries:
        if not isinstance(key, str) or not key:
            _fail("custom_properties", f"keys must be custom stop property ids (strings), got {key!r}")
        if not isinstance(item, str):
            _fail(f"custom_properties[{key!r}]", f"must be a string, got {type(item).__name__}")
        result[key] = item
    return result


def _not_both_drivers(instance: Any) -> None:
    # Contract, stop body table: driver and allowedDrivers are mutually exclusive.
    if not _absent(instance.driver) and not _absent(instance.allowed_drivers):
        _fail("driver", "driver and allowed_drivers are mutually exclusive; give only one")


# Nested objects --------------------------------------------------------------


@attrs.frozen(kw_only=True)
class AddressInput:
    """Where a stop is. At least one field is required; latitude and longitude,
    when given, override the other fields and must be given together."""

    _PATH: ClassVar[str] = "address."

    address_name: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """Display name only; not used for geocoding."""
    address_line_one: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """First address line."""
    address_line_two: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """Second address line."""
    city: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """City."""
    state: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """State or region."""
    zip: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """Postal code."""
    country: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """Country."""
    latitude: float | UnsetType | None = attrs.field(default=UNSET, validator=_number(-90, 90))
    """Decimal degrees, -90..90."""
    longitude: float | UnsetType | None = attrs.field(default=UNSET, validator=_number(-180, 180))
    """Decimal degrees, -180..180."""

    def __attrs_post_init__(self) -> None:
        if all(_absent(getattr(self, a.name)) for a in attrs.fields(type(self))):
            _fail("address", "at least one address field is required")
        if _absent(self.latitude) != _absent(self.longitude):
            missing = "address.longitude" if _absent(self.longitude) else "address.latitude"
            _fail(missing, "latitude and longitude must be given together")


@attrs.frozen(kw_only=True)
class TimingInput:
    """Time window and duration of a stop."""

    _PATH: ClassVar[str] = "timing."

    earliest_attempt_time: datetime.time | UnsetType | None = attrs.field(
        default=UNSET, validator=_time_of_day
    )
    """Earliest time of day (hour and minute only)."""
    latest_attempt_time: datetime.time | UnsetType | None = attrs.field(default=UNSET, validator=_time_of_day)
    """Latest time of day (hour and minute only)."""
    estimated_attempt_duration: float | UnsetType | None = attrs.field(default=UNSET, validator=_number(1))
    """Seconds at the stop, at least 1; None means the team default."""


@attrs.frozen(kw_only=True)
class RecipientInput:
    """Who receives (or hands over) the packages."""

    _PATH: ClassVar[str] = "recipient."

    external_id: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """The caller's own id for the recipient (the stop list filter ``externalId``)."""
    email: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """E-mail address."""
    phone: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """Phone number."""
    name: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """Name."""


@attrs.frozen(kw_only=True)
class OrderInfoInput:
    """The order behind a stop."""

    _PATH: ClassVar[str] = "order_info."

    products: list[str] | UnsetType = attrs.field(default=UNSET, converter=_products)
    """Product names."""
    seller_order_id: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """The seller's order id."""
    seller_name: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """The seller's name."""
    seller_website: str | UnsetType | None = attrs.field(default=UNSET, validator=_text())
    """The seller's website."""


# Stops -----------------------------------------------------------------------
# The stop body table of the contract; the same rules for plan stops and
# unassigned stops, for create, import, update and the live calls.


_TIMING: Final = _instance(TimingInput)
_RECIPIENT: Final = _instance(RecipientInput)
_ORDER_INFO: Final = _instance(OrderInfoInput)
_PROOF: Final = _instance(ProofOfAttemptRequirements)
_ACTIVITY: Final = _choice(_ACTIVITIES)
_OPTIMIZATION_ORDER: Final = _choice(_OPTIMIZATION_ORDERS)
_PACKAGE_COUNT: Final = _number(1, 10000, integer=True)
_NOTES: Final = _text(1, 2000)
_SERVICE_CLIENT_ID: Final = _text(1, 100)


@attrs.frozen(kw_only=True)
class StopInput:
    """The body of a stop create, batch import entry or live create."""

    address: AddressInput = attrs.field(validator=_instance(AddressInput, nullable=False))
    """Where the stop is (required)."""
    timing: TimingInput | UnsetType | None = attrs.field(default=UNSET, validator=_TIMING)
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = attrs.field(default=UNSET, validator=_RECIPIENT)
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = attrs.field(default=UNSET, validator=_ORDER_INFO)
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = attrs.field(
        default=UNSET, validator=_PROOF
    )
    """Whether proof of attempt is collected."""
    driver: str | UnsetType | None = attrs.field(default=UNSET, converter=_driver)
    """Deprecated: one ``drivers/<id>``; mutually exclusive with ``allowed_drivers``."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>`` allowed for the stop; on creation they join the plan."""
    activity: str | UnsetType | None = attrs.field(default=UNSET, validator=_ACTIVITY)
    """``delivery`` (the service's default) or ``pickup``."""
    optimization_order: str | UnsetType | None = attrs.field(default=UNSET, validator=_OPTIMIZATION_ORDER)
    """``first``, ``last`` or ``default``."""
    package_count: int | UnsetType | None = attrs.field(default=UNSET, validator=_PACKAGE_COUNT)
    """1 to 10000."""
    notes: str | UnsetType | None = attrs.field(default=UNSET, validator=_NOTES)
    """1 to 2000 characters."""
    service_client_id: str | UnsetType | None = attrs.field(default=UNSET, validator=_SERVICE_CLIENT_ID)
    """1 to 100 characters; set on create and import only, never updated."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 50, each 1 to 255 characters."""
    custom_properties: dict[str, str] | UnsetType | None = attrs.field(
        default=UNSET, converter=_custom_properties
    )
    """Values keyed by custom stop property id."""

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@attrs.frozen(kw_only=True)
class StopUpdate:
    """The body of a stop PATCH or live update: only the fields given are changed.

    A stop's location and ``service_client_id`` cannot be updated (contract,
    Stops rule 2): delete the stop and create a new one.
    """

    timing: TimingInput | UnsetType | None = attrs.field(default=UNSET, validator=_TIMING)
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = attrs.field(default=UNSET, validator=_RECIPIENT)
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = attrs.field(default=UNSET, validator=_ORDER_INFO)
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = attrs.field(
        default=UNSET, validator=_PROOF
    )
    """Whether proof of attempt is collected."""
    driver: str | UnsetType | None = attrs.field(default=UNSET, converter=_driver)
    """Deprecated: one ``drivers/<id>``; mutually exclusive with ``allowed_drivers``."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>``; an update does not add them to the plan."""
    activity: str | UnsetType | None = attrs.field(default=UNSET, validator=_ACTIVITY)
    """``delivery`` or ``pickup``."""
    optimization_order: str | UnsetType | None = attrs.field(default=UNSET, validator=_OPTIMIZATION_ORDER)
    """``first``, ``last`` or ``default``."""
    package_count: int | UnsetType | None = attrs.field(default=UNSET, validator=_PACKAGE_COUNT)
    """1 to 10000."""
    notes: str | UnsetType | None = attrs.field(default=UNSET, validator=_NOTES)
    """1 to 2000 characters."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 50, each 1 to 255 characters; replaces the whole list."""
    custom_properties: dict[str, str] | UnsetType | None = attrs.field(
        default=UNSET, converter=_custom_properties
    )
    """Values keyed by custom stop property id."""

    def __attrs_post_init__(self) -> None:
        _not_both_drivers(self)


@attrs.frozen(kw_only=True)
class UnassignedStopInput:
    """The body of an unassigned stop create, or an entry of its batch import."""

    address: AddressInput = attrs.field(validator=_instance(AddressInput, nullable=False))
    """Where the stop is (required)."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=_depot)
    """``depots/<id>``; None or not given means the team's main depot. Not allowed in a
    batch import, where the depot is given once for the whole batch."""
    timing: TimingInput | UnsetType | None = attrs.field(default=UNSET, validator=_TIMING)
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = attrs.field(default=UNSET, validator=_RECIPIENT)
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = attrs.field(default=UNSET, validator=_ORDER_INFO)
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = attrs.field(
        default=UNSET, validator=_PROOF
    )
    """Whether proof of attempt is collected."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>`` allowed for the stop."""
    activity: str | UnsetType | None = attrs.field(default=UNSET, validator=_ACTIVITY)
    """``delivery`` (the service's default) or ``pickup``."""
    optimization_order: str | UnsetType | None = attrs.field(default=UNSET, validator=_OPTIMIZATION_ORDER)
    """``first``, ``last`` or ``default``."""
    package_count: int | UnsetType | None = attrs.field(default=UNSET, validator=_PACKAGE_COUNT)
    """1 to 10000."""
    notes: str | UnsetType | None = attrs.field(default=UNSET, validator=_NOTES)
    """1 to 2000 characters."""
    service_client_id: str | UnsetType | None = attrs.field(default=UNSET, validator=_SERVICE_CLIENT_ID)
    """1 to 100 characters; set on create and import only, never updated."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 50, each 1 to 255 characters."""
    custom_properties: dict[str, str] | UnsetType | None = attrs.field(
        default=UNSET, converter=_custom_properties
    )
    """Values keyed by custom stop property id."""


@attrs.frozen(kw_only=True)
class UnassignedStopUpdate:
    """The body of an unassigned stop PATCH: only the fields given are changed.

    The location and ``service_client_id`` cannot be updated.
    """

    timing: TimingInput | UnsetType | None = attrs.field(default=UNSET, validator=_TIMING)
    """Time window and duration."""
    recipient: RecipientInput | UnsetType | None = attrs.field(default=UNSET, validator=_RECIPIENT)
    """Who receives the packages."""
    order_info: OrderInfoInput | UnsetType | None = attrs.field(default=UNSET, validator=_ORDER_INFO)
    """The order behind the stop."""
    proof_of_attempt_requirements: ProofOfAttemptRequirements | UnsetType | None = attrs.field(
        default=UNSET, validator=_PROOF
    )
    """Whether proof of attempt is collected."""
    allowed_drivers: list[str] | UnsetType | None = attrs.field(default=UNSET, converter=_allowed_drivers)
    """At most 100 ``drivers/<id>``."""
    activity: str | UnsetType | None = attrs.field(default=UNSET, validator=_ACTIVITY)
    """``delivery`` or ``pickup``."""
    optimization_order: str | UnsetType | None = attrs.field(default=UNSET, validator=_OPTIMIZATION_ORDER)
    """``first``, ``last`` or ``default``."""
    package_count: int | UnsetType | None = attrs.field(default=UNSET, validator=_PACKAGE_COUNT)
    """1 to 10000."""
    notes: str | UnsetType | None = attrs.field(default=UNSET, validator=_NOTES)
    """1 to 2000 characters."""
    barcodes: list[str] | UnsetType = attrs.field(default=UNSET, converter=_barcodes)
    """At most 50, each 1 to 255 characters; replaces the whole list."""
    custom_properties: dict[str, str] | UnsetType | None = attrs.field(
        default=UNSET, converter=_custom_properties
    )
    """Values keyed by custom stop property id."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=_depot)
    """``depots/<id>``; None means the team's main depot."""


# Plans -----------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class PlanInput:
    """The body of a plan create (contract, POST /plans)."""

    title: str = attrs.field(validator=_text(1, 255, nullable=False))
    """1 to 255 characters."""
    starts: datetime.date = attrs.field(validator=_plan_date)
    """The day of the plan; its year must be in :data:`PLAN_YEAR_RANGE`."""
    drivers: list[str] | UnsetType = attrs.field(default=UNSET, converter=_plan_drivers)
    """``drivers/<id>`` (bare ids accepted); duplicates dropped, then at most 50."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=_depot)
    """``depots/<id>``; None or not given means the team's main depot."""


@attrs.frozen(kw_only=True)
class PlanUpdate:
    """The body of a plan PATCH: only the fields given are changed; ``drivers``
    replaces the whole list. Same rules as :class:`PlanInput`."""

    title: str | UnsetType = attrs.field(default=UNSET, validator=_text(1, 255, nullable=False))
    """1 to 255 characters."""
    starts: datetime.date | UnsetType = attrs.field(default=UNSET, validator=_plan_date)
    """The day of the plan."""
    drivers: list[str] | UnsetType = attrs.field(default=UNSET, converter=_plan_drivers)
    """``drivers/<id>``; replaces the plan's whole list."""
    depot: str | UnsetType | None = attrs.field(default=UNSET, converter=_depot)
    """``depots/<id>``; None means the team's main depot."""


def check_batch(stops: object, cls: type, field: str = "stops") -> list[Any]:
    """The items of a batch import as a list, after the contract's batch rules:
    1 to 100 entries (Limits: batch import size), each an instance of ``cls``."""
    if isinstance(stops, str | bytes | Mapping) or not isinstance(stops, Iterable):
        _fail(field, f"must be a sequence of {cls.__name__}, got {type(stops).__name__}")
    items = list(stops)
    if not 1 <= len(items) <= MAX_IMPORT_BATCH:
        _fail(field, f"must have 1 to {MAX_IMPORT_BATCH} stops, got {len(items)}")
    for index, item in enumerate(items):
        if not isinstance(item, cls):
            _fail(f"{field}[{index}]", f"must be {a_or_an(cls.__name__)}, got {type(item).__name__}")
    return items
