"""Webhooks: verify, parse and receive the stop events the service pushes.

The service POSTs each event to the team's webhook URL. What its public
documentation says, and this module relies on:

- the ``spoke-signature`` header (``circuit-signature`` in older documentation)
  carries an HMAC-SHA256 of the **raw request body**, keyed with the team's
  32-character webhook secret. v1's events carry ``spoke-signature`` only (its
  migration guide); v0.2b's may carry either. The documentation does not say
  whether the digest is sent as hex or base64, so :func:`verify_signature`
  accepts both and :func:`sign` writes lowercase hex;
- the body is an envelope ``{type, version, created, data}``: ``created`` in
  epoch milliseconds, ``data`` a Stop, or an unassigned stop for the
  ``unassigned_stop.*`` types (:class:`WebhookEventType` lists the types), in the
  shape of the API version that ``version`` names (``v0.2b`` or ``v1``):
  :func:`parse_event` decodes it with that version's models.

Verify before parsing, and verify the bytes as received: JSON parsed and
serialized again is not the body the service signed. :func:`webhook_handler`
does both for an aiohttp web app::

    from aiohttp import web
    from route_planning_async.webhooks import WebhookEvent, webhook_handler

    async def on_event(event: WebhookEvent) -> None:
        print(event.type, event.data.id)

    app = web.Application()
    app.router.add_post("/webhooks/route-planning", webhook_handler(secret, on_event))

:func:`verify_signature` and :func:`parse_event` are plain functions for any
other framework. ``aiohttp.web`` is imported only when a handler is made.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import collections
import datetime
import enum
import functools
import hashlib
import hmac
import json
import logging
import math
from collections.abc import Awaitable, Callable, Hashable
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._errors import DecodeError, RoutePlanningError
from route_planning_async._json import JSONInputError, read_json
from route_planning_async._versions import API_VERSIONS, api_version

if TYPE_CHECKING:
    from aiohttp import web

    from route_planning_async.v0_2b import _models as _v0_2b
    from route_planning_async.v1 import _models as _v1

    EventStop: TypeAlias = _v0_2b.Stop | _v0_2b.UnassignedStop | _v1.Stop | _v1.UnassignedStop

__all__ = [
    "DEFAULT_MAX_BODY_SIZE",
    "LEGACY_SIGNATURE_HEADER",
    "SIGNATURE_HEADER",
    "InvalidEventError",
    "WebhookEvent",
    "WebhookEventType",
    "parse_event",
    "sign",
    "verify_signature",
    "webhook_handler",
]

SIGNATURE_HEADER: Final = "spoke-signature"
"""The header that carries the body's signature."""
LEGACY_SIGNATURE_HEADER: Final = "circuit-signature"
"""The same header under the name older documentation gives it; read when the first is absent."""
DEFAULT_MAX_BODY_SIZE: Final = 1024 * 1024
"""Largest body :func:`webhook_handler` reads (bytes); one stop's JSON is a few kilobytes."""

_DIGEST_SIZE: Final = hashlib.sha256().digest_size

logger = logging.getLogger("route_planning_async.webhooks")


class WebhookEventType(enum.StrEnum):
    """The event types of v0.2b and v1. :attr:`WebhookEvent.type` keeps newer ones as plain strings.

    Attributes:
        STOP_ALLOCATED: The stop's route was distributed to its driver.
        STOP_OUT_FOR_DELIVERY: The driver started the route the stop is on.
        STOP_ATTEMPTED_DELIVERY: The driver attempted the stop; ``data.delivery_info`` says how it went.
        STOP_DEPARTED: The driver left the stop.
        STOP_TRACKING_LINK_ADDED: The stop got its recipient tracking link.
        UNASSIGNED_STOP_TRACKING_LINK_ADDED: An unassigned stop got its recipient tracking link.
        TEST_SEND_EVENT: A test event sent from the service's settings.
    """

    STOP_ALLOCATED = "stop.allocated"
    """The stop's route was distributed to its driver."""
    STOP_OUT_FOR_DELIVERY = "stop.out_for_delivery"
    """The driver started the route the stop is on."""
    STOP_ATTEMPTED_DELIVERY = "stop.attempted_delivery"
    """The driver attempted the stop; ``data.delivery_info`` says how it went."""
    STOP_DEPARTED = "stop.departed"
    """The driver left the stop."""
    STOP_TRACKING_LINK_ADDED = "stop.tracking_link_added"
    """The stop got its recipient tracking link."""
    UNASSIGNED_STOP_TRACKING_LINK_ADDED = "unassigned_stop.tracking_link_added"
    """An unassigned stop got its recipient tracking link."""
    TEST_SEND_EVENT = "test.send_event"
    """A test event sent from the service's settings."""


class InvalidEventError(RoutePlanningError, ValueError):
    """A webhook body that is not an event envelope (not JSON, or a field missing or mistyped)."""


@fields_documented(title="Attributes")
@attrs.define(kw_only=True)
class WebhookEvent:
    """One event the service pushed to the webhook URL.

    Attributes:
        type (str): A :class:`WebhookEventType` member when known; a newer type is kept as the string
            sent.
        version (str): The API version of the event's format, as sent (``v0.2b``, ``v1``).
        created (datetime.datetime): When the event happened (aware, UTC; sent as epoch milliseconds).
        data (EventStop | dict[str, Any] | None): The stop, as a model of the event's version: ``Stop``,
            or ``UnassignedStop`` for ``unassigned_stop.*`` (:class:`route_planning_async.Stop` for
            v0.2b, :class:`route_planning_async.v1.Stop` for v1); for a type whose data is neither, or a
            version the library does not know, the JSON as sent.
    """

    type: str = attrs.field(
        metadata=described(
            "A :class:`WebhookEventType` member when known; a newer type is kept as the string sent."
        )
    )
    version: str = attrs.field(
        metadata=described("The API version of the event's format, as sent (``v0.2b``, ``v1``).")
    )
    created: datetime.datetime = attrs.field(
        metadata=described("When the event happened (aware, UTC; sent as epoch milliseconds).")
    )
    data: EventStop | dict[str, Any] | None = attrs.field(
        metadata=described(
            "The stop, as a model of the event's version: ``Stop``, or ``UnassignedStop`` for "
            "``unassigned_stop.*`` (:class:`route_planning_async.Stop` for v0.2b, "
            ":class:`route_planning_async.v1.Stop` for v1); for a type whose data is neither, or "
            "a version the library does not know, the JSON as sent."
        )
    )

    @property
    def dedupe_key(self) -> Hashable:
        """What makes a delivery the same event: its type, what it is about and ``created``.

        What it is about is the stop's id; for data kept as JSON, its ``id`` when that is a
        string, else the whole JSON (keys sorted), so two events about different things are
        never one.
        """
        subject: str | None
        if self.data is None:
            subject = None
        elif isinstance(self.data, dict):
            data_id = self.data.get("id")
            if isinstance(data_id, str):
                subject = data_id
            else:
                subject = json.dumps(self.data, sort_keys=True, default=str)
        else:
            subject = self.data.id
        return (str(self.type), subject, self.created)


# Signatures ------------------------------------------------------------------


def sign(body: bytes, secret: str | bytes) -> str:
    """The signature of a body under a secret: HMAC-SHA256, lowercase hex.

    Args:
        body: The raw request body, as sent.
        secret: The webhook's secret, as text (keyed by its UTF-8 bytes) or bytes; not empty.

    Returns:
        The hex digest, as the service sends it in the signature header.

    Raises:
        TypeError: The secret is neither ``str`` nor ``bytes``.
        ValueError: The secret is empty.
    """
    return hmac.new(_key(secret), body, hashlib.sha256).hexdigest()


def verify_signature(body: bytes, signature: str | bytes | None, secret: str | bytes) -> bool:
    """Whether a signature is the HMAC-SHA256 of the raw body under the secret.

    The comparison takes the same time wherever the digests differ. A signature
    that is neither hex nor base64 of 32 bytes is simply not valid.

    Args:
        body: The raw request body, as received (before any JSON decoding).
        signature: The signature header's value, hex or base64, as text or ASCII bytes;
            None (no header) is not valid.
        secret: The webhook's secret, as for :func:`sign`.

    Returns:
        True when the signature is valid.

    Raises:
        TypeError: The secret is neither ``str`` nor ``bytes``.
        ValueError: The secret is empty.
    """
    expected = hmac.new(_key(secret), body, hashlib.sha256).digest()
    if isinstance(signature, bytes | bytearray):
        try:
            signature = bytes(signature).decode("ascii")
        except UnicodeDecodeError:
            return False
    if not isinstance(signature, str):
        return False
    sent = _decode_digest(signature.strip())
    return sent is not None and hmac.compare_digest(sent, expected)


def _key(secret: str | bytes) -> bytes:
    if isinstance(secret, str):
        key = secret.encode()
    elif isinstance(secret, bytes | bytearray):
        key = bytes(secret)
    else:
        # Named by its type only: the value may be the secret itself.
        raise TypeError(f"the webhook secret must be str or bytes, not {type(secret).__name__}")
    if not key:
        # An empty key signs for anyone: refuse it rather than accept every forgery.
        raise ValueError("the webhook secret is empty")
    return key


def _decode_digest(text: str) -> bytes | None:
    if len(text) == 2 * _DIGEST_SIZE:
        try:
            return bytes.fromhex(text)
        except ValueError:
            return None
    # Standard or URL-safe alphabet, padded or not.
    padded = text.replace("-", "+").replace("_", "/") + "=" * (-len(text) % 4)
    try:
        raw = base64.b64decode(padded.encode("ascii"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == _DIGEST_SIZE else None


# Parsing ---------------------------------------------------------------------

_KNOWN_TYPES: Final = {member.value: member for member in WebhookEventType}


def parse_event(body: bytes) -> WebhookEvent:
    """The event in a webhook body (verify its signature first).

    ``data`` of a ``stop.*`` event is a ``Stop`` and of an ``unassigned_stop.*`` event an
    ``UnassignedStop`` of the API version the event's ``version`` names (``v0.2b``:
    :class:`~route_planning_async.Stop`; ``v1``: :class:`route_planning_async.v1.Stop`),
    decoded by that version's converter (unknown fields ignored); a version's models
    are imported when its first event is parsed. An event type the library does not
    know still parses: its data is decoded by the shape of its id (``plans/…/stops/…``
    or ``unassignedStops/…``), else kept as JSON. An event of a version the library
    does not know keeps its data as JSON.

    Args:
        body: The raw request body.

    Returns:
        The :class:`WebhookEvent`.

    Raises:
        InvalidEventError: The body is not an event envelope, or its JSON passes a bound
            of the library's JSON reader (nesting deeper than ``_json.MAX_DEPTH``, a number
            of more digits than ``_json.MAX_DIGITS``).
    """
    try:
        envelope = read_json(body)
    except JSONInputError as exc:
        raise InvalidEventError(f"the webhook body {exc}") from None
    if not isinstance(envelope, dict):
        raise InvalidEventError("the webhook body is not a JSON object")
    kind, version, created = envelope.get("type"), envelope.get("version"), envelope.get("created")
    if not isinstance(kind, str) or not kind:
        raise InvalidEventError("the webhook body has no event 'type'")
    if not isinstance(version, str | int | float) or isinstance(version, bool):
        raise InvalidEventError("the webhook body has no 'version'")
    if not isinstance(created, int | float) or isinstance(created, bool):
        raise InvalidEventError("the webhook body has no 'created' time (epoch milliseconds)")
    try:
        when = datetime.datetime.fromtimestamp(created / 1000, datetime.UTC)
    except (OverflowError, OSError, ValueError):
        raise InvalidEventError(f"'created' is not a time: {created!r}") from None
    return WebhookEvent(
        type=_KNOWN_TYPES.get(kind, kind),
        version=str(version),
        created=when,
        data=_data(kind, str(version), envelope.get("data")),
    )


@attrs.frozen
class _Decoder:
    """One version's stop models and the decoder that makes them."""

    stop: type[Any]
    unassigned_stop: type[Any]
    structure: Callable[[Any, type[Any]], Any]


@functools.cache
def _decoder(version: str) -> _Decoder | None:
    """The models of the registered version an event names (``v1`` or ``1``); None for another."""
    try:
        registered = api_version(version if version.startswith("v") else f"v{version}")
    except ValueError:
        return None
    models = registered.module("_models")
    return _Decoder(models.Stop, models.UnassignedStop, registered.decoder().structure)


def _data(kind: str, version: str, data: Any) -> EventStop | dict[str, Any] | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise InvalidEventError("the event's 'data' is not a JSON object")
    decoder = _decoder(version)
    if decoder is None:
        logger.debug("an event of version %r (not one of %s) keeps its data as JSON", version, API_VERSIONS)
        return data
    model: type[Any] | None = None
    stop_id = data.get("id")
    if kind.startswith("stop."):
        model = decoder.stop
    elif kind.startswith("unassigned_stop."):
        model = decoder.unassigned_stop
    elif isinstance(stop_id, str) and stop_id.startswith("plans/") and "/stops/" in stop_id:
        model = decoder.stop
    elif isinstance(stop_id, str) and stop_id.startswith("unassignedStops/"):
        model = decoder.unassigned_stop
    if model is None:
        return data
    try:
        decoded: EventStop = decoder.structure(data, model)
    except (DecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidEventError(f"the event's data is not a {version} {model.__name__}: {exc}") from None
    return decoded


# Receiving -------------------------------------------------------------------


def webhook_handler(
    secret: str | bytes,
    on_event: Callable[[WebhookEvent], Awaitable[object]],
    *,
    max_body_size: int = DEFAULT_MAX_BODY_SIZE,
    dedupe_window: int = 0,
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """An aiohttp.web handler that verifies, parses and hands each event to ``on_event``.

    The whole body is read before its signature is checked, whether it comes with a
    ``Content-Length`` or chunked, in one piece or many.

    - a missing or wrong signature: 401, and ``on_event`` is not called;
    - a body larger than ``max_body_size`` bytes: 413, at once for a ``Content-Length``
      over it, else as soon as that many bytes were read, reading no further;
    - a body that is not an event: 400;
    - otherwise ``await on_event(event)``, then 200. When it raises, aiohttp answers
      500 and the service delivers the event again.

    Args:
        secret: The webhook's secret, as for :func:`sign`.
        on_event: Awaited with each valid :class:`WebhookEvent`.
        max_body_size: The largest body read, in bytes; positive.
        dedupe_window: Process each event once among the last that many distinct events
            (by :attr:`~WebhookEvent.dedupe_key`): a delivery of an event whose ``on_event``
            returned is answered 200 "duplicate" without calling it again. An event counts
            as processed only once ``on_event`` returned: a redelivery that arrives while
            the same event's ``on_event`` still runs waits for it, then is a duplicate if it
            returned, or calls ``on_event`` itself if it raised, so a failure is never
            acknowledged and its event not lost. 0, the default, calls ``on_event`` for
            every delivery, even at the same time.

    Returns:
        The handler, for ``app.router.add_post(path, handler)``.

    Raises:
        TypeError: The secret is neither ``str`` nor ``bytes``.
        ValueError: The secret is empty, ``max_body_size`` is not a positive finite number
            (NaN included), or ``dedupe_window`` is negative or NaN.
    """
    from aiohttp import web

    _key(secret)
    if isinstance(max_body_size, bool) or not isinstance(max_body_size, int | float):
        raise ValueError(f"max_body_size must be a number of bytes, got {type(max_body_size).__name__}")
    if not 1 <= max_body_size < math.inf:  # NaN too: it would turn the 413 bound off
        raise ValueError(f"max_body_size must be a positive finite number of bytes, got {max_body_size!r}")
    if not dedupe_window >= 0:
        raise ValueError(f"dedupe_window must not be negative or NaN, got {dedupe_window!r}")
    once = _Once(dedupe_window) if dedupe_window else None

    async def handle(request: web.Request) -> web.StreamResponse:
        signature = request.headers.get(SIGNATURE_HEADER) or request.headers.get(LEGACY_SIGNATURE_HEADER)
        if not signature:
            return web.Response(status=401, text=f"missing {SIGNATURE_HEADER} header")
        body = await _read_body(request, max_body_size)
        if body is None:
            too_large = web.Response(status=413, text="body too large")
            too_large.force_close()  # the rest of the body is not read: end the connection
            return too_large
        if not verify_signature(body, signature, secret):
            return web.Response(status=401, text="signature does not match")
        try:
            event = parse_event(body)
        except InvalidEventError as exc:
            return web.Response(status=400, text=str(exc))
        if once is None:
            await on_event(event)
        elif not await once.process(event, on_event):
            return web.Response(status=200, text="duplicate")
        return web.Response(status=200, text="ok")

    return handle


async def _read_body(request: web.Request, limit: int) -> bytes | None:
    """The whole body, or None as soon as it is known to be longer than ``limit`` bytes."""
    if request.content_length is not None and request.content_length > limit:
        return None
    body = bytearray()
    # Each piece is what arrived so far; a body sent chunked, or larger than the
    # socket's buffer, comes in several.
    async for piece in request.content.iter_any():
        body += piece
        if len(body) > limit:
            return None
    return bytes(body)


class _Once:
    """Calls ``on_event`` once per event among the last ``window`` distinct events processed."""

    def __init__(self, window: int) -> None:
        self._window = window
        self._processed: collections.OrderedDict[Hashable, None] = collections.OrderedDict()
        self._running: dict[Hashable, asyncio.Event] = {}

    async def process(
        self, event: WebhookEvent, on_event: Callable[[WebhookEvent], Awaitable[object]]
    ) -> bool:
        """Await ``on_event(event)`` unless the event was processed; False when it was.

        A delivery of an event that another delivery is processing waits for that one
        to end, and processes the event itself if that one raised.
        """
        key = event.dedupe_key
        while (running := self._running.get(key)) is not None:
            logger.debug("a delivery of %r waits for the one in progress", key)
            await running.wait()
        if key in self._processed:
            return False
        done = self._running[key] = asyncio.Event()
        try:
            await on_event(event)
            self._processed[key] = None
            while len(self._processed) > self._window:
                self._processed.popitem(last=False)
        finally:
            del self._running[key]
            done.set()
        return True
