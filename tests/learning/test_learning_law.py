"""The learning law (``docs/learning.md``), one test per transition, named after it.

Pure: the law on clock readings given by hand, with a window given by hand (one
rule of 10 reads a second unless said otherwise). How the lane applies the actions
is tested in ``tests/learning/test_learning.py`` and the scheduler's tests.
"""

from __future__ import annotations

import itertools

from route_planning_async._learning import PROBE_TRIAL, RAISE_GATE, Law, LearningPolicy
from route_planning_async._rate_limits._backends import WindowCount
from route_planning_async._rate_limits._limits import Rule

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
    law.estimate.refused = 2
    action = law.on_quiet(10.0)
    assert action.transition == "quiet"
    # The first alone, then at most `burst` - 1 out: copies bursting together stay few refused.
    assert action.gate == LearningPolicy().burst - 1
    assert not law.estimate.confirmed
    assert law.estimate.refused == 0  # a new run for the ceiling


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
    # At a confirmed level, nothing of ours in the window is not busy: the level decreases.
    law = confirmed_law(level=5)
    assert law.on_refusal(5.0, 5.01, window(0, 2)).transition == "decrease"
    assert law.level == 2


def test_a_storm_is_left_behind_within_20_periods() -> None:
    """The service refuses every attempt for 2.5 periods (its own storm; the gate sends one at a
    time), from a moment when the window holds 6 of ours; then it admits the configured 10 a
    period again. The level decreases, and returns to the level the storm began at: all 10
    within 3 periods of the storm's last 429 (the bar: 90 % within 20)."""
    law = confirmed_law()
    now, admitted = 10.0, 6
    while now < 12.5:
        sent, now = now, now + 0.05
        law.on_refusal(sent, now, window(admitted, 1) if law.teaches(sent) else None)
        admitted = 0
    storm_over = now
    assert law.level == 1
    while law.level < 10:
        assert now - storm_over <= 3 * law.period, law.estimate
        for _ in range(law.level):
            sent, now = now, now + 1.0 / law.level
            law.on_answer(sent, now)


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
    # The highest level that held was refused: the one to go back to is bisected.
    assert law.estimate.held == 7
    # A decrease below it (others take more since it held) makes it one below the level refused:
    # a return there would cost the 429 this one foretold.
    assert law.on_refusal(5.5, 5.51, window(5)).level == 2
    assert law.estimate.held == 4
    # Never below the decreased level (one below 1 is none).
    law = confirmed_law(level=1)
    law.estimate.held = 7
    assert law.on_refusal(5.0, 5.01, window(1)).level == 1
    assert law.estimate.held == 1
    # At least one request a period.
    law = confirmed_law(level=1)
    assert law.on_refusal(5.0, 5.01, window(1)).level == 1
    # The failed probes' back-off answered the level before: after a decrease the next probe waits
    # `span` periods, not `span` times the back-off (a neighbour's leaving is found sooner).
    law = probed_law(4, 12.0)
    law.on_refusal(12.0, 12.01, window(4, 1))
    assert law.estimate.cost == 2.0
    law.on_answer(12.5, 12.6)
    assert law.on_refusal(20.0, 20.01, window(3, 1)).transition == "decrease"
    assert law.estimate.cost == 1.0
    law.estimate.answered = 100
    assert not law.may_probe(30.0)
    assert law.may_probe(30.01)


def test_decrease_when_the_service_refuses_everything() -> None:
    law = confirmed_law()
    # A storm begins mid-window: the 429 bisects the level to go back to by what it admitted.
    law.on_refusal(5.0, 5.01, window(6))
    assert (law.level, law.estimate.held) == (5, 6)
    # Retries refused in a row (the second 429 of the streak pauses a period), nothing of ours
    # admitted: at `burst` 429s in the streak, the level to go back to is the one it began at.
    law.on_refusal(5.02, 5.03, window(0))
    assert (law.level, law.estimate.held) == (2, 4)
    law.on_refusal(6.03, 6.04, window(0))
    assert (law.level, law.estimate.held) == (1, 10)
    # An admitted answer ends the streak; the next one begins at the level then in force (2).
    law = confirmed_law()
    law.on_refusal(5.0, 5.01, window(6))
    law.on_refusal(5.02, 5.03, window(0))
    law.on_answer(5.03, 5.04)
    for sent in (5.05, 5.07, 6.08):
        law.on_refusal(sent, sent + 0.01, window(0))
    assert law.estimate.streak == LearningPolicy().burst
    assert (law.level, law.estimate.held) == (1, 2)
    # Not while the window admitted some of ours (other processes sharing the backend): others
    # leave that much, and the decreases' rules stand.
    law = confirmed_law()
    for sent in (5.0, 5.02, 6.03):
        law.on_refusal(sent, sent + 0.01, window(4))
    assert (law.level, law.estimate.held) == (1, 1)


def probed_law(level: int, now: float) -> Law:
    """A confirmed law whose ``level`` held, which probed upward at ``now`` (after t = 10)."""
    law = confirmed_law(level)
    law.estimate.held = level
    probe = law.on_answer(now - 0.01, now)
    assert probe is not None
    assert probe.transition == "probe"
    return law


def test_failed_raise() -> None:
    law = probed_law(4, 12.0)
    assert law.level == 5
    action = law.on_refusal(12.0, 12.01, window(4, 1))
    assert action.transition == "failed raise"
    assert action.level == 4  # back to the level that held, not halved
    assert law.estimate.cost == 2.0  # the next probe waits twice as long
    # A failed return bisects the level to go back to.
    law = confirmed_law(level=2)
    law.estimate.held = 10
    assert law.on_answer(1.5, 2.0) is not None
    assert law.level == 10
    assert law.on_refusal(2.0, 2.01, window(2, 1)).transition == "failed raise"
    assert law.level == 2
    assert law.estimate.held == 6


def test_held() -> None:
    law = confirmed_law(level=10)
    law.on_refusal(5.0, 5.01, window(9))  # decreased to 5, held bisected to 7
    law.on_answer(6.0, 6.02)  # 5 held a period: 7 is still the one to go back to
    assert law.estimate.held == 7
    # Once held is older than `memory` periods, the level that holds replaces it.
    law = confirmed_law(level=5)
    law.estimate.held, law.estimate.held_at = 10, -100.0
    law.on_answer(1.5, 2.0)
    assert law.estimate.held == 5
    # A probe holds only after PROBE_TRIAL periods.
    law = confirmed_law(level=3)
    law.estimate.held = 3
    assert law.on_answer(10.5, 11.0) is not None
    assert law.on_answer(12.0, 12.1) is None
    assert law.estimate.held == 3
    assert law.on_answer(13.9, 14.0) is not None
    assert law.estimate.held == 4


def test_return() -> None:
    law = confirmed_law(level=1)
    law.estimate.held = 7
    law.estimate.recent = (0.0,)  # one 429 within `span` periods: a return may still cost one
    levels = []
    now = 0.0
    while law.level < 7:
        now += 1.0
        action = law.on_answer(now - 0.01, now)
        assert action is not None
        assert action.transition == "return"
        assert action.gate == RAISE_GATE
        levels.append(law.level)
    assert levels == [7]  # back in one step, a period after the level's last change
    # With `burst` - 1 429s within `span` periods, no return until the first is that old.
    law = confirmed_law(level=1)
    law.estimate.held = 7
    law.estimate.recent = (0.5, 0.6)
    assert law.on_answer(9.0, 9.01) is None
    assert law.on_answer(10.5, 10.51) is not None


def test_probe() -> None:
    law = confirmed_law(level=3)
    law.estimate.held = 3
    levels = []
    now = 10.0
    while law.level < 10:
        now += PROBE_TRIAL
        action = law.on_answer(now - 0.01, now)
        assert action is not None
        assert action.transition == "probe"
        levels.append(law.level)
    assert levels == [4, 6, 10]  # the step doubles once a probe held its PROBE_TRIAL periods
    # No probe within `span` periods of a 429.
    law = confirmed_law(level=3)
    law.estimate.held, law.estimate.refused_at = 3, 0.0
    assert law.on_answer(9.98, 9.99) is None
    assert law.on_answer(10.0, 10.01) is not None


def test_ceiling() -> None:
    policy = LearningPolicy()
    law = confirmed_law(level=3)
    law.estimate.held = 3
    assert law.may_probe(10.0)
    # Within `span` periods of a 429, no probe; a failed probe's back-off multiplies them.
    law.estimate.refused_at = 5.0
    assert not law.may_probe(14.9)
    assert law.may_probe(15.0)
    law.estimate.cost = 2.0
    assert not law.may_probe(24.9)
    assert law.may_probe(25.0)
    # The run's 429s, with the probe's and one more, within `burst` in a short run...
    law.estimate.refused, law.estimate.answered = policy.burst - 1, 20
    assert not law.may_probe(100.0)
    # ... and within `ceiling` of the attempts in a long one.
    law.estimate.answered = 100
    assert law.may_probe(100.0)
    # A streak of 429s with nothing admitted between counts once...
    law = confirmed_law(level=3)
    for t in range(10):
        law.on_refusal(1.0 + t, 1.01 + t, None)
    assert law.estimate.refused == 1
    # ... and each retry refused in it doubles the pause, from one period up to `span`: a key the
    # service locked out goes quiet enough to be released.
    law = confirmed_law(level=3)
    pauses = []
    now = 5.0
    for _ in range(7):
        action = law.on_refusal(now, now + 0.01, window(0, 1))
        pauses.append(action.pause)
        now += 0.01 + max(action.pause, 1.0)
    assert pauses == [0.0, 1.0, 2.0, 4.0, 8.0, policy.span, policy.span]
    # 429s to attempts sent before the last came (in flight together) are not retries.
    law = confirmed_law(level=3)
    assert [law.on_refusal(5.0, 5.01 + i / 100, window(0, 1)).pause for i in range(4)] == [0.0] * 4
    # An admitted answer ends the streak.
    law = confirmed_law(level=3)
    law.on_refusal(5.0, 5.01, window(0, 1))
    assert law.on_refusal(6.0, 6.01, window(0, 1)).pause == 1.0
    law.on_answer(7.0, 7.01)
    assert law.on_refusal(8.0, 8.01, window(0, 1)).pause == 0.0
    # Over a long run against a limit of 3, failed probes stay within the ceiling, and never
    # more than `burst` in `span` periods.
    law = confirmed_law(level=3)
    law.estimate.held = 3
    refusals: list[float] = []
    sent = 0
    now = 0.0
    for _ in range(1000):
        now += 1.0 / law.level
        sent += 1
        if law.level > 3 and law.teaches(now - 0.01):
            refusals.append(now)
            law.on_refusal(now - 0.01, now, window(3, 1))
        else:
            law.on_answer(now - 0.01, now)
    assert refusals
    assert len(refusals) <= policy.ceiling * sent
    assert all(later - earlier > policy.span for earlier, later in itertools.pairwise(refusals))


def test_long_window() -> None:
    rules = (Rule(100, 600.0), Rule(30, 60.0))  # optimize at the public documentation's limits
    law = confirmed_law(level=9, rules=rules)
    # Paced by the shorter rule: 90 per 10 minutes at 9 a minute.
    assert law.rules_at(law.factor)[0].amount * 0.3 >= 89
    # The window read after a 429 holds the refused attempt itself: judged without it, the short
    # window was not full when it came (8 of 9), the long one was (30 of 30).
    short_not_full = (WindowCount(30, 1, 0), WindowCount(8, 1, 0))
    # A short window a refusal before this one filled (8 admitted and 1 refused of 9): not alone.
    short_full = (WindowCount(30, 2, 0), WindowCount(8, 2, 0))
    assert law.on_refusal(180.0, 180.1, short_full).transition == "decrease"
    law = confirmed_law(level=9, rules=rules)
    # Refused while the long window holds the level's amount of it and the short one is not full:
    # that rule was the one; it keeps the level's amount, and the level stays.
    action = law.on_refusal(180.0, 180.1, short_not_full)
    assert action.transition == "long window"
    assert law.level == 9
    assert int(law.rules_at(law.factor)[0].amount * 0.3 + 1e-9) == 30


def test_long_window_of_weights() -> None:
    # Batch imports at the public documentation's request limits, and stops a minute over 10
    # minutes (a paced weight rule): a refused import of 100 stops holds 100 of the stops' windows.
    rules = (Rule(100, 600.0), Rule(30, 60.0), Rule(10_000, 600.0, "weight"), Rule(1000, 60.0, "weight"))
    law = confirmed_law(level=9, rules=rules)
    # Without the attempt's 100 stops, the short stops' window held 250 of 300, the long 3,000 of 3,000.
    window = (
        WindowCount(20, 1, 0),
        WindowCount(5, 1, 0),
        WindowCount(3000, 100, 0),
        WindowCount(250, 100, 0),
    )
    assert law.on_refusal(180.0, 180.1, window, weight=100).transition == "long window"


def test_a_level_lowered_by_another_process_is_a_decrease_of_the_fleet() -> None:
    # The fleet's shared state: another process sharing the backend cut the level at t = 5 after
    # a 429 of its own. This process takes the level, the ceiling dates the fleet's 429, and the
    # level to go back to is the new one (the process refused returns for the fleet).
    law = confirmed_law(level=6)
    law.estimate.held = 6
    law.adopt(0.3, 5.0)
    assert law.level == 3
    assert law.estimate.recent == (5.0,)
    assert law.estimate.held == 3
    # No return, and no probe, within `span` periods of it: as after one of its own.
    assert law.on_answer(14.98, 14.99) is None
    assert law.level == 3
    assert law.on_answer(15.0, 15.01) is not None
    assert law.level == 4


def test_a_level_raised_by_another_process_is_a_raise_on_trial() -> None:
    law = confirmed_law(level=3)
    law.estimate.held = 3
    law.adopt(0.6, 5.0)
    assert law.level == 6
    assert law.estimate.recent == ()
    # On trial, as if this process had probed: no probe from it before it held PROBE_TRIAL periods
    # (else each process of the fleet would probe again from the others' probe) ...
    assert law.on_answer(5.0 + PROBE_TRIAL - 0.02, 5.0 + PROBE_TRIAL - 0.01) is None
    assert law.estimate.raised_from == 3
    # ... and refused, back to the level it came from.
    action = law.on_refusal(6.0, 6.01, window(6, 1))
    assert action.transition == "failed raise"
    assert law.level == 3


def test_a_level_raised_by_another_process_after_a_quiet_spell_is_a_raise_on_trial() -> None:
    # The fleet went on at 3 while this process sent nothing (its quiet spell): another process
    # probes 6 as this one sends again. The 429 to its first attempt at 6 is the probe's failure,
    # back to the fleet's 3, not a first contact measured by a window that still holds the
    # probe's attempt in flight (which would take the fleet down to the one it shows admitted).
    law = confirmed_law(level=3)
    law.estimate.held = 3
    law.on_quiet(10.0)
    law.adopt(0.6, 10.0)
    assert law.level == 6
    assert law.estimate.raised_from == 3
    assert not law.estimate.confirmed  # still a first contact, under its gate
    action = law.on_refusal(10.0, 10.01, (WindowCount(1, 1, 1),))
    assert action.transition == "failed raise"
    assert law.level == 3
    assert law.estimate.held == 3
    # A raise of its own on trial when a quiet spell began is over: the first contact measures.
    law = probed_law(3, 11.0)
    assert law.estimate.raised_from == 3
    law.on_quiet(20.0)
    assert law.on_refusal(20.0, 20.01, window(2, 1)).transition == "measure"
    assert law.level == 2


def test_a_probe_in_another_process_s_turn_is_withdrawn() -> None:
    # The fleet (docs/learning.md): the lane found the fleet's turn to probe taken until t = 30;
    # the probe the law answered is withdrawn before it is applied (the level, and the time of
    # its last change, as they were), and no probe goes before the turn's end.
    law = probed_law(3, 11.0)
    assert law.level == 4
    law.cede(30.0)
    assert law.level == 3
    assert law.estimate.changed_at == 0.0
    assert law.estimate.raised_from is None
    assert law.on_answer(29.98, 29.99) is None
    assert law.level == 3
    action = law.on_answer(30.0, 30.01)
    assert action is not None
    assert action.transition == "probe"
    assert law.level == 4


def test_a_probe_s_turn_lasts_the_back_off_of_its_failure() -> None:
    # ``Law.probe_turn``: the wait a failed probe would impose, twice `span` periods (a lent
    # level's back-off stops at 2; a measured one's doubles on).
    law = confirmed_law(level=3)
    assert law.probe_turn() == 2 * 10 * law.period
    law.estimate.cost = 4.0
    assert law.probe_turn() == 8 * 10 * law.period
    law.estimate.lent = True
    assert law.probe_turn() == 2 * 10 * law.period
