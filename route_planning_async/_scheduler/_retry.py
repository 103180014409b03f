"""Retry policy, as data: which failed attempts are tried again, and after how long.

The contract's Errors section says a 429 means "the client must wait before
retrying, and exponential backoff with a random delay is recommended". This
module decides; the scheduler (``_scheduler.py``, beside it) carries the decision out.

The rules, per outcome of one attempt:

==========================================  =========================================
outcome                                     retried?
==========================================  =========================================
429                                         always (any method), after ``Retry-After``
                                            when the service sent one, else after a
                                            full-jitter exponential backoff; for as
                                            long as the caller waits, or until
                                            ``max_wait``, never after a fixed count
5xx                                         only when the request is idempotent (GET,
                                            DELETE: contract, Plans rule 3 says to
                                            retry a DELETE after a 500)
TransportError, ``retryable=False``         never: trying again cannot help (the
                                            service's TLS certificate could not be
                                            verified)
TransportError, ``maybe_sent=False``        always: the connection was never made, so
                                            the service cannot have seen the request
TransportError, ``maybe_sent=True``         only when the request is idempotent
anything else (2xx, other 4xx)              never
==========================================  =========================================

POST and PATCH are never repeated after an answer-less or 5xx failure: the
write may have been applied, and repeating it could create a second plan or
stop. A 429 is safe to repeat for every method: the service refused it.

An attempt "may have been applied" (:meth:`RetryPolicy.may_have_applied`) when
it failed with a 5xx or with a transport error after the request may have left
(``maybe_sent=True``). After such an attempt, a 404 to a retried DELETE means
the first attempt deleted it: the delete is done (contract, Plans rule 3), and
:meth:`RetryPolicy.already_done` says so. A 404 after only 429s or
connections never made is a real "not found".

Backoff is "full jitter": the n-th retry waits a uniform random time in
``[0, min(cap, base * 2 ** (n - 1))]``. The randomness comes from one
:class:`random.Random` (or a ``jitter`` callable), so a test can seed it.
``RetryPolicy.testing()`` is the switch, in the spirit of stamina's
``set_testing``, that turns every wait off.
"""

from __future__ import annotations

import http
import math
import random
from collections.abc import Callable
from typing import Any, Literal

import attrs

from route_planning_async._core import Request, Response, parse_retry_after
from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import ConfigurationError, TransportError
from route_planning_async._learning import LearningPolicy

__all__ = ["RetryDecision", "RetryPolicy"]


def _at_least_one(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigurationError(
            f"RetryPolicy.{attribute.name} must be an int, got {type(value).__name__} {value!r}"
        )
    if value < 1:
        raise ConfigurationError(f"RetryPolicy.{attribute.name} must be at least 1, got {value}")


def _seconds(value: Any) -> Any:
    """An int or float as a float; anything else is left for the validator to name."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


def _optional_seconds(value: Any) -> Any:
    return None if value is None else _seconds(value)


def _non_negative(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    """Zero or more seconds; ``inf`` means "no bound"."""
    if not isinstance(value, float):
        raise ConfigurationError(
            f"RetryPolicy.{attribute.name} must be a number of seconds, got {type(value).__name__}"
        )
    if not value >= 0:
        raise ConfigurationError(f"RetryPolicy.{attribute.name} must be >= 0, got {value}")


def _finite_non_negative(instance: object, attribute: attrs.Attribute[float], value: float) -> None:
    _non_negative(instance, attribute, value)
    if not math.isfinite(value):
        raise ConfigurationError(f"RetryPolicy.{attribute.name} must be finite, got {value}")


def _learning_policy(
    instance: object, attribute: attrs.Attribute[LearningPolicy | None], value: object
) -> None:
    if value is not None and not isinstance(value, LearningPolicy):
        raise ConfigurationError(
            f"RetryPolicy.learning must be a LearningPolicy or None, got {type(value).__name__}"
        )


def _bool(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    if not isinstance(value, bool):
        raise ConfigurationError(
            f"RetryPolicy.{attribute.name} must be True or False, got {type(value).__name__} {value!r}"
        )


def _random(instance: object, attribute: attrs.Attribute[random.Random], value: object) -> None:
    if not isinstance(value, random.Random):
        raise ConfigurationError(f"RetryPolicy.rng must be a random.Random, got {type(value).__name__}")


def _jitter(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None and not callable(value):
        raise ConfigurationError(
            f"RetryPolicy.jitter must be a callable (ceiling -> delay) or None, got {type(value).__name__}"
        )


Reason = Literal["rate_limited", "server_error", "transport_error", "final"]


@attrs.frozen
class RetryDecision:
    """What to do after one attempt."""

    retry: bool
    """Whether to send the request again."""
    delay: float
    """Seconds to wait before the next attempt (0 when not retrying)."""
    reason: Reason
    """Why: ``rate_limited`` (429), ``server_error`` (5xx), ``transport_error``, or ``final``."""
    retry_after: float | None = None
    """The wait a 429 asked for in its ``Retry-After`` header, in seconds."""

    @property
    def rate_limited(self) -> bool:
        """True when the attempt was refused with a 429 (the whole category slows down)."""
        return self.reason == "rate_limited"


@fields_documented
@attrs.frozen
class RetryPolicy:
    """How failed attempts are retried, and how a 429 teaches its category the real limit.

    The defaults suit the contract's limits: up to 6 attempts after 5xx answers
    and lost connections, backoff from 0.5 s doubling up to 30 s, ``Retry-After``
    honoured up to 5 minutes, and a 429 retried for as long as the caller waits
    (it is the service's word that the request was not applied). ::

        RetryPolicy(attempts=3, base=1.0, cap=10.0, rng=random.Random(7))
        RetryPolicy.testing()  # no waits at all, for tests

    Keyword Args:
        attempts (int): Attempts that fail with a 5xx or a lost connection, the first included; 1 turns
            those retries off. 429s do not count: see ``max_wait``.
        base (float): Upper bound of the first retry's random wait, in seconds; it doubles per retry.
        cap (float): Largest upper bound of a backoff wait, in seconds.
        max_retry_after (float): A 429 asking for a longer ``Retry-After`` than this is raised instead
            of waited out.
        honour_retry_after (bool): Wait what ``Retry-After`` says; False uses the backoff instead
            (``testing()`` does).
        learning (LearningPolicy | None): How a 429 teaches its category the service's real limit (a
            :class:`LearningPolicy`); None keeps the configured limits whatever the 429s say.
        max_wait (float | None): Seconds a request may spend, from its first queueing, before a 429 is
            raised instead of waited out; None (the default) waits as long as the caller does (cancel
            the task, or use ``asyncio.timeout``, to stop it).
        rng (random.Random): The source of the jitter; seed it for reproducible waits.
        jitter (Callable[[float], float] | None): Optional ``ceiling -> delay`` replacing
            ``rng.uniform(0, ceiling)``.
    """

    attempts: int = attrs.field(
        default=6,
        validator=_at_least_one,
        metadata=described(
            "Attempts that fail with a 5xx or a lost connection, the first included; 1 turns those "
            "retries off. 429s do not count: see ``max_wait``."
        ),
    )
    base: float = attrs.field(
        default=0.5,
        converter=_seconds,
        validator=_finite_non_negative,
        metadata=described("Upper bound of the first retry's random wait, in seconds; it doubles per retry."),
    )
    cap: float = attrs.field(
        default=30.0,
        converter=_seconds,
        validator=_finite_non_negative,
        metadata=described("Largest upper bound of a backoff wait, in seconds."),
    )
    max_retry_after: float = attrs.field(
        default=300.0,
        converter=_seconds,
        validator=_non_negative,
        metadata=described(
            "A 429 asking for a longer ``Retry-After`` than this is raised instead of waited out."
        ),
    )
    honour_retry_after: bool = attrs.field(
        default=True,
        validator=_bool,
        metadata=described(
            "Wait what ``Retry-After`` says; False uses the backoff instead (``testing()`` does)."
        ),
    )
    learning: LearningPolicy | None = attrs.field(
        factory=LearningPolicy,
        validator=_learning_policy,
        metadata=described(
            "How a 429 teaches its category the service's real limit (a :class:`LearningPolicy`); None "
            "keeps the configured limits whatever the 429s say."
        ),
    )
    max_wait: float | None = attrs.field(
        default=None,
        converter=_optional_seconds,
        validator=attrs.validators.optional(_non_negative),
        metadata=described(
            "Seconds a request may spend, from its first queueing, before a 429 is raised instead of "
            "waited out; None (the default) waits as long as the caller does (cancel the task, or use "
            "``asyncio.timeout``, to stop it)."
        ),
    )
    rng: random.Random = attrs.field(
        factory=random.Random,
        validator=_random,
        eq=False,
        repr=False,
        metadata=described("The source of the jitter; seed it for reproducible waits."),
    )
    jitter: Callable[[float], float] | None = attrs.field(
        default=None,
        validator=_jitter,
        eq=False,
        repr=False,
        metadata=described("Optional ``ceiling -> delay`` replacing ``rng.uniform(0, ceiling)``."),
    )

    @classmethod
    def testing(cls, attempts: int = 3) -> RetryPolicy:
        """A policy that retries like the real one but never waits and never slows down.

        Args:
            attempts: Attempts that fail with a 5xx or a lost connection, the first included.

        Returns:
            The :class:`RetryPolicy`.
        """
        return cls(attempts=attempts, base=0.0, cap=0.0, honour_retry_after=False, learning=None)

    @classmethod
    def disabled(cls) -> RetryPolicy:
        """One attempt only: every failure, a 429 included, is returned or raised at once."""
        return cls(attempts=1, max_wait=0.0)

    def ceiling(self, retry: int) -> float:
        """The upper bound of the wait before a retry.

        Args:
            retry: The retry's number, 1 for the first.

        Returns:
            Seconds: ``base`` doubled per retry, at most ``cap``.
        """
        if self.base == 0:
            return 0.0
        # 2 ** 1024 overflows a float; the cap is reached long before that.
        return min(self.cap, self.base * 2.0 ** min(retry - 1, 1000))

    def backoff(self, retry: int) -> float:
        """A full-jitter wait before a retry: uniform in ``[0, ceiling(retry)]``.

        Args:
            retry: The retry's number, 1 for the first.

        Returns:
            Seconds to wait.
        """
        ceiling = self.ceiling(retry)
        if ceiling == 0:
            return 0.0
        delay = self.jitter(ceiling) if self.jitter is not None else self.rng.uniform(0.0, ceiling)
        return min(max(delay, 0.0), ceiling)

    def decide(
        self,
        request: Request,
        outcome: Response | TransportError,
        attempt: int,
        *,
        waited: float = 0.0,
        wall_time: float | None = None,
    ) -> RetryDecision:
        """Whether a request is tried again after a failed attempt.

        Args:
            request: The request.
            outcome: The attempt's answer, or the transport error it raised.
            attempt: The failures of the same kind so far, this one included: 429s
                in a row for a 429, other failures otherwise.
            waited: Seconds since the request was first queued (for ``max_wait``).
            wall_time: Epoch seconds, only used to read a ``Retry-After`` given as
                an HTTP date; None: the current time.

        Returns:
            The :class:`RetryDecision`: whether, after how long, and why.
        """
        retries_left = attempt < self.attempts
        if isinstance(outcome, TransportError):
            # maybe_sent=False: no connection was made, so even a POST is safe to repeat.
            if retries_left and outcome.retryable and (request.idempotent or not outcome.maybe_sent):
                return RetryDecision(True, self.backoff(attempt), "transport_error")
            return RetryDecision(False, 0.0, "transport_error")
        if outcome.status == http.HTTPStatus.TOO_MANY_REQUESTS:
            retry_after = parse_retry_after(outcome.headers.get("Retry-After"), now=wall_time)
            if retry_after is not None and retry_after > self.max_retry_after:
                return RetryDecision(False, 0.0, "rate_limited", retry_after)
            if retry_after is not None and self.honour_retry_after:
                delay = retry_after
            else:
                delay = self.backoff(attempt)
            if self.max_wait is not None and waited + delay > self.max_wait:
                return RetryDecision(False, 0.0, "rate_limited", retry_after)
            return RetryDecision(True, delay, "rate_limited", retry_after)
        if outcome.status >= 500:
            # Only GET and DELETE: a POST or PATCH that failed with a 5xx may have been applied.
            if retries_left and request.idempotent:
                return RetryDecision(True, self.backoff(attempt), "server_error")
            return RetryDecision(False, 0.0, "server_error")
        return RetryDecision(False, 0.0, "final")

    @staticmethod
    def may_have_applied(outcome: Response | TransportError) -> bool:
        """Whether a failed attempt may have been applied by the service.

        True for a 5xx and for a transport error after the request may have left;
        False for an answer the service refused (a 429, other 4xx) and for a
        connection never made.

        Args:
            outcome: The attempt's answer, or the transport error it raised.
        """
        if isinstance(outcome, TransportError):
            return outcome.maybe_sent
        return outcome.status >= 500

    @staticmethod
    def already_done(request: Request, outcome: Response | TransportError, *, after_applied: bool) -> bool:
        """Whether an outcome means the request already succeeded, though it is an error.

        A 404 to a DELETE that is a retry of an attempt that may have been applied
        means that attempt deleted it: the delete is done (contract, Plans rule 3).

        Args:
            request: The request.
            outcome: The attempt's answer, or the transport error it raised.
            after_applied: Whether an earlier attempt may have been applied (see
                :meth:`may_have_applied`).
        """
        return (
            after_applied
            and request.method == "DELETE"
            and isinstance(outcome, Response)
            and outcome.status == http.HTTPStatus.NOT_FOUND
        )
