"""Long calls with something to watch, shared by the commands and the demo.

An import with a progress bar, a wait for an optimization with a live status
line, the count of polls behind that line, and the scheduler's numbers per
category as table rows and JSON. Only the library's public client API is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from route_planning_async import Category, Operation, RoutePlanningClient, StopInput
from route_planning_async._cli._render import ImportBar, Output, WaitStatus

__all__ = ["import_with_progress", "read_counter", "stats_rows", "wait_with_status"]


def stats_rows(client: RoutePlanningClient) -> dict[str, dict[str, Any]]:
    """The scheduler's numbers per category, as table rows and JSON."""
    return {
        str(category): {
            "requests": item.requests,
            "sent": item.sent,
            "weight": item.sent_weight,
            "429s": item.rate_limited,
            "retries": item.retries,
            "waited_s": round(item.wait_seconds, 2),
        }
        for category, item in client.stats.items()
    }


async def import_with_progress(
    client: RoutePlanningClient, output: Output, plan: str, stops: Sequence[StopInput]
) -> list[tuple[str | None, str | None]]:
    """Import ``stops`` with a progress bar; per input, ``(stop id, None)`` or ``(None, why not)``."""
    with ImportBar(output, len(stops)) as bar:
        report = await client.stops.import_many(
            plan, stops, on_progress=lambda progress: bar.update(progress.done, progress.failed)
        )
    reasons: dict[int, str] = {rejected.position: rejected.message for rejected in report.rejected_stops}
    for failed in report.failed_batches:
        if failed.outcome == "unknown":
            # The service may have created these (an ambiguous failure without an
            # external id to look them up by): say so, so nobody re-imports blindly.
            reason = f"outcome unknown, the stop may exist; check before importing again: {failed.error}"
        else:
            reason = f"not created: {failed.error}"
        reasons.update(dict.fromkeys(failed.positions, reason))
    outcomes: list[tuple[str | None, str | None]] = []
    for position in range(report.total):
        stop_id = report.stop_id(position)
        outcomes.append(
            (stop_id, None) if stop_id is not None else (None, reasons.get(position, "not created"))
        )
    return outcomes


def read_counter(client: RoutePlanningClient) -> Callable[[], int]:
    """Reads sent from now on: the polls, for a status line."""
    before = client.stats[Category.READ].sent
    return lambda: client.stats[Category.READ].sent - before


async def wait_with_status(
    client: RoutePlanningClient,
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
