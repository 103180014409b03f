"""The values the official documents name for the enumerated fields both API versions share.

A model keeps an enumerated value as the ``str`` it came as, known or not; these
``StrEnum`` classes name the known ones, for comparisons
(``stop.activity == Activity.PICKUP``).
"""

from __future__ import annotations

import enum

__all__ = [
    "Activity",
    "DeliveryState",
    "OptimizationOrder",
    "PlanOptimization",
    "StopType",
    "WeightUnit",
]


class Activity(enum.StrEnum):
    """Known values of a stop's ``activity``.

    Attributes:
        DELIVERY: Drop packages off (the default).
        PICKUP: Collect packages.
    """

    DELIVERY = "delivery"
    """Drop packages off (the default)."""
    PICKUP = "pickup"
    """Collect packages."""


class OptimizationOrder(enum.StrEnum):
    """Known values of a stop's ``optimizationOrder``.

    Attributes:
        FIRST: Placed first in its route.
        LAST: Placed last in its route.
        DEFAULT: The optimizer decides (the default).
    """

    FIRST = "first"
    """Placed first in its route."""
    LAST = "last"
    """Placed last in its route."""
    DEFAULT = "default"
    """The optimizer decides (the default)."""


class StopType(enum.StrEnum):
    """Known values of a stop's ``type``.

    Attributes:
        STOP: A stop in the middle of a route.
        START: The first stop of a route.
        END: The last stop of a route.
    """

    STOP = "stop"
    """A stop in the middle of a route."""
    START = "start"
    """The first stop of a route."""
    END = "end"
    """The last stop of a route."""


class PlanOptimization(enum.StrEnum):
    """Values of a plan's ``optimization`` named by the public API documentation.

    Attributes:
        CREATING: The plan is being set up (the value the contract shows).
        EDITING: The plan is being edited.
        PREVIEW: An optimization result is shown for review.
        OPTIMIZED: The plan has been optimized.
        OPTIMIZING: An optimization is running.
    """

    CREATING = "creating"
    """The plan is being set up (the value the contract shows)."""
    EDITING = "editing"
    """The plan is being edited."""
    PREVIEW = "preview"
    """An optimization result is shown for review."""
    OPTIMIZED = "optimized"
    """The plan has been optimized."""
    OPTIMIZING = "optimizing"
    """An optimization is running."""


class DeliveryState(enum.StrEnum):
    """Known values of ``deliveryInfo.state`` (contract, DeliveryState values).

    Attributes:
        UNATTEMPTED: Not attempted yet (the default).
        DELIVERED_TO_RECIPIENT: Handed to the recipient.
        DELIVERED_TO_THIRD_PARTY: Handed to someone else.
        DELIVERED_TO_MAILBOX: Left in the mailbox.
        DELIVERED_TO_SAFE_PLACE: Left in a safe place.
        DELIVERED_TO_PICKUP_POINT: Left at a pickup point.
        DELIVERED_OTHER: Delivered some other way.
        PICKED_UP_FROM_CUSTOMER: Collected from the customer.
        PICKED_UP_UNMANNED: Collected with nobody present.
        PICKED_UP_FROM_LOCKER: Collected from a locker.
        PICKED_UP_OTHER: Collected some other way.
        FAILED_NOT_HOME: Failed: nobody home.
        FAILED_CANT_FIND_ADDRESS: Failed: the address could not be found.
        FAILED_NO_PARKING: Failed: no parking.
        FAILED_NO_TIME: Failed: out of time.
        FAILED_PACKAGE_NOT_AVAILABLE: Failed: the package was not available.
        FAILED_MISSING_REQUIRED_PROOF: Failed: the required proof could not be collected.
        FAILED_PAYMENT_NOT_RECEIVED: Failed: the payment due on delivery was not received.
        FAILED_OTHER: Failed for another reason.
    """

    UNATTEMPTED = "unattempted"
    """Not attempted yet (the default)."""
    DELIVERED_TO_RECIPIENT = "delivered_to_recipient"
    """Handed to the recipient."""
    DELIVERED_TO_THIRD_PARTY = "delivered_to_third_party"
    """Handed to someone else."""
    DELIVERED_TO_MAILBOX = "delivered_to_mailbox"
    """Left in the mailbox."""
    DELIVERED_TO_SAFE_PLACE = "delivered_to_safe_place"
    """Left in a safe place."""
    DELIVERED_TO_PICKUP_POINT = "delivered_to_pickup_point"
    """Left at a pickup point."""
    DELIVERED_OTHER = "delivered_other"
    """Delivered some other way."""
    PICKED_UP_FROM_CUSTOMER = "picked_up_from_customer"
    """Collected from the customer."""
    PICKED_UP_UNMANNED = "picked_up_unmanned"
    """Collected with nobody present."""
    PICKED_UP_FROM_LOCKER = "picked_up_from_locker"
    """Collected from a locker."""
    PICKED_UP_OTHER = "picked_up_other"
    """Collected some other way."""
    FAILED_NOT_HOME = "failed_not_home"
    """Failed: nobody home."""
    FAILED_CANT_FIND_ADDRESS = "failed_cant_find_address"
    """Failed: the address could not be found."""
    FAILED_NO_PARKING = "failed_no_parking"
    """Failed: no parking."""
    FAILED_NO_TIME = "failed_no_time"
    """Failed: out of time."""
    FAILED_PACKAGE_NOT_AVAILABLE = "failed_package_not_available"
    """Failed: the package was not available."""
    FAILED_MISSING_REQUIRED_PROOF = "failed_missing_required_proof"
    """Failed: the required proof could not be collected."""
    FAILED_PAYMENT_NOT_RECEIVED = "failed_payment_not_received"
    """Failed: the payment due on delivery was not received."""
    FAILED_OTHER = "failed_other"
    """Failed for another reason."""


class WeightUnit(enum.StrEnum):
    """Known values of ``weight.unit`` (official schema; the team's capacity unit).

    Attributes:
        KILOGRAM: Kilograms.
        POUND: Pounds.
        METRIC_TON: Metric tons.
    """

    KILOGRAM = "kilogram"
    """Kilograms."""
    POUND = "pound"
    """Pounds."""
    METRIC_TON = "metric-ton"
    """Metric tons."""
