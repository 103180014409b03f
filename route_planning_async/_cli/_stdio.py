"""``-`` for a file: standard input where the tool reads one, standard output where it writes one.

Every file argument or option the tool reads (a stops or drivers CSV, a
webhook body) or writes (a sample, an export, a failure report) takes ``-``
for the standard stream; the options that do are declared in ``_options``.
Where stdout already carries the command's own output (``--json``, the demo's
tables) ``-`` is refused with a usage error there. The streams are looked up
when used, so they are the ones a test runner gives the command.

This room imports no other room.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

__all__ = ["STDIO", "describe", "is_stdio", "open_output", "read_input"]

STDIO = "-"
"""The file name that stands for standard input or output."""


def is_stdio(path: Path | str) -> bool:
    """True when ``path`` is ``-``: the standard stream, not a file."""
    return str(path) == STDIO


def describe(path: Path | str, *, reading: bool) -> str:
    """``path`` as a message names it: ``stdin`` or ``stdout`` for ``-``."""
    if is_stdio(path):
        return "stdin" if reading else "stdout"
    return str(path)


def read_input(path: Path) -> bytes:
    """The whole content of ``path``, or of standard input for ``-``.

    Raises:
        OSError: The file cannot be read.
    """
    if is_stdio(path):
        return sys.stdin.buffer.read()
    return path.read_bytes()


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
