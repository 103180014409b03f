"""``-`` for a file: standard input where the tool reads one, standard output where it writes one.

Every file argument or option the tool reads (a stops or drivers CSV, a
webhook body, ``--api-key-file``, ``--secret-file``, ``--ca-file``,
``--limits``, the emulator's ``--team``) or writes (a sample, an export, a
failure report) takes ``-`` for the standard stream; the options that do are
declared in ``_options``. Where stdout already carries the command's own output
(``--json``, the demo's tables, the emulator's ``export`` lines) ``-`` is
refused with a usage error there. Standard input is read by one file of a
command at most (:func:`claim_stdin`), once (a check and the use read the same
bytes). The streams are looked up when used, so they are the ones a test runner
gives the command.

This room imports no other room.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import click

__all__ = ["STDIO", "claim_stdin", "describe", "is_stdio", "open_output", "read_input", "read_text"]

STDIO = "-"
"""The file name that stands for standard input or output."""

_STDIN_READER = "route_planning_async.stdin_reader"
"""The root context's meta key of the option or argument that reads standard input."""
_STDIN_BYTES = "route_planning_async.stdin"
"""The root context's meta key of standard input's bytes, once read."""


def is_stdio(path: Path | str) -> bool:
    """True when ``path`` is ``-``: the standard stream, not a file."""
    return str(path) == STDIO


def describe(path: Path | str, *, reading: bool) -> str:
    """``path`` as a message names it: ``stdin`` or ``stdout`` for ``-``."""
    if is_stdio(path):
        return "stdin" if reading else "stdout"
    return str(path)


def claim_stdin(ctx: click.Context, what: str) -> None:
    """``what`` (an option or argument given ``-``) reads standard input in this command.

    Raises:
        click.BadParameter: Another file of the command reads it already.
    """
    meta = ctx.find_root().meta
    other = meta.setdefault(_STDIN_READER, what)
    if other != what:
        raise click.BadParameter(f"{STDIO!r} (stdin) is read by {other} already; name a file for one of them")


def read_input(path: Path) -> bytes:
    """The whole content of ``path``, or of standard input for ``-``.

    Standard input is read once per command: a second read (a check, then the use) gets the
    same bytes.

    Raises:
        OSError: The file cannot be read.
    """
    if not is_stdio(path):
        return path.read_bytes()
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return sys.stdin.buffer.read()
    meta = ctx.find_root().meta
    if _STDIN_BYTES not in meta:
        meta[_STDIN_BYTES] = sys.stdin.buffer.read()
    data: bytes = meta[_STDIN_BYTES]
    return data


def read_text(path: Path) -> str:
    """The UTF-8 text of ``path``, or of standard input for ``-`` (see :func:`read_input`).

    Raises:
        OSError: The file cannot be read.
        UnicodeDecodeError: It is not UTF-8 text.
    """
    return read_input(path).decode("utf-8")


@contextlib.contextmanager
def open_output(path: Path) -> Iterator[TextIO]:
    """``path`` opened for writing UTF-8 text (untranslated newlines), or standard output for ``-``.

    Standard output is flushed, not closed, at the end.
    """
    if is_stdio(path):
        stream = sys.stdout
        try:
            yield stream
        finally:
            stream.flush()
        return
    with path.open("w", encoding="utf-8", newline="") as stream:
        yield stream
