"""What every exactly-once import test ends with: each input row accounted for once."""

from __future__ import annotations

from collections import Counter
from typing import Any

from route_planning_async._import import ImportReport, Outcome


def assert_accounted(report: ImportReport[Any], stored: dict[int, list[str]], rows: int) -> None:
    """The items the service holds (input position -> ids) plus the rows the report names as
    missing are the input, with no duplicates."""
    assert report.total == rows
    assert set(stored) <= set(range(rows)), "the service holds items that were never read"
    counts = Counter(dict.fromkeys(Outcome, 0))
    for position in range(rows):
        outcome = report.outcome(position)
        counts[outcome] += 1
        ids = stored.get(position, [])
        if outcome is Outcome.CREATED:
            assert len(ids) == 1, (position, ids)
            assert report.id_of(position) == ids[0]
        elif outcome in (Outcome.REJECTED, Outcome.NOT_CREATED):
            assert ids == [], (position, outcome, ids)
        else:
            assert len(ids) <= 1, (position, ids)
    assert counts[Outcome.CREATED] == report.created
    assert counts[Outcome.REJECTED] == len(report.rejected)
    assert counts[Outcome.NOT_CREATED] == report.not_created == len(report.to_resend())
    assert counts[Outcome.UNKNOWN] == report.unknown == len(report.uncertain())
    assert report.done == rows
