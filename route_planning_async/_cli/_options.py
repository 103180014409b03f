"""What the commands have in common: the shared options, the help's epilog, and the options several take.

A command that talks to the service is a coroutine ``work(settings, **params)``;
:func:`service` gives it the connection and output options and runs it under
:func:`~._run.run_command`; :func:`service_group` makes a group of such
commands. An option that several commands take is declared here once and
applied by each of them.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
from collections.abc import Callable, Coroutine
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from route_planning_async._cli._emulated import CA_FILE_ENV, LIMITS_ENV
from route_planning_async._cli._errors import InputError, Interrupted
from route_planning_async._cli._files._stdio import STDIO, claim_stdin, is_stdio
from route_planning_async._cli._limits import LIMITS_HELP, LIMITS_METAVAR, parse_limits
from route_planning_async._cli._run import API_KEY_ENV, REDIS_PREFIX_DERIVED, Settings, run_command
from route_planning_async._cli._versions import API_VERSION_ENV, API_VERSIONS, DEFAULT_API_VERSION
from route_planning_async._client import BASE_URL_ENV
from route_planning_async._rate_limits._limits_file import LIMITS_FILE_FORMAT

__all__ = [
    "EPILOG",
    "EXISTING_FILE",
    "FILE",
    "INPUT_CSV",
    "JSON_OPTION",
    "NEW_FILE",
    "OPERATIONS",
    "OUTPUT_FILE",
    "PLAN",
    "POSITIVE",
    "SEE_EPILOG",
    "Command",
    "Group",
    "failures_option",
    "limit_option",
    "not_stdout",
    "parse_date",
    "runs",
    "seed_option",
    "service",
    "service_group",
    "settings_of",
    "shared_options",
    "speedup_option",
    "timeout_option",
]

F = TypeVar("F", bound=Callable[..., Any])
Work = Callable[..., Coroutine[Any, Any, int]]
"""A command's coroutine: ``work(settings, **params)``, returning the exit code."""

EPILOG = f"""\b
The API key is read from {API_KEY_ENV} or from --api-key-file FILE, never
from the command line. --emulator runs one command against a fresh, empty
emulator that is gone when the command ends; for a session (import, then
optimize), run 'route-planning emulator' and use the lines it prints:
  eval "$(route-planning emulator --print-env &)"

{LIMITS_FILE_FORMAT}
\b
Exit codes:
  0  success
  1  the service or the network failed (API error, failed optimization, timeout)
  2  usage or validation: bad option, missing key, bad CSV, rejected value
  3  an import ran, but some rows were not imported (see --failures)
  130  Ctrl-C (or SIGTERM) stopped the command (an import writes out the rows not imported)
"""
"""The end of ``route-planning --help``: the API key, the emulator, the limits file, the exit codes."""

SEE_EPILOG = "\b\nThe API key, the emulator, the limits file, the exit codes: route-planning --help"
"""The end of every other command's help: where :data:`EPILOG` is, said once."""


class Command(click.Command):
    """A command whose help ends with :data:`SEE_EPILOG`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("epilog", SEE_EPILOG)
        super().__init__(*args, **kwargs)


class Group(Command, click.Group):
    """A group whose help, and the help of its commands and subgroups, ends with :data:`SEE_EPILOG`
    (the root's with :data:`EPILOG`)."""

    command_class = Command
    group_class = type

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """The context, which keeps the command line; with ``--progress json`` in it, a usage
        error of the root's options is a JSON ``error`` event too (:class:`JsonUsageError`)."""
        try:
            ctx = super().make_context(info_name, list(args), parent, **extra)
        except click.UsageError as exc:
            if parent is None and _wants_json(args):
                raise JsonUsageError.of(exc) from None
            raise
        if parent is None:
            ctx.meta[_ARGV] = list(args)
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        """Its command; Ctrl-C outside a command's coroutine (parsing, a command with none) is
        exit code 130 too, not click's ``Aborted!`` and 1. With ``--progress json``, click's own
        usage errors (an unknown option, a missing argument) are JSON ``error`` events on stderr,
        like every other line of such a run."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None
        except click.UsageError as exc:
            argv: list[str] = ctx.find_root().meta.get(_ARGV, [])
            if _wants_json(argv):
                raise JsonUsageError.of(exc) from None
            raise


_ARGV = "route_planning_async.argv"


def _wants_json(argv: list[str]) -> bool:
    """Whether the command line asks for ``--progress json``."""
    return "--progress=json" in argv or ("--progress", "json") in itertools.pairwise(argv)


class JsonUsageError(click.ClickException):
    """A usage error shown as ``{"event": "error", "message": ..., "exit_code": 2}`` on stderr."""

    exit_code = 2

    @classmethod
    def of(cls, error: click.UsageError) -> JsonUsageError:
        usage = error.ctx.get_usage() if error.ctx is not None else ""
        json_error = cls(error.format_message())
        json_error.usage = usage.splitlines()[0] if usage else ""
        return json_error

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.usage = ""

    def show(self, file: Any = None) -> None:
        event = {"event": "error", "message": self.format_message(), "exit_code": self.exit_code}
        if self.usage:
            event["usage"] = self.usage
        click.echo(json.dumps(event, ensure_ascii=False), err=True)


class _Positive(click.FloatRange):
    """A number above zero; ``nan`` is none (it passes every comparison of a range)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number above 0.", param, ctx)
        return number


POSITIVE = _Positive(min=0, min_open=True)
"""A number above zero: seconds to wait, a speed-up."""


class _InputFile(click.Path):
    """A file the command reads; ``-`` reads stdin, which one file of a command may do at most."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and is_stdio(value) and ctx is not None and param is not None:
            try:
                claim_stdin(ctx, param.get_error_hint(ctx))
            except click.BadParameter as exc:
                self.fail(exc.message, param, ctx)
        return super().convert(value, param, ctx)


FILE = _InputFile(dir_okay=False, allow_dash=True, path_type=Path)
"""A file the command reads, checked when it is read; ``-`` reads stdin."""
EXISTING_FILE = _InputFile(exists=True, dir_okay=False, allow_dash=True, path_type=Path)
"""A file the command reads, which must exist; ``-`` reads stdin."""


class _OutputFile(click.Path):
    """A file the command writes; ``-`` writes to stdout. Checked before anything is sent: its
    directory must exist and be writable (a file that exists, writable), so that a report is
    never lost after the work it reports on is done."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        if isinstance(path, Path) and not is_stdio(path):
            parent = path.parent
            if not parent.is_dir():
                self.fail(f"{str(path)!r}: the directory {str(parent)!r} does not exist", param, ctx)
            if not os.access(parent, os.W_OK | os.X_OK):
                self.fail(f"{str(path)!r}: the directory {str(parent)!r} is not writable", param, ctx)
        return path


OUTPUT_FILE = _OutputFile(dir_okay=False, writable=True, allow_dash=True, path_type=Path)
"""A file the command writes; ``-`` writes to stdout (see :func:`not_stdout` for ``--json``)."""


class _NewFile(_OutputFile):
    """A file the command writes, where stdout already carries the command's own output."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and is_stdio(value):
            self.fail(
                f"{STDIO!r} (stdout) cannot be used here: stdout carries the command's output; name a file",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)


NEW_FILE = _NewFile(dir_okay=False, writable=True, path_type=Path)
"""A file the command writes, never stdout (it carries the command's own output)."""

PLAN = click.argument("plan")
OPERATIONS = click.argument("operation_ids", metavar="OPERATION...", nargs=-1, required=True)
INPUT_CSV = click.argument("csv_file", metavar="CSV", type=EXISTING_FILE)


def settings_of(ctx: click.Context) -> Settings:
    """The :class:`Settings` the options of this command line recorded."""
    return ctx.find_root().ensure_object(Settings)


_FLAGS_GIVEN = "route_planning_async.flags_given"
"""The key, in the root context's ``meta``, of the settings given as flags on this command line."""


def _from_command_line(ctx: click.Context, param: click.Parameter) -> bool:
    # A value from the environment is checked when a command uses it, so that a
    # stale export (an emulator that stopped and removed its files) does not
    # stop commands that never read it, such as 'emulator' itself.
    return ctx.get_parameter_source(str(param.name)) == ParameterSource.COMMANDLINE


def _shared_option(
    flag: str, *, check: Callable[[Any], None] | None = None, **attrs: Any
) -> Callable[[F], F]:
    """An option of every command, recorded in the shared :class:`Settings` when given.

    The option is read at each level of the command line (before and after the command
    names), each level falling back on the environment: a flag always wins over the
    environment, wherever it is written, so a value from the environment never replaces
    one given as a flag. ``check`` raises :class:`click.BadParameter` for a bad value given
    on the command line.
    """
    setting = flag.removeprefix("--").replace("-", "_")

    def record(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is None or value is False:
            return
        flags: set[str] = ctx.find_root().meta.setdefault(_FLAGS_GIVEN, set())
        if _from_command_line(ctx, param):
            flags.add(setting)
            if check is not None:
                check(value)
        elif setting in flags:
            return
        setattr(settings_of(ctx), setting, value)

    return click.option(flag, expose_value=False, callback=record, **attrs)


def _check_limits(value: str) -> None:
    """A bad ``--limits`` file is a usage error naming its place; ``-`` (stdin) is read when used,
    once every option has claimed what it reads."""
    if is_stdio(value):
        claim_stdin(click.get_current_context(), "'--limits'")
        return
    try:
        parse_limits(value)
    except InputError as exc:
        raise click.BadParameter(exc.format_message()) from None


def _check_ca_file(value: Path) -> None:
    """A ``--ca-file`` given on the command line must exist (or be ``-``, stdin)."""
    if not is_stdio(value) and not value.is_file():
        raise click.BadParameter(f"{value} does not exist or is not a file")


JSON_OPTION = _shared_option(
    "--json", is_flag=True, help="Print machine-readable JSON on stdout (and nothing else)."
)

_SHARED_OPTIONS = (
    _shared_option(
        "--api-key-file", type=FILE, help=f"File holding the API key ('-': stdin; default: ${API_KEY_ENV})."
    ),
    _shared_option(
        "--api-version",
        type=click.Choice(API_VERSIONS),
        envvar=API_VERSION_ENV,
        help=f"The service's API version to speak (default: {DEFAULT_API_VERSION}; ${API_VERSION_ENV}).",
    ),
    _shared_option(
        "--base-url",
        envvar=BASE_URL_ENV,
        help=f"Service address (default: the --api-version's service; ${BASE_URL_ENV}).",
    ),
    _shared_option(
        "--ca-file",
        type=FILE,
        envvar=CA_FILE_ENV,
        check=_check_ca_file,
        help=f"PEM file of extra CA certificates to trust ('-': stdin; ${CA_FILE_ENV}).",
    ),
    _shared_option(
        "--emulator",
        is_flag=True,
        help="One-shot: run this one command against a fresh, empty embedded emulator, "
        "gone when it ends (for a lasting one: 'route-planning emulator').",
    ),
    _shared_option(
        "--limits",
        metavar=LIMITS_METAVAR,
        envvar=LIMITS_ENV,
        check=_check_limits,
        help=f"{LIMITS_HELP} (${LIMITS_ENV})",
    ),
    _shared_option(
        "--redis",
        metavar="URL",
        envvar="ROUTE_PLANNING_REDIS_URL",
        help="Keep the rate-limit slots in this Redis server (redis://host:6379/0), shared by every "
        "process using the same key and prefix; needs the redis extra ($ROUTE_PLANNING_REDIS_URL; "
        "set but empty, it is as unset: the limits stay in this process, shared with no other).",
    ),
    _shared_option(
        "--redis-prefix",
        metavar="NAME",
        help=f"The key prefix in Redis, with --redis (default: {REDIS_PREFIX_DERIVED}, the same in "
        "every process of one key); library code sharing the limits passes the same as "
        "RedisBackend(key_prefix=...).",
    ),
    JSON_OPTION,
)


def shared_options(command: F) -> F:
    """The connection and output options, accepted before or after any command name."""
    for option in reversed(_SHARED_OPTIONS):
        command = option(command)
    return command


_EMULATOR_OWNS = ("base_url", "api_key_file", "ca_file")
"""The settings ``--emulator`` answers itself (its address, key and certificate): given as flags
beside it, they are refused, not dropped (from the environment they are left unread)."""


def runs(work: Work) -> Callable[..., None]:
    """The command callback that runs ``work(settings, **params)`` and exits with the code it returns."""

    @functools.wraps(work)
    def command(**params: Any) -> None:
        ctx = click.get_current_context()
        settings = settings_of(ctx)
        if settings.emulator:
            given: set[str] = ctx.find_root().meta.get(_FLAGS_GIVEN, set())
            ignored = [f"--{name.replace('_', '-')}" for name in _EMULATOR_OWNS if name in given]
            if ignored:
                raise InputError(
                    f"--emulator talks to a fresh emulator, with its own address, key and certificate: "
                    f"{' and '.join(ignored)} would be ignored; give one or the other"
                )
        run_command(lambda: work(settings, **params))

    return command


def service(work: Work) -> Callable[..., None]:
    """:func:`runs` with the :func:`shared_options`: a command that talks to the service."""
    return shared_options(runs(work))


def service_group(function: Callable[[], None]) -> Group:
    """A group of commands that talk to the service, taking the :func:`shared_options` too."""
    return click.group(cls=Group)(shared_options(function))


def parse_date(value: str, option: str) -> date:
    """``value`` of ``option`` as a date; a usage error unless it is ``YYYY-MM-DD``."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"expected a date as YYYY-MM-DD, got {value!r}", param_hint=option) from None


def not_stdout(settings: Settings, path: Path | None, option: str) -> None:
    """Refuse ``-`` (stdout) for ``option`` when ``--json`` prints its JSON there.

    Raises:
        InputError: ``path`` is ``-`` and the command prints JSON.
    """
    if path is not None and settings.json and is_stdio(path):
        raise InputError(f"{option} {STDIO}: stdout carries the --json output; name a file instead")


def limit_option(things: str) -> Callable[[F], F]:
    """``--limit``: stop a listing after this many ``things``."""
    return click.option("--limit", type=click.IntRange(min=1), help=f"Stop after this many {things}.")


def failures_option(then: str = "") -> Callable[[F], F]:
    """``--failures FILE``: where an import writes the rows that failed (``then`` ends the help)."""
    return click.option(
        "--failures",
        "failures_path",
        type=OUTPUT_FILE,
        help=f"Write the rows that failed here: the input's columns plus 'error'{then} ('-': stdout).",
    )


def timeout_option(help: str) -> Callable[[F], F]:
    """``--timeout SECONDS``: how long a wait for operations may take."""
    return click.option("--timeout", "max_wait", type=POSITIVE, help=help)


def speedup_option(help: str) -> Callable[[F], F]:
    """``--speedup``: how many times faster than the contract an emulator runs."""
    return click.option("--speedup", type=POSITIVE, default=1.0, show_default=True, help=help)


def seed_option(help: str | None = None) -> Callable[[F], F]:
    """``--seed``: the seed of what is generated at random."""
    return click.option("--seed", type=int, default=0, show_default=True, help=help)
