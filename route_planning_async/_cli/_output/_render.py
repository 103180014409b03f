"""Rich output: progress bars, the optimization status line and every table the CLI prints.

Tables go to standard output; progress and status go to standard error, so
that ``--json`` output (and a redirected table) stays clean.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self

import attrs
from rich.console import Console
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.spinner import Spinner
from rich.table import Table

from route_planning_async._cli._output._summary import RouteSummary

__all__ = [
    "ImportBar",
    "Output",
    "WaitStatus",
    "failures_table",
    "format_distance",
    "format_duration",
    "format_eta",
    "line_ranges",
    "plan_table",
    "plans_table",
    "routes_table",
    "skipped_table",
    "stats_table",
    "stops_table",
    "warnings_as_events",
]


@attrs.define
class Output:
    """Where things are printed: tables on stdout, progress and notes on stderr."""

    json: bool = False
    """Machine-readable mode: only JSON on stdout, no progress, no tables."""
    out: Console = attrs.field(factory=lambda: _stdout_console())
    """Standard output (as wide as needed when it is not a terminal: no id is cut off)."""
    err: Console = attrs.field(factory=lambda: Console(file=sys.stderr, soft_wrap=True))
    """Standard error."""
    events: bool = False
    """Stderr carries JSON objects, one a line (``--progress json``): every note, warning and
    summary is one, ``{"event": ..., "message": ...}``."""

    def note(self, message: str) -> None:
        """A human note on stderr (left out in ``--json`` mode; a ``note`` event with ``events``)."""
        if not self.json:
            self.event("note", message)

    def warn(self, message: str) -> None:
        """A warning on stderr, printed in every mode."""
        if self.events:
            self.event("warning", message)
        else:
            self.err.print(f"[yellow]warning:[/] {message}", highlight=False)

    def event(self, kind: str, message: str | None = None, **fields: Any) -> None:
        """A line on stderr: with ``events`` the JSON object ``{"event": kind, "message": ...,
        **fields}``, else ``message`` as it is (nothing without one)."""
        if self.events:
            body = {"event": kind, **({} if message is None else {"message": message}), **fields}
            self.err.file.write(json.dumps(body, ensure_ascii=False) + "\n")
            self.err.file.flush()
        elif message is not None:
            self.err.print(message, highlight=False, markup=False)


@contextlib.contextmanager
def warnings_as_events(output: Output) -> Iterator[None]:
    """With ``output.events``, the library's log records (WARNING and above: a limit cut after
    429s, a Redis hiccup) as ``warning`` events, not logging's plain last-resort lines."""
    if not output.events:
        yield
        return
    handler = _EventHandler(output)
    logger = logging.getLogger("route_planning_async")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


class _EventHandler(logging.Handler):
    def __init__(self, output: Output) -> None:
        super().__init__(logging.WARNING)
        self._output = output

    def emit(self, record: logging.LogRecord) -> None:
        self._output.event("warning", record.getMessage(), logger=record.name)


_PIPE_WIDTH = 10_000
"""The width of a table printed to a pipe or a file: wide enough that no cell is cut or wrapped."""


def _stdout_console() -> Console:
    # On a terminal rich fits the tables to its width (cutting long cells with
    # an ellipsis); into a pipe or a file every cell is printed whole, so that
    # ``plans list | grep`` and ``plans list > plans.txt`` keep full ids.
    if sys.stdout.isatty():
        return Console(file=sys.stdout, soft_wrap=True)
    return Console(file=sys.stdout, soft_wrap=True, width=_PIPE_WIDTH)


def format_distance(meters: float) -> str:
    """``12.3 km``."""
    return f"{meters / 1000:.1f} km"


def format_duration(seconds: float) -> str:
    """``2 h 05 min``, or ``45 min``."""
    minutes = round(seconds / 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


def format_eta(moment: datetime | None) -> str:
    """``08:42`` in UTC, or an em dash when there is no estimate."""
    return moment.strftime("%H:%M") if moment is not None else "—"


class ImportBar:
    """A progress bar of stops imported (and failed) out of the total."""

    def __init__(self, output: Output, total: int, description: str = "Importing stops") -> None:
        self._progress = Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed"),
            TimeElapsedColumn(),
            console=output.err,
            disable=output.json,
            transient=False,
        )
        self._task = self._progress.add_task(description, total=total, failed=0)

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    def update(self, done: int, failed: int = 0) -> None:
        """``done`` stops have an outcome so far, ``failed`` of them failed."""
        self._progress.update(self._task, completed=done, failed=failed)


class WaitStatus:
    """A live status line while something is polled: what it waits for, the state, time and polls."""

    def __init__(self, output: Output, label: str, polls: Callable[[], int], state: str = "waiting") -> None:
        self._label = label
        self._started = time.monotonic()
        self._polls = polls
        self._state = state
        self._spinner = Spinner("dots")
        self._live = Live(self, console=output.err, transient=True, refresh_per_second=8)
        self._enabled = not output.json

    def __rich__(self) -> Spinner:
        # Rendered on every refresh, so the elapsed time moves between polls too.
        elapsed = time.monotonic() - self._started
        self._spinner.update(text=f"{self._label}: {self._state} ({elapsed:.1f} s, {self._polls()} polls)")
        return self._spinner

    def __enter__(self) -> Self:
        if self._enabled:
            self._live.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._enabled:
            self._live.stop()

    def state(self, state: str) -> None:
        """Where the wait stands now."""
        self._state = state


def routes_table(routes: Sequence[RouteSummary]) -> Table:
    """Driver, stops, distance, driving time, first and last ETA, with a total row."""
    table = Table(title="Routes", show_footer=len(routes) > 1)
    total_stops = sum(route.stop_count for route in routes)
    total_distance = sum(route.distance_m for route in routes)
    total_driving = sum(route.driving_s for route in routes)
    table.add_column("Driver", footer="Total")
    table.add_column("Stops", justify="right", footer=str(total_stops))
    table.add_column("Distance", justify="right", footer=format_distance(total_distance))
    table.add_column("Driving", justify="right", footer=format_duration(total_driving))
    table.add_column("First ETA (UTC)", justify="right")
    table.add_column("Last ETA (UTC)", justify="right")
    for route in routes:
        table.add_row(
            route.driver_name,
            str(route.stop_count),
            format_distance(route.distance_m),
            format_duration(route.driving_s),
            format_eta(route.first_eta),
            format_eta(route.last_eta),
        )
    return table


def skipped_table(skipped: Iterable[tuple[str, str, str]]) -> Table:
    """Rows of (stop id, external id or address, reason)."""
    table = Table(title="Skipped stops")
    table.add_column("Stop")
    table.add_column("Recipient / address")
    table.add_column("Reason")
    for stop_id, label, reason in skipped:
        table.add_row(stop_id, label, reason)
    return table


def stats_table(rows: Mapping[str, Mapping[str, Any]]) -> Table:
    """The scheduler's numbers per rate-limit category (the columns are the rows' keys)."""
    table = Table(title="Requests per rate-limit category")
    table.add_column("Category")
    columns: list[str] = []
    for values in rows.values():
        for name in values:
            if name not in columns:
                columns.append(name)
    for name in columns:
        table.add_column(name.replace("_", " "), justify="right")
    for category, values in rows.items():
        table.add_row(category, *(_cell(values.get(name)) for name in columns))
    return table


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def plans_table(plans: Iterable[Mapping[str, Any]]) -> Table:
    """Plans as rows: id, title, start date, drivers, optimization, distributed, writable."""
    table = Table(title="Plans")
    for name in ("Plan", "Title", "Starts", "Drivers", "Optimization", "Distributed", "Writable"):
        table.add_column(name)
    for plan in plans:
        table.add_row(
            plan["id"],
            plan["title"],
            str(plan["starts"]),
            str(len(plan["drivers"])),
            str(plan["optimization"]),
            "yes" if plan["distributed"] else "no",
            "yes" if plan["writable"] else "no",
        )
    return table


def plan_table(plan: Mapping[str, Any]) -> Table:
    """One plan as a two-column table of its fields (drivers and routes one per line)."""
    table = Table(title=str(plan["id"]), show_header=False)
    table.add_column("Field")
    table.add_column("Value")
    # v0.2b's plan holds its drivers, v1's their ids.
    drivers = [driver if isinstance(driver, str) else driver["id"] for driver in plan.get("drivers") or []]
    for name, value in (
        ("Title", plan["title"]),
        ("Starts", str(plan["starts"])),
        ("Depot", plan.get("depot") or "—"),
        ("Optimization", str(plan.get("optimization") or "—")),
        ("Distributed", "yes" if plan.get("distributed") else "no"),
        ("Writable", "yes" if plan.get("writable") else "no"),
        ("Drivers", "\n".join(drivers) or "—"),
        ("Routes", "\n".join(plan.get("routes") or []) or "—"),
    ):
        table.add_row(name, value)
    return table


def stops_table(stops: Iterable[Mapping[str, Any]]) -> Table:
    """Stops as rows: id, external id, recipient, address, time window, route."""
    table = Table(title="Stops")
    for name in ("Stop", "External id", "Recipient", "Address", "Window", "Route"):
        table.add_column(name)
    for stop in stops:
        recipient = stop.get("recipient") or {}
        address = stop.get("address") or {}
        timing = stop.get("timing") or {}
        earliest, latest = timing.get("earliest_attempt_time"), timing.get("latest_attempt_time")
        window = f"{(earliest or '')[:5]}-{(latest or '')[:5]}" if earliest or latest else "—"
        route = stop.get("route") or {}
        table.add_row(
            stop["id"],
            recipient.get("external_id") or "—",
            recipient.get("name") or "—",
            address.get("address") or address.get("address_line_one") or "—",
            window,
            route.get("id") or "—",
        )
    return table


def failures_table(failures: Iterable[tuple[int | None, str]], *, title: str) -> Table:
    """Rows of (line number, reason); rows with the same reason share one table row."""
    table = Table(title=title)
    table.add_column("Lines", justify="right")
    table.add_column("Rows", justify="right")
    table.add_column("Reason")
    grouped: dict[str, list[int | None]] = {}
    for line, reason in failures:
        grouped.setdefault(reason, []).append(line)
    for reason, lines in grouped.items():
        table.add_row(line_ranges(lines), str(len(lines)), reason)
    return table


def line_ranges(lines: Iterable[int | None], *, limit: int = 8) -> str:
    """``2-101, 150, 152-160`` (at most ``limit`` ranges, then ``…``); ``—`` for no line."""
    numbers = sorted({line for line in lines if line is not None})
    if not numbers:
        return "—"
    ranges: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        ranges.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    shown = ", ".join(ranges[:limit])
    return shown + (f", … ({len(ranges) - limit} more)" if len(ranges) > limit else "")
