"""The cells of every CSV file the tool writes, safe to open in a spreadsheet, and how reading undoes it.

A spreadsheet takes a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return for a formula and runs it: ``=HYPERLINK(...)`` in a stop's
notes becomes a link, ``=cmd|...`` a command. So every CSV the tool writes goes
through :func:`write_csv`, which escapes such a cell the way OWASP recommends,
with a single quote ``'`` in front, which spreadsheets show as text.

The rule, written once here:

- Writing: a cell that is any number of ``'`` (none included) and then one of
  the formula characters gets one ``'`` more in front; a cell that is a plain
  number (``-0.09``, ``+4420794600``) is left as it is, as a spreadsheet reads
  it as that number and runs nothing.
- Reading (stops and drivers files): a cell that is one ``'`` or more and then
  a formula character loses its first ``'``; any other cell is kept as it is
  (``'s-Hertogenbosch`` too).

So a file the tool wrote reads back as the very values it was given (a quote
the user typed before a formula character is doubled on writing), and a file
kept in a spreadsheet with ``'+44 20 ...`` to keep a phone number as text reads
as ``+44 20 ...``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TextIO

__all__ = ["FORMULA_CHARACTERS", "escape_cell", "unescape_cell", "write_csv"]

FORMULA_CHARACTERS = "=+-@\t\r"
"""The first characters that make a spreadsheet read a cell as a formula."""

_FORMULA = re.compile(f"'*[{re.escape(FORMULA_CHARACTERS)}]")
_ESCAPED = re.compile(f"'+[{re.escape(FORMULA_CHARACTERS)}]")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def escape_cell(text: str) -> str:
    """``text`` as a cell no spreadsheet runs (see the module's rule); :func:`unescape_cell` undoes it."""
    if _FORMULA.match(text) and not _NUMBER.fullmatch(text):
        return f"'{text}"
    return text


def unescape_cell(text: str) -> str:
    """A cell as read back into the value :func:`escape_cell` was given."""
    return text[1:] if _ESCAPED.match(text) else text


def write_csv(
    stream: TextIO, header: Sequence[str], rows: Iterable[Mapping[str, str]], *, lineterminator: str = "\r\n"
) -> int:
    """Write ``header`` and then each row's cells under it (missing ones empty), every cell escaped.

    Returns:
        How many rows were written.
    """
    writer = csv.writer(stream, lineterminator=lineterminator)
    writer.writerow([escape_cell(name) for name in header])
    count = 0
    for row in rows:
        writer.writerow([escape_cell(row.get(name, "")) for name in header])
        count += 1
    return count
