"""The client's settings, and their checks: a bad one raises :class:`ConfigurationError` naming it.

Every check runs when the client is made, before anything is sent; the
messages never quote an API key, nor the credentials, query or fragment of a
URL (any of them may hold a secret).
"""

from __future__ import annotations

import ipaddress
import math
import os
import pathlib
import ssl
from collections.abc import Sequence
from typing import TypedDict

import aiohttp
import attrs
import yarl

from route_planning_async._checks._hosts import host_problem
from route_planning_async._checks._keys import key_problem
from route_planning_async._core import AuthScheme
from route_planning_async._docs import described
from route_planning_async._errors import ConfigurationError
from route_planning_async._rate_limits._backends import RateLimitBackend
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async._rate_limits._limits_file import NAMED_LIMITS, read_limits_file
from route_planning_async._scheduler._retry import RetryPolicy
from route_planning_async._transport import Transport

__all__ = [
    "API_KEY_ENV",
    "BASE_URL_ENV",
    "CA_FILE_ENV",
    "LIMITS_ENV",
    "ClientSettings",
    "SettingTexts",
    "check_instance",
    "checked_api_key",
    "checked_base_url",
    "checked_polling",
    "checked_timeout",
    "limits_from_environment",
    "ssl_from_environment",
]

API_KEY_ENV = "ROUTE_PLANNING_API_KEY"
"""The environment variable the key is read from when the client is given none."""

BASE_URL_ENV = "ROUTE_PLANNING_BASE_URL"
"""The environment variable the service address is read from when the client is given none."""

LIMITS_ENV = "ROUTE_PLANNING_LIMITS"
"""The environment variable naming the client's rate limits when it is given none: ``contract``,
``public-docs``, or a limits file (JSON or TOML, the command line's ``--limits FILE`` format,
as ``route-planning emulator`` exports its own)."""

CA_FILE_ENV = "ROUTE_PLANNING_CA_FILE"
"""The environment variable naming a PEM file of the CAs to trust (a private CA, the
emulator's own), read when the client is given none of ``ssl``, ``session`` and ``transport``."""

_LOOPBACK_NAMES = {"localhost"}


class ClientSettings(TypedDict, total=False):
    """The keyword settings of a client (the client's docstring says what each one is)."""

    base_url: str | None
    auth: AuthScheme
    rate_limits: RateLimits | None
    retry: RetryPolicy | None
    rate_limit_backend: RateLimitBackend | None
    session: aiohttp.ClientSession | None
    ssl: ssl.SSLContext | None
    timeout: float | None
    transport: Transport | None
    trace_configs: Sequence[aiohttp.TraceConfig]
    poll_interval: float | None
    max_poll_interval: float | None


@attrs.frozen
class SettingTexts:
    """What each of the :class:`ClientSettings` is: the one place of the texts that the client's
    ``__init__`` lists under ``Keyword Args:`` (its types are the ``ClientSettings``' own).

    Never built: only its fields' ``described`` texts are read.
    """

    base_url: object = attrs.field(
        metadata=described(
            """The service address; ``http://`` is refused but for loopback hosts, and so are an
            empty string, a relative URL, a query and credentials. ``None`` (the default) means
            ``ROUTE_PLANNING_BASE_URL``, else the version's service."""
        )
    )
    auth: object = attrs.field(
        metadata=described('``"basic"`` (the primary scheme, the default) or ``"bearer"``.')
    )
    rate_limits: object = attrs.field(
        metadata=described(
            """The client-side limits. ``None`` (the default) reads ``ROUTE_PLANNING_LIMITS``
            when it is set (``contract``, ``public-docs`` or a limits file), else takes the
            version's: v0.2b the contract's (:meth:`RateLimits.default`), v1 the public API
            documentation's (:meth:`RateLimits.public_docs`)."""
        )
    )
    retry: object = attrs.field(
        metadata=described("How 429s, 5xx answers and connection errors are retried.")
    )
    rate_limit_backend: object = attrs.field(
        metadata=described(
            """Where the limit state lives. ``None`` (the default): in memory, shared by the
            clients of this process that use the same origin and API key (one budget per process);
            give an :class:`InMemoryBackend` of its own to keep a client apart. A shared backend
            (Redis) lets many processes share one key's limits. A backend holds one budget: a client
            of another origin or API key than its first is refused (:class:`ConfigurationError`)."""
        )
    )
    session: object = attrs.field(
        metadata=described(
            """An aiohttp session to borrow; it is left open on exit. Note that aiohttp re-sends a
            GET or DELETE once, unseen, over a fresh connection when a pooled one was closed; the
            client turns that off on the session it creates."""
        )
    )
    ssl: object = attrs.field(
        metadata=described(
            """An :class:`ssl.SSLContext` for a private CA. Verification stays on. ``None`` (the
            default), without ``session`` or ``transport``, trusts the CA file
            ``ROUTE_PLANNING_CA_FILE`` names when it is set, else the system's CAs."""
        )
    )
    timeout: object = attrs.field(
        metadata=described(
            """Total seconds for one attempt of one request: finite and positive, or ``None`` to
            turn the timeout off. Default 60."""
        )
    )
    transport: object = attrs.field(
        metadata=described(
            """Send every attempt through this :class:`Transport` instead of an aiohttp session (a
            test double, another HTTP library). It gets requests relative to ``base_url`` and
            without credentials, and is neither opened nor closed by the client; ``session`` and
            ``ssl`` do not apply."""
        )
    )
    trace_configs: object = attrs.field(
        metadata=described(
            """aiohttp :class:`aiohttp.TraceConfig` objects for the session the client creates
            (tracing, metrics: see the docs' OpenTelemetry recipe). A borrowed ``session`` keeps
            its own."""
        )
    )
    poll_interval: object = attrs.field(
        metadata=described(
            """The ``poll_interval`` of every wait (``operations.wait``, ``wait_many``,
            ``plans.optimize_and_wait``, ``live_edit``) that gives none; ``None`` (the default):
            the waits' own default. ``Emulator.client()`` divides it by the emulator's speed-up."""
        )
    )
    max_poll_interval: object = attrs.field(
        metadata=described(
            """The ``max_poll_interval`` of every wait that gives none, as ``poll_interval``."""
        )
    )


def checked_base_url(base_url: object, setting: str = "base_url") -> str:
    """The base URL without its trailing slash; HTTPS only, but for loopback hosts."""
    if not isinstance(base_url, str):
        raise ConfigurationError(f"{setting} must be a str, got {type(base_url).__name__}")
    if not base_url.strip():
        # An unset configuration variable must not quietly mean the production service.
        raise ConfigurationError(
            f"{setting} is empty; leave base_url out (None) for the default service address"
        )
    try:
        url = yarl.URL(base_url)
    except ValueError as exc:
        raise ConfigurationError(f"{setting} is not a valid URL: {exc}") from None
    # Quoted without credentials, query or fragment: any of them may hold a secret.
    shown = repr(str(url.with_user(None).with_query(None).with_fragment(None)) if url.is_absolute() else "…")
    if url.scheme not in ("https", "http") or not url.raw_host:
        raise ConfigurationError(f"{setting} must be an absolute https:// URL, got {shown}")
    problem = host_problem(url.raw_host)
    if problem is not None:
        raise ConfigurationError(f"{setting}'s host {problem}: {shown}")
    if url.user or url.password:
        raise ConfigurationError(f"{setting} must not carry credentials; pass api_key instead")
    if url.query_string or url.fragment or "?" in base_url or "#" in base_url:
        raise ConfigurationError(f"{setting} must not have a query or fragment: {shown}")
    if url.scheme == "http" and not _is_loopback(url.host or ""):
        # The service rejects plain HTTP (contract, Authentication rule 4); only a
        # local test server on this machine may be spoken to without TLS.
        raise ConfigurationError(
            f"{setting} must use https://; plain http:// is only allowed for loopback hosts, got {shown}"
        )
    return str(url).rstrip("/")


def checked_api_key(api_key: object) -> str:
    """The key, when it is a non-blank ``str`` that can go in a header as it is.

    ``None`` means ``ROUTE_PLANNING_API_KEY``.
    """
    # The message never quotes the key: a wrong setting may still be a real secret.
    if api_key is None:
        if API_KEY_ENV not in os.environ:
            raise ConfigurationError(f"no api_key given and {API_KEY_ENV} is not set")
        try:
            return checked_api_key(os.environ[API_KEY_ENV])
        except ConfigurationError as exc:
            raise ConfigurationError(f"{API_KEY_ENV}: {exc}") from None
    if not isinstance(api_key, str):
        raise ConfigurationError(f"api_key must be a str, got {type(api_key).__name__}")
    problem = key_problem(api_key)
    if problem is not None:
        raise ConfigurationError(f"api_key {problem}")
    return api_key


def ssl_from_environment() -> ssl.SSLContext | None:
    """A context trusting the CAs of the file ``ROUTE_PLANNING_CA_FILE`` names; None when it is not set.

    Verification stays on; the system's CAs are not trusted besides the file's.
    """
    if CA_FILE_ENV not in os.environ:
        return None
    path = os.environ[CA_FILE_ENV]
    if not path.strip():
        raise ConfigurationError(f"{CA_FILE_ENV} is empty; unset it to trust the system's CAs")
    try:
        return ssl.create_default_context(cafile=path)
    except ssl.SSLError as exc:
        # A file without a certificate, or a broken one.
        raise ConfigurationError(f"{CA_FILE_ENV}: no usable CA certificate in {path!r}: {exc}") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigurationError(f"{CA_FILE_ENV}: cannot read the CA file {path!r}: {reason}") from None


def limits_from_environment() -> RateLimits | None:
    """The limits ``ROUTE_PLANNING_LIMITS`` names (a name or a limits file); None when it is not set."""
    if LIMITS_ENV not in os.environ:
        return None
    value = os.environ[LIMITS_ENV]
    if not value.strip():
        raise ConfigurationError(f"{LIMITS_ENV} is empty; unset it for the version's default limits")
    named = NAMED_LIMITS.get(value)
    if named is not None:
        return named()
    path = pathlib.Path(value)
    if value == "-" or not _is_file(path):
        shown = value if len(value) <= 80 else value[:77] + "..."
        # An emulator that stopped removes its limits file: the message says what to do.
        raise ConfigurationError(
            f"{LIMITS_ENV}={shown!r}: neither {' nor '.join(NAMED_LIMITS)} nor an existing file "
            "(an emulator that stopped removes its file: unset it)"
        )
    return read_limits_file(path, LIMITS_ENV + f" ({value})")


def _is_file(path: pathlib.Path) -> bool:
    """Whether ``path`` is a file; False for a name no file can have (too long, a NUL in it)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def checked_polling(poll_interval: object, max_poll_interval: object) -> dict[str, float]:
    """The client's defaults of the waits' ``poll_interval`` and ``max_poll_interval`` (those given):
    positive numbers, the cap not below the first delay."""
    given = {"poll_interval": poll_interval, "max_poll_interval": max_poll_interval}
    defaults: dict[str, float] = {}
    for name, value in given.items():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
            raise ConfigurationError(f"{name} must be a positive number of seconds, got {value!r}")
        defaults[name] = float(value)
    if defaults.get("max_poll_interval", math.inf) < defaults.get("poll_interval", 0.0):
        raise ConfigurationError("max_poll_interval must be at least poll_interval")
    return defaults


def checked_timeout(timeout: object) -> float | None:
    """Seconds for one attempt: finite and positive, or None to disable explicitly."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float):
        raise ConfigurationError(
            f"timeout must be a number of seconds (or None to disable it), got {type(timeout).__name__}"
        )
    if not (math.isfinite(timeout) and timeout > 0):
        # aiohttp reads 0 (and NaN, and a negative) as "no timeout": a silent server would hang forever.
        raise ConfigurationError(
            f"timeout must be a finite, positive number of seconds (or None to disable it), got {timeout!r}"
        )
    return float(timeout)


def check_instance(setting: str, value: object, expected: type | tuple[type, ...]) -> None:
    """Refuse a ``value`` that is neither None nor an instance of ``expected``."""
    if value is not None and not isinstance(value, expected):
        names = " or ".join(t.__name__ for t in (expected if isinstance(expected, tuple) else (expected,)))
        raise ConfigurationError(f"{setting} must be a {names} (or None), got {type(value).__name__}")


def _is_loopback(host: str) -> bool:
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
