"""The rows an import did not bring in, each with why: the report it prints and the ``--failures`` file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs

from route_planning_async._cli._files._csv import write_failures

__all__ = ["Failures", "InputRow"]


class InputRow(Protocol):
    """A data row of an input file: where it starts and its cells."""

    @property
    def line(self) -> int:
        """Line number of the row's first line in the file (the header is line 1)."""

    @property
    def values(self) -> Mapping[str, str]:
        """The row's cells by header, as read."""


@attrs.define
class Failures:
    """The rows of an input file that were not imported, each with why; the report ``--failures`` writes."""

    header: Sequence[str]
    """The input file's header."""
    rows: list[tuple[InputRow, str]] = attrs.field(factory=list)
    """Each failed row with its reason."""

    def add(self, row: InputRow, error: str) -> None:
        """Note that ``row`` was not imported because of ``error``."""
        self.rows.append((row, error))

    def in_file_order(self) -> list[tuple[InputRow, str]]:
        """Every failed row with its reason, by line."""
        return sorted(self.rows, key=lambda failure: failure[0].line)

    def by_line(self) -> list[tuple[int | None, str]]:
        """``(line, reason)`` of every failed row, in file order."""
        return [(row.line, error) for row, error in self.in_file_order()]

    def write(self, path: Path | None) -> int:
        """Write the failed rows, in file order, to ``path`` when given; how many were written."""
        if path is None or not self.rows:
            return 0
        return write_failures(path, self.header, ((row.values, error) for row, error in self.in_file_order()))

    def write_or_say(self, path: Path | None) -> tuple[int, str | None]:
        """:meth:`write`, with what kept it from writing answered as text, not raised: the
        import's report is printed all the same (it lists the rows), then the error."""
        try:
            return self.write(path), None
        except OSError as exc:
            return 0, f"{path}: {exc.strerror}: the rows not imported are not written there (listed above)"

    def as_json(self, path: Path | None, written: int) -> dict[str, Any]:
        """The failed rows and the file they were written to, as JSON data."""
        return {
            "failures": [{"line": line, "error": error} for line, error in self.by_line()],
            "failures_file": str(path) if written else None,
        }

    def __len__(self) -> int:
        """How many rows failed."""
        return len(self.rows)
