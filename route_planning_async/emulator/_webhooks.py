"""Webhook events: the emulator POSTs them, signed, to ``EmulatorConfig.webhook_url``.

As the service does (its public documentation; ``route_planning_async.webhooks``
reads the same facts): the body is ``{type, version, created, data}`` with
``created`` in epoch milliseconds and ``data`` the stop as the API serves it,
and the ``spoke-signature`` header is the HMAC-SHA256 of the body, keyed with
the team's secret, in lowercase hex.

The state tells the sender what happened (``EmulatorState.stop_events``); the
stop is rendered at that moment, as the events' API version serves it, so an
event shows the stop as it was then.
Events are delivered one at a time, in the order they happened, by one task.
A delivery answered with other than 2xx, or not answered, is tried again
``webhook_retries`` times, waiting ``webhook_backoff`` (doubled each time,
sped up, through ``EmulatorConfig.sleep``); every attempt is logged and kept in
:attr:`WebhookSender.deliveries`.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
from typing import TYPE_CHECKING, Any, Final

import aiohttp
import attrs
import yarl

from route_planning_async._docs import described, fields_documented
from route_planning_async._json import read_json
from route_planning_async.emulator._config import EmulatorConfig, shown_url
from route_planning_async.webhooks import SIGNATURE_HEADER, sign

if TYPE_CHECKING:
    from route_planning_async.emulator._api import ApiVersion
    from route_planning_async.emulator._records import StopRecord
    from route_planning_async.emulator._state import EmulatorState

__all__ = ["WebhookDelivery", "WebhookSender"]

logger = logging.getLogger("route_planning_async.emulator.webhooks")

_ATTEMPT_TIMEOUT: Final = aiohttp.ClientTimeout(total=30.0)


@fields_documented(title="Attributes")
@attrs.define
class WebhookDelivery:
    """One event and what became of its delivery.

    Attributes:
        type (str): The event type.
        body (bytes): The body as sent (the signed bytes).
        signature (str): The ``spoke-signature`` header sent with it.
        statuses (list[int | None]): The answer's status of each attempt; None when the receiver could
            not be reached.
        delivered (bool): An attempt was answered with a 2xx.
    """

    type: str = attrs.field(metadata=described("The event type."))
    body: bytes = attrs.field(metadata=described("The body as sent (the signed bytes)."))
    signature: str = attrs.field(metadata=described("The ``spoke-signature`` header sent with it."))
    statuses: list[int | None] = attrs.field(
        factory=list,
        metadata=described(
            "The answer's status of each attempt; None when the receiver could not be reached."
        ),
    )
    delivered: bool = attrs.field(default=False, metadata=described("An attempt was answered with a 2xx."))

    @property
    def attempts(self) -> int:
        """How many times it was sent."""
        return len(self.statuses)

    @property
    def event(self) -> dict[str, Any]:
        """The envelope, as JSON data."""
        envelope: dict[str, Any] = read_json(self.body)
        return envelope


class WebhookSender:
    """Signs events and delivers them to ``config.webhook_url`` in order, with retries.

    Args:
        config: The configuration in force (``webhook_url``, ``webhook_secret``, retries).
        state: The state whose stop events it sends.
        version: The API version of the events: their ``version``, and the shape of their stops.

    Attributes:
        deliveries (list[WebhookDelivery]): Every event sent, in order, with the status of each attempt.
    """

    def __init__(self, config: EmulatorConfig, state: EmulatorState, version: ApiVersion) -> None:
        self.config = config
        self.state = state
        self.version = version
        self.deliveries: list[WebhookDelivery] = []
        """Every event sent, in order, with the status of each attempt."""
        self._queue: collections.deque[WebhookDelivery] = collections.deque()
        self._worker: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        if config.webhook_url is not None:
            state.stop_events.append(self._stop_event)

    def _stop_event(self, kind: str, record: StopRecord) -> None:
        self.send(kind, self.version.stop_json(self.state, record))

    def send(self, kind: str, data: Any) -> WebhookDelivery:
        """Queue the event ``kind`` with ``data`` (any JSON), created now; the delivery starts at once.

        Also for events the emulator does not produce itself (``test.send_event``, or a
        type newer than the events' version, to test a receiver's tolerance). Needs a
        running event loop.
        """
        if self.config.webhook_url is None:
            raise RuntimeError("the emulator has no webhook_url to send events to")
        envelope = {
            "type": kind,
            "version": self.version.name,
            "created": round(self.config.wall_clock() * 1000),
            "data": data,
        }
        body = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False).encode()
        delivery = WebhookDelivery(kind, body, sign(body, self.config.webhook_secret))
        self.deliveries.append(delivery)
        self._queue.append(delivery)
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._deliver_all())
        return delivery

    async def drain(self) -> None:
        """Return once every queued event was delivered or given up."""
        while self._worker is not None:
            await asyncio.shield(self._worker)

    async def close(self) -> None:
        """Stop delivering (events still queued are dropped) and close the connections."""
        worker, self._worker = self._worker, None
        self._queue.clear()
        if worker is not None:
            worker.cancel()
            await asyncio.gather(worker, return_exceptions=True)
        session, self._session = self._session, None
        if session is not None:
            await session.close()

    async def _deliver_all(self) -> None:
        try:
            while self._queue:
                await self._deliver(self._queue.popleft())
        finally:
            self._worker = None

    async def _deliver(self, delivery: WebhookDelivery) -> None:
        url = self.config.webhook_url
        assert url is not None
        shown = shown_url(url)  # the logs' copy: credentials and query masked
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=_ATTEMPT_TIMEOUT)
        headers = {"Content-Type": "application/json", SIGNATURE_HEADER: delivery.signature}
        for attempt in range(self.config.webhook_retries + 1):
            if attempt:
                delay = self.config.scaled(self.config.webhook_backoff * 2 ** (attempt - 1))
                await self.config.sleep(delay)
            try:
                async with self._session.post(url, data=delivery.body, headers=headers) as response:
                    await response.read()
                    status: int | None = response.status
            except (aiohttp.ClientError, TimeoutError) as exc:
                status = None
                logger.warning(
                    "webhook %s to %s: attempt %d failed: %s",
                    delivery.type,
                    shown,
                    attempt + 1,
                    _failure(exc, url),
                )
            delivery.statuses.append(status)
            if status is not None and 200 <= status < 300:
                delivery.delivered = True
                logger.info("webhook %s delivered to %s (attempt %d)", delivery.type, shown, attempt + 1)
                return
            if status is not None:
                logger.warning(
                    "webhook %s to %s: attempt %d answered %d", delivery.type, shown, attempt + 1, status
                )
        logger.error("webhook %s to %s: gave up after %d attempts", delivery.type, shown, delivery.attempts)


def _failure(exc: BaseException, url: str) -> str:
    """What a failed delivery says, for the logs: ``exc`` with the secrets of ``url`` (its
    credentials and query, as sent and as quoted) masked, as :func:`shown_url` masks them."""
    text = f"{type(exc).__name__}: {exc}"
    try:
        parsed = yarl.URL(url)
    except ValueError:
        return type(exc).__name__
    secrets = [url, str(parsed), parsed.raw_user, parsed.raw_password, parsed.user, parsed.password]
    secrets += [parsed.raw_query_string, parsed.query_string]
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = text.replace(secret, shown_url(url) if secret in (url, str(parsed)) else "***")
    return text
