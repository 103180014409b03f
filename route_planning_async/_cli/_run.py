"""How a command runs: its settings, the client it talks through, its result and its exit code.

A command's coroutine runs under :func:`run_command`, which exits with the
code it returns (:class:`~._errors.ExitCode`) and turns expected failures (the
library's errors, a bad CSV file, a file it cannot write) into one line on
stderr with no traceback; a bug keeps its traceback.

Ctrl-C at any moment of a command ends it with 130 (:class:`~._errors.Interrupted`):
the first cancels the command's coroutine, unless a part of it handles Ctrl-C itself
(:func:`on_interrupt`: an import stops taking batches); a second one abandons it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import datetime
import enum
import hashlib
import json
import os
import signal
import ssl
from collections.abc import AsyncIterable, AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import click

from route_planning_async import (
    AuthenticationError,
    ConfigurationError,
    RateLimits,
    RoutePlanningError,
    ValidationError,
)
from route_planning_async._cli._emulated import CA_FILE_ENV
from route_planning_async._cli._errors import CommandError, ExitCode, InputError, Interrupted
from route_planning_async._cli._files._csv import CsvError
from route_planning_async._cli._files._stdio import describe, is_stdio, read_text
from route_planning_async._cli._limits import parse_limits
from route_planning_async._cli._output._render import Output
from route_planning_async._cli._versions import DEFAULT_API_VERSION, check_base_url, client_class
from route_planning_async._client import API_KEY_ENV
from route_planning_async.emulator._setup._options import bind_problem

if TYPE_CHECKING:
    from rich.console import RenderableType

    from route_planning_async._cli._versions import AnyClient
    from route_planning_async._rate_limits._backends import RateLimitBackend
    from route_planning_async.emulator import EmulatorConfig

__all__ = [
    "API_KEY_ENV",
    "REDIS_PREFIX_DERIVED",
    "Settings",
    "caught_interrupt",
    "dump_json",
    "failure_of",
    "first",
    "jsonable",
    "on_interrupt",
    "open_client",
    "print_result",
    "rate_limit_backend",
    "redis_key_prefix",
    "run_command",
]

T = TypeVar("T")


@attrs.define
class Settings:
    """Options shared by every command; given before or after the command name."""

    api_key_file: Path | None = None
    """A file whose content is the API key (instead of ``ROUTE_PLANNING_API_KEY``)."""
    api_version: str = DEFAULT_API_VERSION
    """``--api-version``: the version of the service the commands speak (``v0.2b``, ``v1``)."""
    base_url: str | None = None
    """The service address; the client's default (or ``ROUTE_PLANNING_BASE_URL``) when None."""
    ca_file: Path | None = None
    """A PEM file of extra CA certificates to trust (a private CA, a local emulator)."""
    emulator: bool = False
    """Run against a fresh embedded emulator instead of the service."""
    json: bool = False
    """Machine-readable output on stdout."""
    limits: str | None = None
    """``--limits``: ``contract``, ``public-docs`` or a limits file (None: the ``--api-version``'s
    published ones, or ``$ROUTE_PLANNING_LIMITS``)."""
    redis: str | None = None
    """``--redis``: the URL of a Redis server whose rate-limit slots every process shares."""
    redis_prefix: str | None = None
    """``--redis-prefix``: the key prefix in Redis (None: derived from the API key)."""

    def rate_limits(self) -> RateLimits | None:
        """The limits ``--limits`` names; None when it was not given."""
        return parse_limits(self.limits) if self.limits is not None else None


def read_api_key(settings: Settings) -> str:
    """The key from ``--api-key-file``, else from ``ROUTE_PLANNING_API_KEY``.

    The key is never taken from a command-line argument, where it would end up
    in the shell history and the process list.
    """
    if settings.api_key_file is not None:
        shown = describe(settings.api_key_file, reading=True)
        try:
            key = read_text(settings.api_key_file).strip()
        except OSError as exc:
            raise InputError(f"cannot read --api-key-file {shown}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise InputError(f"--api-key-file {shown} is not UTF-8 text") from None
        if not key:
            raise InputError(f"--api-key-file {shown} is empty")
        return key
    key = os.environ.get(API_KEY_ENV, "").strip()
    if not key:
        raise InputError(f"no API key: set {API_KEY_ENV} or pass --api-key-file FILE (or try --emulator)")
    return key


REDIS_PREFIX_DERIVED = "route-planning- and the first 16 hex digits of the API key's SHA-256"
"""How :func:`redis_key_prefix` derives the default ``--redis-prefix``, as its help says it."""


def redis_key_prefix(api_key: str) -> str:
    """The default ``--redis-prefix`` (:data:`REDIS_PREFIX_DERIVED`): derived from the key, so
    that one key's processes share it."""
    return "route-planning-" + hashlib.sha256(api_key.encode()).hexdigest()[:16]


@contextlib.asynccontextmanager
async def rate_limit_backend(settings: Settings, api_key: str) -> AsyncIterator[RateLimitBackend | None]:
    """The ``--redis`` backend (closed on exit), or None for the client's in-memory one."""
    prefix = settings.redis_prefix
    if prefix is not None and not prefix.strip():
        raise InputError("--redis-prefix is blank: give a name, or leave it out for the key's own prefix")
    if settings.redis is None:
        if prefix is not None:
            raise InputError(
                "--redis-prefix names keys in Redis: give --redis URL (or $ROUTE_PLANNING_REDIS_URL)"
            )
        yield None
        return
    try:
        from route_planning_async.redis import RedisBackend
    except ImportError:
        raise InputError("--redis needs the redis extra: pip install 'route_planning_async[redis]'") from None
    if "://" not in settings.redis:
        raise InputError(f"--redis wants a URL such as redis://localhost:6379/0, got {settings.redis!r}")
    try:
        backend = RedisBackend(settings.redis, key_prefix=prefix or redis_key_prefix(api_key))
    except ConfigurationError as exc:
        raise InputError(f"--redis: {exc}") from None
    async with backend:
        yield backend


@contextlib.asynccontextmanager
async def open_client(
    settings: Settings, *, emulator_config: EmulatorConfig | None = None
) -> AsyncIterator[AnyClient]:
    """The client a command talks through: to the service, or to a fresh embedded emulator.

    Its class is the ``--api-version``'s (``_versions.client_class``). With the
    emulator (``--emulator``, or an ``emulator_config``), its key, CA and that
    version's address are used, and the client's limits are the emulator's (the
    version's published ones for ``--emulator``), sped up as much (``--limits``
    replaces them). ``--redis`` keeps the rate-limit
    slots in Redis.
    """
    limits = settings.rate_limits()
    client_type = client_class(settings.api_version)
    if settings.emulator or emulator_config is not None:
        from route_planning_async._cli._emulated import running_emulator

        async with running_emulator(emulator_config, settings.api_version) as emulator:
            options: dict[str, Any] = {
                "base_url": emulator.base_url_for(settings.api_version),
                "ssl": emulator.ssl_context,
                "rate_limits": emulator.config.server_limits if limits is None else limits,
            }
            async with rate_limit_backend(settings, emulator.api_key) as backend:
                if backend is not None:
                    options["rate_limit_backend"] = backend
                async with client_type(emulator.api_key, **options) as client:
                    yield client
        return
    check_base_url(settings.base_url, settings.api_version)
    ssl_context = None
    if settings.ca_file is not None and is_stdio(settings.ca_file):
        try:
            ssl_context = ssl.create_default_context(cadata=read_text(settings.ca_file))
        except (OSError, UnicodeDecodeError, ssl.SSLError) as exc:
            raise InputError(f"cannot use --ca-file - (stdin): {exc}") from None
    elif settings.ca_file is not None:
        if not settings.ca_file.is_file():
            raise InputError(
                f"--ca-file {settings.ca_file} does not exist (from ${CA_FILE_ENV}? "
                "an emulator that stopped removes its file: unset it)"
            )
        try:
            ssl_context = ssl.create_default_context(cafile=str(settings.ca_file))
        except (OSError, ssl.SSLError) as exc:
            raise InputError(f"cannot use --ca-file {settings.ca_file}: {exc}") from None
    api_key = read_api_key(settings)
    async with (
        rate_limit_backend(settings, api_key) as backend,
        client_type(
            api_key,
            base_url=settings.base_url,
            ssl=ssl_context,
            rate_limits=limits,
            rate_limit_backend=backend,
        ) as client,
    ):
        yield client


def failure_of(exc: BaseException) -> CommandError | None:
    """The one-line report of an expected failure; None for a bug (which keeps its traceback)."""
    if isinstance(exc, CommandError):
        return exc
    if isinstance(exc, CsvError | ValidationError | ConfigurationError):
        return InputError(str(exc))
    if isinstance(exc, AuthenticationError):
        return CommandError(f"{exc} (check {API_KEY_ENV} or --api-key-file)")
    if isinstance(exc, RoutePlanningError):
        # API errors, transport errors, failed, canceled or timed-out operations.
        return CommandError(str(exc))
    if isinstance(exc, OSError) and (bound := bind_problem(exc)) is not None:
        return InputError(bound)  # the emulator's --port in use: one usage line
    if isinstance(exc, OSError):
        # Files the command writes (--failures, --map): a full disk or a
        # read-only directory is the user's to fix, not a bug.
        return CommandError(f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc))
    return None


class _Interrupts:
    """Ctrl-C during one command: handed to the innermost part that handles it, else the
    command's task is cancelled; the second Ctrl-C of a command that handles none abandons it."""

    def __init__(self) -> None:
        self.task: asyncio.Task[int] | None = None
        self.count = 0
        self.handlers: list[Callable[[], None]] = []

    def __call__(self) -> None:
        self.count += 1
        if self.handlers:
            self.handlers[-1]()
        elif self.count == 1 and self.task is not None:
            self.task.cancel()
        else:
            raise KeyboardInterrupt


_INTERRUPTING = (signal.SIGINT, signal.SIGTERM)
"""The signals a command takes for Ctrl-C: ``timeout``, ``kill``, docker and systemd stop a
process with SIGTERM, and an import stopped so still reports every row."""

_INTERRUPTS: contextvars.ContextVar[_Interrupts | None] = contextvars.ContextVar("interrupts", default=None)


@contextlib.contextmanager
def on_interrupt(handler: Callable[[], None]) -> Iterator[bool]:
    """Within the block, Ctrl-C calls ``handler`` instead of cancelling the command.

    Yields False where no Ctrl-C can be caught (outside :func:`run_command`, off the
    main thread, an event loop without signal handlers): Ctrl-C then keeps Python's
    behaviour.
    """
    interrupts = _INTERRUPTS.get()
    if interrupts is None:
        yield False
        return
    interrupts.handlers.append(handler)
    try:
        yield True
    finally:
        interrupts.handlers.remove(handler)


def caught_interrupt() -> bool:
    """Whether the ``CancelledError`` being handled is Ctrl-C's, cancelling the running command;
    if so, the command's task is un-cancelled, so that it goes on to report what it did."""
    interrupts = _INTERRUPTS.get()
    if interrupts is None or not interrupts.count or interrupts.task is None:
        return False
    if interrupts.task.cancelling():
        interrupts.task.uncancel()
    return True


async def _interruptible(work: Callable[[], Coroutine[Any, Any, int]]) -> tuple[int, bool]:
    """Run ``work()`` with Ctrl-C handled as :class:`_Interrupts` says; its code, and whether
    Ctrl-C cut it short."""
    loop = asyncio.get_running_loop()
    interrupts = _Interrupts()
    try:
        for signum in _INTERRUPTING:
            loop.add_signal_handler(signum, interrupts)
    except (NotImplementedError, RuntimeError, ValueError):
        # No signal handlers on this loop (Windows) or thread: KeyboardInterrupt as usual.
        return await work(), False
    token = _INTERRUPTS.set(interrupts)
    try:
        # Its own task (made once the variable is set, so it sees it): Ctrl-C cancels that
        # one, and a command that returns just as it is pressed ends cancelled, not this one.
        interrupts.task = asyncio.ensure_future(work())
        try:
            return await interrupts.task, False
        except asyncio.CancelledError:
            if not interrupts.count:
                raise
            return ExitCode.INTERRUPTED, True
    finally:
        _INTERRUPTS.reset(token)
        with contextlib.suppress(RuntimeError):  # the loop is closing
            for signum in _INTERRUPTING:
                loop.remove_signal_handler(signum)


def run_command(work: Callable[[], Coroutine[Any, Any, int]]) -> None:
    """Run a command's coroutine and exit with its code; expected failures become one line on stderr,
    and Ctrl-C at any moment exit code 130 with a line saying what was left undone."""
    try:
        code, interrupted = asyncio.run(_interruptible(work))
    except KeyboardInterrupt:
        raise Interrupted from None
    except Exception as exc:
        failure = failure_of(exc)
        if failure is None:
            raise
        raise failure from None
    if interrupted:
        raise Interrupted
    raise SystemExit(code)


def jsonable(value: Any) -> Any:
    """Models, dates and times as JSON data: snake_case keys, ISO 8601 strings."""
    if attrs.has(type(value)):
        return {name: jsonable(item) for name, item in attrs.asdict(value, recurse=False).items()}
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    return value


def dump_json(data: Any) -> None:
    """Print ``data`` as JSON on stdout, alone."""
    click.echo(json.dumps(jsonable(data), indent=2, ensure_ascii=False))


def print_result(
    output: Output, data: Any, shown: RenderableType | None = None, *, note: str | None = None
) -> None:
    """``data`` as JSON on stdout with ``--json``; else ``shown`` on stdout and ``note`` on stderr."""
    if output.json:
        dump_json(data)
        return
    if shown is not None:
        output.out.print(shown, highlight=False)
    if note is not None:
        output.note(note)


async def first(items: AsyncIterable[T], limit: int | None) -> list[T]:
    """The items of a listing, up to ``limit`` of them (all when None)."""
    found: list[T] = []
    async for item in items:
        found.append(item)
        if limit is not None and len(found) >= limit:
            break
    return found
