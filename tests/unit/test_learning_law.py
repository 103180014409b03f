"""The learning law (``docs/learning.md``), one test per transition, named after it.

Pure: the law on clock readings given by hand, with a window given by hand (one
rule of 10 reads a second unless said otherwise). How the lane applies the actions
is tested in ``tests/shared/test_learning.py`` and the scheduler's tests.
"""

from __future__ import annotations

from route_planning_async._backends import WindowCount
from route_planning_async._learning import RAISE_GATE, Law, LearningPolicy
from route_planning_async._limits import Rule

READS = (Rule(10, 1.0),)


def window(admitted: int, refused: int = 0) -> tuple[WindowCount, ...]:
    return (WindowCount(admitted, refused, 0),)


def confirmed_law(level: int = 10, rules: tuple[Rule, ...] = READS) -> Law:
    """A law whose level ``level`` has been confirmed and held since t = 0."""
    law = Law(LearningPolicy(), rules)
    law.on_quiet(-2 * law.period)
    assert law.on_answer(-law.period, 0.0) is not None  # confirm
    if level != law.top:
        law.estimate.level = level
    law.estimate.changed_at = 0.0
    return law


def test_quiet() -> None:
    law = confirmed_law()
    action = law.on_quiet(10.0)
    assert action.transition == "quiet"
    assert action.gate == LearningPolicy().burst  # first alone, then at most `burst` out
    assert not law.estimate.confirmed


def test_confirm() -> None:
    law = Law(LearningPolicy(), READS)
    law.on_quiet(0.0)
    assert law.on_answer(0.0, 0.5) is None  # not a period yet
    action = law.on_answer(0.5, 1.0)
    assert action is not None
    assert action.transition == "confirm"
    assert action.gate == 0  # the gate opens
    assert law.estimate.confirmed
    assert law.estimate.held == 10


def test_busy() -> None:
    law = Law(LearningPolicy(), READS)
    law.on_quiet(0.0)
    action = law.on_refusal(0.0, 0.01, window(0, 1))
    assert action.transition == "busy"
    assert action.pause == 1.0
    assert action.level is None
    assert law.level == 10
    # Refused again: measured, not waited for again.
    assert law.on_refusal(1.5, 1.51, window(0, 1)).transition == "measure"
    assert law.level == 1
    # At a confirmed level, nothing of ours in the window is no reason to keep the level: it is a
    # decrease to what the window admitted (one a period), and it costs the budget.
    law = confirmed_law(level=5)
    action = law.on_refusal(5.0, 5.01, window(0, 2))
    assert action.transition == "decrease"
    assert law.level == 1
    assert law.estimate.budget == LearningPolicy().burst - 1


def test_a_storm_of_25_refusals_is_left_behind_within_20_periods() -> None:
    """The service refuses the next 25 attempts (its own storm), sent one at a time as the gate
    lets them; then it admits the configured 10 a period again. The level decreases, the
    return doubles it back to the level that held: >= 9 (90 %) within 20 periods."""
    law = confirmed_law()
    now = 10.0
    for _ in range(25):
        sent, now = now, now + 0.05
        if law.teaches(sent):
            law.on_refusal(sent, now, window(0, 1))
        else:
            law.on_refusal(sent, now, None)
    storm_over = now
    while law.level < 9:
        assert now - storm_over <= 20 * law.period, law.estimate
        for _ in range(law.level):
            sent, now = now, now + 1.0 / law.level
            law.on_answer(sent, now)
    assert law.estimate.held == 10


def test_measure() -> None:
    law = Law(LearningPolicy(), READS)
    law.on_quiet(0.0)
    action = law.on_refusal(0.01, 0.02, window(8, 1))
    assert action.transition == "measure"
    assert action.level == 8 == law.level  # straight to what was admitted, not halved
    assert law.estimate.confirmed


def test_stale() -> None:
    law = confirmed_law()
    assert law.on_refusal(5.0, 5.01, window(9)).transition == "decrease"
    assert law.level == 5
    # Sent before that change: it answers for nothing.
    assert not law.teaches(4.99)
    assert law.on_refusal(4.99, 5.02, window(9)).transition == "stale"
    assert law.level == 5


def test_decrease() -> None:
    law = confirmed_law()
    action = law.on_refusal(5.0, 5.01, window(9))
    assert action.transition == "decrease"
    assert action.level == 5
    assert action.gate == RAISE_GATE
    assert law.estimate.held == 10  # kept through the decrease
    # Never below... never above what the window admitted of ours.
    law = confirmed_law()
    assert law.on_refusal(5.0, 5.01, window(2)).level == 2
    # At least one request a period.
    law = confirmed_law(level=1)
    assert law.on_refusal(5.0, 5.01, window(1)).level == 1


def test_failed_raise() -> None:
    law = confirmed_law(level=4)
    law.estimate.held = 4
    probe = law.on_answer(1.5, 2.0)
    assert probe is not None
    assert probe.transition == "probe"
    assert law.level == 5
    action = law.on_refusal(2.0, 2.01, window(4, 1))
    assert action.transition == "failed raise"
    assert action.level == 4  # back to the level that held, not halved
    # A failed return lowers the level to go back to.
    law = confirmed_law(level=2)
    law.estimate.held = 10
    assert law.on_answer(1.5, 2.0) is not None
    assert law.level == 4
    assert law.on_refusal(2.0, 2.01, window(2, 1)).transition == "failed raise"
    assert law.estimate.held == 2


def test_held() -> None:
    law = confirmed_law(level=10)
    law.on_refusal(5.0, 5.01, window(9))  # decreased to 5, held stays 10
    assert law.estimate.held == 10
    law.on_answer(6.0, 6.02)  # 5 held a period: 10 is still the one to go back to
    assert law.estimate.held == 10
    # Once held is older than `memory` periods, the level that holds replaces it.
    law = confirmed_law(level=5)
    law.estimate.held, law.estimate.held_at = 10, -100.0
    law.on_answer(1.5, 2.0)
    assert law.estimate.held == 5


def test_return() -> None:
    law = confirmed_law()
    for step, (sent, now) in enumerate([(1.0, 1.01), (1.5, 1.52), (1.6, 1.62)]):
        law.on_refusal(sent + step * 1.0, now + step * 1.0, window(law.level))
    assert law.level == 1
    assert law.estimate.held == 10
    levels = []
    now = 3.62
    while law.level < 10:
        now += 1.0
        action = law.on_answer(now - 0.01, now)
        assert action is not None
        assert action.transition == "return"
        assert action.gate == RAISE_GATE
        levels.append(law.level)
    assert levels == [2, 4, 8, 10]  # back within four periods, without the refusal budget
    assert law.estimate.budget < 1.0


def test_probe() -> None:
    law = confirmed_law(level=3)
    law.estimate.held = 3
    levels = []
    now = 0.0
    while law.level < 10:
        now += 1.0
        action = law.on_answer(now - 0.01, now)
        assert action is not None
        assert action.transition == "probe"
        levels.append(law.level)
    assert levels == [4, 6, 10]  # the step doubles once a probe holds
    # No probe while the budget is below one refusal.
    law = confirmed_law(level=3)
    law.estimate.held, law.estimate.budget = 3, 0.5
    assert law.on_answer(0.99, 1.0) is None


def test_ceiling() -> None:
    law = confirmed_law(level=3)
    law.estimate.held = 3
    burst = LearningPolicy().burst
    assert law.estimate.budget == burst
    law.on_refusal(0.5, 0.51, window(3))
    assert law.estimate.budget == burst - 1
    # Each admitted answer earns the ceiling's share of a refusal (5 %), never past `burst`.
    law.on_answer(0.6, 0.7)
    assert law.estimate.budget == burst - 1 + 0.05
    for _ in range(100):
        law.on_answer(0.6, 0.7)
    assert law.estimate.budget == burst
    # Over a long run against a limit of 3, failed probes stay within the ceiling.
    law = confirmed_law(level=3)
    law.estimate.held = 3
    refused = sent = 0
    now = 0.0
    for _ in range(1000):
        now += 1.0 / 3
        sent += 1
        if law.level > 3 and law.teaches(now - 0.01):
            refused += 1
            law.on_refusal(now - 0.01, now, window(3, 1))
        else:
            law.on_answer(now - 0.01, now)
    assert refused <= 0.05 * sent


def test_long_window() -> None:
    rules = (Rule(100, 600.0), Rule(30, 60.0))  # optimize at the public documentation's limits
    law = confirmed_law(level=9, rules=rules)
    # Paced by the shorter rule: 90 per 10 minutes at 9 a minute.
    assert law.rules_at(law.factor)[0].amount * 0.3 >= 89
    # Refused while the long window holds the level's amount of it and the short one is not full:
    # that rule was the one; it keeps the level's amount, and the level stays.
    action = law.on_refusal(180.0, 180.1, (WindowCount(29, 1, 0), WindowCount(7, 1, 0)))
    assert action.transition == "long window"
    assert law.level == 9
    assert int(law.rules_at(law.factor)[0].amount * 0.3 + 1e-9) == 30
