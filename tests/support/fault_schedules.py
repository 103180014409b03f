"""Random fault schedules for the bulk importer's exactly-once property tests.

A schedule is ``(rows, seed, faults)``: how many rows to import, the seed of
everything random in the run, and the emulator faults to arm, each
``(kind, route, nth)``. Every importer test (stops, drivers, v1's targets)
draws its schedules here, with its own kinds, routes and sizes.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

__all__ = ["FAULT_KINDS", "Schedule", "fault_schedules"]

Schedule = tuple[int, int, list[tuple[str, str, int]]]
"""``(rows, seed, faults)``; each fault ``(kind, route, nth)``."""

FAULT_KINDS = (
    "error",
    "drop",
    "error_after_commit",
    "drop_after_commit",
    "malformed_json",
    "rate_limit",
    "client_error",
)
"""The faults a batch import and its lookups meet ("client_error": a 400)."""


@st.composite
def fault_schedules(
    draw: st.DrawFn,
    *,
    kinds: Sequence[str] = FAULT_KINDS,
    routes: Sequence[str],
    max_rows: int,
    max_nth: int,
    max_faults: int,
) -> Schedule:
    """A schedule of up to ``max_rows`` rows and ``max_faults`` faults of ``kinds`` on ``routes``
    (a route named twice is drawn twice as often), each on one of the first ``max_nth`` requests."""
    rows = draw(st.integers(min_value=1, max_value=max_rows))
    seed = draw(st.integers(min_value=0, max_value=2**16))
    faults = draw(
        st.lists(
            st.tuples(st.sampled_from(kinds), st.sampled_from(routes), st.integers(1, max_nth)),
            max_size=max_faults,
        )
    )
    return rows, seed, faults
