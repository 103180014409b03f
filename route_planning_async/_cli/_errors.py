"""The command-line tool's exit codes and the errors that end a command with one line on stderr.

Exit codes (also in ``route-planning --help``):

- 0: success.
- 1: the service or the network failed (an API error, a failed optimization, a timeout).
- 2: usage or validation: a bad option, a missing API key, a bad CSV file, a value the contract rejects.
- 3: an import ran, but some rows were not imported (see ``--failures``).
- 130: Ctrl-C (or SIGTERM) stopped the command, at whatever moment (an import first says what it did).

Every room of the tool may raise these; this room imports no other room.
"""

from __future__ import annotations

import enum
import sys
from typing import IO, Any

import click

__all__ = ["CommandError", "ExitCode", "InputError", "Interrupted"]

_INTERRUPTED = (
    "interrupted (Ctrl-C or SIGTERM) before the command finished: a request in flight may still have taken "
    "effect; nothing else was sent"
)


class ExitCode(enum.IntEnum):
    """The process exit codes."""

    OK = 0
    """Success."""
    FAILURE = 1
    """The service or the network failed."""
    USAGE = 2
    """Bad usage or input: nothing (more) was sent."""
    PARTIAL = 3
    """An import ran, but some rows were not imported."""
    INTERRUPTED = 130
    """Ctrl-C (or SIGTERM) stopped the command (an import writes its summary and the rows not imported)."""


class CommandError(click.ClickException):
    """A failure of the service, the network or the run: one line on stderr, exit code 1."""

    exit_code = ExitCode.FAILURE

    def format_message(self) -> str:
        """The message on one line, whatever the service put in it."""
        return " ".join(self.message.split())


class InputError(CommandError):
    """Bad usage or input (a missing key, a bad file, a rejected value): exit code 2."""

    exit_code = ExitCode.USAGE


class Interrupted(CommandError):
    """Ctrl-C (or SIGTERM) stopped a command before it finished: its one line says so, exit code 130."""

    exit_code = ExitCode.INTERRUPTED

    def __init__(self, message: str = _INTERRUPTED) -> None:
        super().__init__(message)

    def show(self, file: IO[Any] | None = None) -> None:
        """The message alone (an interruption is no error of the command's)."""
        click.echo(self.format_message(), file=file if file is not None else sys.stderr)
