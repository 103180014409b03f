"""Long calls with something to watch, shared by the commands and the demo.

An import with a progress bar, a wait for an optimization with a live status
line, the count of polls behind that line, and the scheduler's numbers per
category as table rows and JSON. Only the library's public client API is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import signal
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import click

from route_planning_async import (
    Category,
    ImportProgress,
    ImportReport,
    Operation,
    Outcome,
)
from route_planning_async._cli._output._render import ImportBar, Output, WaitStatus
from route_planning_async._cli._run import on_interrupt

if TYPE_CHECKING:
    from route_planning_async._cli._versions import AnyClient

__all__ = [
    "ImportOutcome",
    "ProgressLines",
    "import_rows",
    "import_summary",
    "import_with_progress",
    "never_sent",
    "progress_mode",
    "read_counter",
    "stats_rows",
    "wait_with_status",
]

PROGRESS_INTERVAL = 5.0
"""Seconds between two progress lines when stderr is not a terminal."""


def stats_rows(client: AnyClient) -> dict[str, dict[str, Any]]:
    """The scheduler's numbers per category, as table rows and JSON."""
    return {
        str(category): {
            "requests": item.requests,
            "sent": item.sent,
            "weight": item.sent_weight,
            "429s": item.rate_limited,
            "retries": item.retries,
            # Summed over the category's requests (several wait side by side).
            "waited_s_summed": round(item.wait_seconds, 2),
        }
        for category, item in client.stats.items()
    }


@attrs.frozen
class ImportOutcome:
    """What became of the rows of one CLI import."""

    outcomes: list[tuple[str | None, str | None]]
    """Per input row: ``(stop id, None)``, or ``(None, why not)``."""
    report: ImportReport[Any]
    """The library's report."""
    interrupted: bool
    """True when Ctrl-C stopped the import."""
    never_sent: set[int] = attrs.field(factory=set)
    """Positions that were not sent because the import was stopped."""
    error: Exception | None = None
    """What ended the import early (a rate-limit backend that failed, say), raised once every
    row's outcome is told; None when it ran to its end."""


class ProgressLines:
    """Import progress for non-interactive runs: a line every few seconds, or NDJSON events.

    ``mode`` is ``lines`` (a human line on stderr at most every ``interval``
    seconds, and at the end) or ``json`` (one JSON object per batch on stderr,
    ``{"event": "progress", ...}``, and a last ``{"event": "done", ...}``).
    """

    def __init__(
        self, client: AnyClient, mode: str, total: int, *, interval: float = PROGRESS_INTERVAL
    ) -> None:
        self._client = client
        self._mode = mode
        self._total = total
        self._interval = interval
        self._last = -math.inf
        self._shown: tuple[int, ...] | None = None
        """The counts of the last line printed: the final call repeats the last batch's, unprinted."""

    def __call__(self, progress: ImportProgress[Any]) -> None:
        on_progress_event(progress)
        stats = self._client.stats[Category.BATCH_IMPORT]
        not_sent, failed = progress.not_sent, progress.failed
        if self._mode == "json":
            event = {
                "event": "done" if progress.final else "progress",
                "done": progress.done,
                "total": self._total,
                "created": progress.created,
                "skipped": progress.skipped,
                "failed": failed,
                "not_sent": not_sent,
                "unknown": progress.unknown,
                "elapsed_s": round(progress.elapsed, 3),
                "waited_s": round(progress.waited, 3),
                "429s": stats.rate_limited,
                "retries": stats.retries,
            }
            click.echo(json.dumps(event), err=True)
            return
        now = time.monotonic()
        if not progress.final and now - self._last < self._interval:
            return
        counts = (progress.done, progress.created, progress.skipped, failed, not_sent, progress.unknown)
        if progress.final and counts == self._shown:
            return
        self._last, self._shown = now, counts
        unsent = f"{not_sent} not sent, " if not_sent else ""
        click.echo(
            f"import: {progress.done}/{self._total} rows done ({progress.created} created, "
            f"{progress.skipped} skipped, {failed} failed, {unsent}{progress.unknown} unknown) "
            f"in {progress.elapsed:.1f} s; {stats.rate_limited} 429s, {stats.retries} retries",
            err=True,
        )


def on_progress_event(progress: ImportProgress[Any]) -> None:
    """Called on every progress event of a CLI import (a seam for tests); does nothing."""


def progress_mode(output: Output, requested: str) -> str:
    """``bar``, ``lines``, ``json`` or ``none``: what ``--progress`` resolves to here."""
    if requested != "auto":
        return requested
    if output.json:
        return "none"
    return "bar" if output.err.is_terminal else "lines"


async def import_with_progress(
    client: AnyClient, output: Output, plan: str, stops: Sequence[Any]
) -> list[tuple[str | None, str | None]]:
    """Import ``stops`` with a progress bar; per input, ``(stop id, None)`` or ``(None, why not)``."""
    return (
        await import_rows(client, output, plan, stops, progress="none" if output.json else "bar")
    ).outcomes


async def import_rows(
    client: AnyClient,
    output: Output,
    plan: str,
    stops: Sequence[Any],
    *,
    progress: str = "auto",
    live: bool = False,
    **options: Any,
) -> ImportOutcome:
    """Import ``stops`` showing progress (``--progress``); every row's outcome, and the report.

    Ctrl-C stops taking new batches and lets the ones in flight finish; a
    second Ctrl-C abandons them. Either way the outcomes are complete. With
    ``live``, the import goes through the plan's editing session
    (``stops.live_import_many``), which is applied once it has ended.
    """
    mode = progress_mode(output, progress)
    stop = asyncio.Event()
    interrupted = False
    task: asyncio.Task[ImportReport[Any]] | None = None
    last: list[ImportReport[Any]] = []
    ended = False  # the import's final on_progress call came: ``last`` holds every outcome

    def on_sigint() -> None:
        nonlocal interrupted
        if not interrupted:
            interrupted = True
            output.event(
                "stopping",
                "stopping: no new batches; waiting for those in flight (Ctrl-C again to abandon them)",
            )
            stop.set()
        elif task is not None:
            task.cancel()

    loop = asyncio.get_running_loop()
    with on_interrupt(on_sigint) as by_command:
        # Outside a command (run_command), the loop's own handler, for the import alone.
        handled = not by_command and _install_sigint(loop, on_sigint)
        try:
            with ImportBar(output, len(stops)) if mode == "bar" else contextlib.nullcontext() as bar:
                lines = ProgressLines(client, mode, len(stops)) if mode in ("lines", "json") else None

                def on_progress(event: ImportProgress[Any]) -> None:
                    nonlocal ended
                    last[:] = [event.report]
                    ended = event.final
                    if bar is not None:
                        bar.update(event.done, event.failed)
                        on_progress_event(event)
                    elif lines is not None:
                        lines(event)
                    else:
                        on_progress_event(event)

                async def run_import() -> ImportReport[Any]:
                    if live:
                        done = await client.stops.live_import_many(
                            plan, stops, on_progress=on_progress, stop_event=stop, **options
                        )
                        return done.report
                    return await client.stops.import_many(
                        plan, stops, on_progress=on_progress, stop_event=stop, **options
                    )

                task = asyncio.ensure_future(run_import())
                error: Exception | None = None
                try:
                    report = await task
                except asyncio.CancelledError:
                    if not interrupted or not last:
                        raise
                    report = last[0]
                except Exception as exc:
                    # An error that ended the import after it started (the rate-limit backend
                    # failed, say): its final report tells every row first; the caller raises it.
                    if not ended:
                        raise
                    report, error = last[0], exc
        finally:
            if handled:
                loop.remove_signal_handler(signal.SIGINT)
    return attrs.evolve(_outcome(report, interrupted), error=error)


def _install_sigint(loop: asyncio.AbstractEventLoop, handler: Callable[[], None]) -> bool:
    try:
        loop.add_signal_handler(signal.SIGINT, handler)
    except (NotImplementedError, RuntimeError, ValueError):
        # add_signal_handler raises NotImplementedError on event loops without
        # signal support (Windows), RuntimeError or ValueError off the main
        # thread: then Ctrl-C keeps Python's default behaviour.
        return False
    return True


def never_sent(report: ImportReport[Any]) -> set[int]:
    """Positions an import that stopped early (Ctrl-C, ``--deadline``) never sent: nothing to fix in them
    (:attr:`FailedBatch.not_sent`)."""
    return {position for failed in report.failed_batches if failed.not_sent for position in failed.positions}


def _outcome(report: ImportReport[Any], interrupted: bool) -> ImportOutcome:
    reasons: dict[int, str] = {rejected.position: rejected.message for rejected in report.rejected}
    for failed in report.failed_batches:
        if failed.outcome == Outcome.UNKNOWN:
            # The service may have created these (an ambiguous failure without an
            # external id to look them up by): say so, so nobody re-imports blindly.
            reason = f"outcome unknown, the stop may exist; check before importing again: {failed.error}"
        else:
            reason = f"not created: {failed.error}"
        reasons.update(dict.fromkeys(failed.positions, reason))
    outcomes: list[tuple[str | None, str | None]] = []
    for position in range(report.total):
        stop_id = report.id_of(position)
        outcomes.append(
            (stop_id, None) if stop_id is not None else (None, reasons.get(position, "not created"))
        )
    return ImportOutcome(outcomes, report, interrupted, never_sent(report))


def import_summary(client: AnyClient, report: ImportReport[Any]) -> dict[str, Any]:
    """The import's numbers and the scheduler's for its requests: 429s, retries, waits, learned limits."""
    stats = client.stats[Category.BATCH_IMPORT]
    reads = client.stats[Category.READ]
    learned = [
        f"{rule.amount}{'' if rule.per == 'request' else ' stops'} per {rule.period:g} s"
        for rule, configured in zip(stats.learned_limits, stats.limits, strict=False)
        if rule.amount != configured.amount
    ]
    not_sent = report.not_sent
    return {
        "created": report.created,
        "skipped": report.skipped,
        "rejected": len(report.rejected),
        "not_created": report.not_created - not_sent,
        "not_sent": not_sent,
        "unknown": report.unknown,
        "duplicates_found": len(report.duplicates),
        "duplicates_deleted": sum(1 for d in report.duplicates if d.deleted),
        "stopped": report.stopped,
        "elapsed_s": round(report.elapsed, 2),
        "import_requests": stats.sent,
        "429s": stats.rate_limited + reads.rate_limited,
        "retries": stats.retries + reads.retries,
        "waited_s": round(report.waited, 2),
        "learned_limits": learned,
    }


def read_counter(client: AnyClient) -> Callable[[], int]:
    """Reads sent from now on: the polls, for a status line."""
    before = client.stats[Category.READ].sent
    return lambda: client.stats[Category.READ].sent - before


async def wait_with_status(
    client: AnyClient,
    output: Output,
    operation: Operation,
    max_wait: float | None,
    *,
    poll_every: float | None = None,
) -> Operation:
    """Wait for ``operation`` with a live status line (elapsed time, polls so far).

    ``poll_every`` polls at a steady pace instead of the library's growing delay.
    """
    label = f"Optimizing {operation.metadata.target_plan_id or operation.id}"
    with WaitStatus(output, label, read_counter(client), state="running"):
        if poll_every is not None:
            return await client.operations.wait(
                operation, timeout=max_wait, poll_interval=poll_every, max_poll_interval=poll_every
            )
        return await client.operations.wait(operation, timeout=max_wait)
