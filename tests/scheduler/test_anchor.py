"""Where an answered slot is anchored (``_scheduler/_anchor.py``; the lane's module docstring,
"Latency"). Pure: round trips given by hand."""

from __future__ import annotations

import pytest

from route_planning_async._scheduler._anchor import Anchor


def seen(anchor: Anchor, answers: int) -> None:
    """``answers`` round trips of 0.1 and 0.3 s in turn, one a second."""
    for i in range(answers):
        sent = float(i)
        anchor.shift(sent, sent + (0.1 if i % 2 else 0.3))


def test_a_slot_is_anchored_the_shortest_round_trip_less_the_doubt_before_its_answer() -> None:
    anchor = Anchor()
    seen(anchor, 14)
    assert anchor.shift(100.0, 100.3) == 0.0  # fewer than 16 seen: at the answer
    seen(anchor, 16)
    # The shortest (0.1) less twice the spread (0.2) over sqrt(answers + 1), the 32nd answer.
    assert anchor.shift(100.0, 100.3) == pytest.approx(-(0.1 - 2 / 33**0.5 * 0.2), abs=1e-5)
    anchor.late_arrival()
    assert anchor.shift(101.0, 101.3) == 0.0  # its caution took the rest
