"""The learning law: one category's estimate, and its transitions at each event.

``docs/learning.md`` states the law (its state diagram, its twelve transitions and
the figure each protects); this module is that text as code, one method per event:

- :meth:`Law.on_quiet`: the first send after a quiet spell (the *tick*);
- :meth:`Law.on_answer`: an answer that is not a 429;
- :meth:`Law.on_refusal`: a 429;
- :meth:`Law.adopt` and :meth:`Law.cede`: another process sharing the backend changed the
  level, or holds the fleet's turn to probe (``docs/learning.md``, "The fleet").

Each answers an :class:`Action`, which the lane (``_scheduler/_lane.py``) applies:
the level through the backend (so that every process sharing it uses it), the pause,
the gate. The lane decides nothing about the level itself. Pure bookkeeping on
clock readings: no I/O, no await.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from route_planning_async._learning._policy import LearningPolicy
from route_planning_async._learning._windows import LongWindows
from route_planning_async._rate_limits._backends import WindowCount, learned_amount, learned_rules
from route_planning_async._rate_limits._limits import Rule

__all__ = ["PROBE_TRIAL", "RAISE_GATE", "Action", "Estimate", "Law"]

RAISE_GATE = 16
"""Attempts out at once after which a raise's gate opens (each admitted answer lets one more go)."""
PROBE_TRIAL = 3
"""Periods a probe must hold before it is a level that held (a level a little above what is left
may hold one period by the phase of the others' traffic, not three)."""


@attrs.define
class Estimate:
    """One category's learning state: the one record the law changes (``docs/learning.md``, "The
    state"). Clients of one process sharing a backend share it."""

    level: int
    """Requests of the smallest rule admitted per period (1 to the configured amount)."""
    held: int | None = None
    """The level to go back to after a decrease: the highest that held a whole period within
    ``memory``, bisected when refused, one below a lower level refused (None: none yet)."""
    held_at: float = -math.inf
    """When ``held`` last held."""
    raised_from: int | None = None
    """The level before the last raise, until the raised level holds a period."""
    returning: bool = False
    """Whether the last raise was a return (below ``held``), not a probe."""
    step: int = 1
    """The next probe's size: doubled by each probe that held, 1 after a 429."""
    answered: int = 0
    """Admitted answers since the last quiet spell (the ceiling's run, transition 11)."""
    refused: int = 0
    """429s since the last quiet spell, a streak (no admitted answer between) counted once."""
    streak: int = 0
    """The 429s since the last admitted answer, each to an attempt sent after the one before it
    came (0: the last answer was admitted): the retries refused in a row."""
    refused_at: float = -math.inf
    """When the last 429 came."""
    recent: tuple[float, ...] = ()
    """When the last ``burst`` 429s came (the ceiling's short window; a streak counted once)."""
    cost: float = 1.0
    """How many ``span`` s a probe waits after a 429: doubled by each failed probe, 1 once a probe
    holds or after a decrease (failed probes back off)."""
    lent: bool = False
    """Whether the level came from a decrease of a level that held (others hold the rest, and
    may give it back), not from a measure of the service's limit."""
    confirmed: bool = False
    """Whether an answer confirmed the level since the last quiet spell."""
    contact_at: float = -math.inf
    """When the last quiet spell ended (the first contact began)."""
    waited: bool = False
    """Whether a busy window was waited for since a level was last confirmed."""
    changed_at: float = -math.inf
    """When the level last changed: only a 429 to an attempt sent since teaches anything."""
    streak_from: int | None = None
    """The level in force when the streak of 429s began (None: a level on trial or unconfirmed)."""
    turn_at: float = -math.inf
    """When another process's turn to probe ends (the fleet's probes take turns)."""


@attrs.frozen
class Action:
    """What the lane must do after an event: the transition that fired, and its effects."""

    transition: str
    """The transition's name in ``docs/learning.md``."""
    level: int | None = None
    """The new level (None: unchanged)."""
    pause: float = 0.0
    """Seconds the category waits at least (beside the 429's own pause)."""
    gate: int | None = None
    """Close the gate: one attempt alone, one more per admitted answer, at most this many out
    (``RAISE_GATE``: then open); 0: open it; None: leave it as it is."""


class Law:
    """The law for one category's ``rules``, on an :class:`Estimate` (a shared one, or its own)."""

    def __init__(
        self, policy: LearningPolicy, rules: Sequence[Rule], estimate: Estimate | None = None
    ) -> None:
        self.policy = policy
        self.rules = tuple(rules)
        self.period = max(rule.period for rule in self.rules)
        self.top = min(rule.amount for rule in self.rules)
        """The configured level: the smallest rule's amount."""
        self._counted = tuple(rule for rule in self.rules if rule.per == "request") or self.rules
        self._windows = LongWindows(self.rules)
        self.estimate = estimate if estimate is not None else Estimate(self.top)
        self._unraised_at = -math.inf
        """When the level changed before the last raise (what :meth:`cede` restores)."""

    # ------------------------------------------------------------------ reading the estimate

    @property
    def level(self) -> int:
        """The level in force."""
        return self.estimate.level

    @property
    def factor(self) -> float:
        """The level as a share of the configured limits (what the backend keeps)."""
        return self.estimate.level / self.top

    @property
    def active(self) -> bool:
        """Whether answers may still change the level (else the lane need not report them one by
        one, only count them: :meth:`count`)."""
        e = self.estimate
        return not e.confirmed or e.level < self.top

    def count(self, answers: int) -> None:
        """``answers`` admitted answers the lane counted without reporting them (while not
        :attr:`active`): they count for the ceiling (11), and end a streak of 429s."""
        if answers:
            self.estimate.answered += answers
            self.estimate.streak = 0

    def level_at(self, factor: float) -> int:
        """The level of a rate factor (another process's, read from the backend)."""
        return max(1, min(self.top, math.floor(factor * self.top + 1e-9)))

    def level_of(self, admitted: Sequence[int]) -> int:
        """The level a window's admitted counts (one per rule) show: the most of any rule."""
        return max(
            math.floor(count * self.top / rule.amount + 1e-9)
            for count, rule in zip(admitted, self.rules, strict=True)
        )

    def teaches(self, sent_at: float) -> bool:
        """Whether a 429 to an attempt sent at ``sent_at`` went at the level in force (else it is
        stale: transition 5), so that the lane reads the window for :meth:`on_refusal`."""
        return sent_at >= self.estimate.changed_at

    def per_second(self, level: int) -> float:
        """Requests a second the request rules admit at ``level`` (the fastest)."""
        factor = level / self.top
        return max(learned_amount(rule.amount, factor) / rule.period for rule in self._counted)

    @property
    def spacing(self) -> float:
        """Seconds the lane leaves between two sends (``docs/learning.md``, "Evenly below N"):
        one period over the level below the configured level, 0 at it."""
        level = self.estimate.level
        return 0.0 if level >= self.top else 1.0 / self.per_second(level)

    def due(self, last_sent: float) -> float:
        """When the next send may go, the last one sent at ``last_sent``: :attr:`spacing` after it,
        but a raise's first attempt at once (it tries the raised level on the window as it is)."""
        e = self.estimate
        if e.raised_from is not None and last_sent < e.changed_at:
            return -math.inf
        return last_sent + self.spacing

    def rules_at(self, factor: float) -> tuple[Rule, ...]:
        """The rules to ask the backend with at ``factor`` (the long-window rule, ``_windows.py``)."""
        return self._windows.rules_at(factor)

    def learned(self) -> tuple[Rule, ...]:
        """The rules with their learned amounts."""
        return learned_rules(self.rules_at(self.factor), self.factor)

    # ------------------------------------------------------------------ the events

    def on_quiet(self, now: float) -> Action:
        """1. **quiet**: the first send after a quiet spell; the level is unconfirmed, a new run
        begins, and the next attempts go paced by answers, at most ``burst`` - 1 out."""
        e = self.estimate
        e.confirmed, e.raised_from = False, None
        e.contact_at = now
        e.answered = e.refused = 0
        return Action("quiet", gate=max(1, self.policy.burst - 1))

    def on_answer(self, sent_at: float, now: float) -> Action | None:
        """An answer that is not a 429, to an attempt sent at ``sent_at``: it counts for the
        ceiling (11), and the level may be confirmed (2), have held (8), return (9) or probe (10)."""
        e = self.estimate
        e.answered += 1
        e.streak = 0
        if not e.confirmed:
            if now - e.contact_at < self.period or sent_at < e.changed_at:
                return None
            # 2. confirm: a period since the quiet one, and no 429 since.
            e.confirmed, e.waited = True, False
            self._held(now)
            return Action("confirm", gate=0)
        probing = e.raised_from is not None and not e.returning
        if sent_at < e.changed_at or now - e.changed_at < self.period * (PROBE_TRIAL if probing else 1):
            return None
        self._held(now)
        assert e.held is not None
        if e.level < e.held:
            # 9. return: below the level to go back to, back to it (a failed one bisects it).
            if not self.may_return(now):
                return None
            return self._raise(e.held, now, returning=True)
        if e.level < self.top and self.may_probe(now):
            # 10. probe: above every level that held, only while the ceiling has room.
            return self._raise(min(self.top, e.level + e.step), now, returning=False)
        return None

    def on_refusal(
        self, sent_at: float, now: float, window: Sequence[WindowCount] | None, weight: int = 1
    ) -> Action:
        """A 429 to an attempt of ``weight`` sent at ``sent_at``; ``window``: what the service's
        window holds of ours, per rule, this attempt's refused slot among them (read when
        :meth:`teaches`). It counts for the ceiling (11), where a retry refused in a streak
        doubles the pause; the level is kept (busy 3, stale 5, long window 12), measured (4),
        decreased (6) or goes back (7)."""
        e, policy = self.estimate, self.policy
        # A streak of 429s with nothing admitted between (the service refusing everything for
        # a while) is one event for the ceiling; each retry refused in it doubles the pause.
        if not e.streak:
            e.streak_from = e.level if e.confirmed and e.raised_from is None else None
            e.refused += 1
            e.recent = (*e.recent, now)[-policy.burst :]
            e.streak = 1
        elif sent_at >= e.refused_at:
            e.streak += 1
        e.refused_at = now
        action = self._refusal(sent_at, now, window, weight)
        if e.streak < 2:
            return action
        pause = self.period * min(policy.span, 2.0 ** (e.streak - 2))
        return attrs.evolve(action, pause=max(action.pause, pause))

    def _refusal(
        self, sent_at: float, now: float, window: Sequence[WindowCount] | None, weight: int
    ) -> Action:
        """What a 429 does to the level (transitions 3 to 7 and 12), once counted for the ceiling."""
        e, policy = self.estimate, self.policy
        seen = None if window is None else self.level_of([count.admitted for count in window])
        if sent_at < e.changed_at or window is None or seen is None:
            # 5. stale: sent before the last change, which already answered for it.
            return Action("stale")
        if e.raised_from is not None:
            # 7. failed raise: back to the level that held; a failed return lowers the memory.
            level = e.raised_from
            if e.returning:
                # Between the level it came from (which held) and the one refused: bisect.
                e.held, e.held_at = max(level, (level + e.level) // 2), now
            else:
                # A lent level probes again soon (others may give it back); a measured one backs off.
                e.cost = min(2.0 if e.lent else 2.0**policy.burst, 2 * e.cost)
            e.step = 1
            return self._set(level, now, "failed raise", gate=0)
        if not e.confirmed:
            if seen == 0 and not e.waited:
                # 3. busy: nothing of ours in the window, others filled it: wait for it to empty
                # (once: refused again, the level is measured).
                e.waited = True
                e.changed_at = now
                e.contact_at = now + self.period
                return Action("busy", pause=self.period)
            # 4. measure: the window shows what the service admits of ours.
            e.confirmed, e.lent = True, False
            return self._set(max(1, min(e.level - 1, seen)), now, "measure", gate=RAISE_GATE)
        # What each window held when the attempt came: a service may count 429s, but not this one's.
        counted = [
            max(0, count.admitted + count.refused - (1 if rule.per == "request" else weight))
            for count, rule in zip(window, self.rules, strict=True)
        ]
        if e.level < self.top and self._windows.refused_alone(counted, self.factor):
            # 12. long window: a longer rule paced by the shorter ones refused alone: it keeps
            # the level's amount from now on, and the level stays.
            e.changed_at = now
            return Action("long window")
        # 6. decrease: the level in force is refused.
        # What the window admitted of ours bounds what the service admits us now, when it admitted
        # any (nothing admitted says only that others, or the service itself, took the window).
        # The failed probes' back-off answered the level before: the probes start over.
        e.step, e.lent, e.cost = 1, True, 1.0
        bound = seen if seen > 0 else self.top
        level = max(1, min(math.floor(policy.decrease * e.level + 1e-9), bound))
        if seen == 0 and e.streak >= policy.burst and e.streak_from is not None:
            # Retries refused in a row with nothing of ours admitted in the window: the service
            # refuses everything (its storm, a lockout, or others take the whole window: the law
            # cannot tell them apart), which measures nothing of what others leave: the level
            # to go back to is the one the streak began at.
            e.held, e.held_at = max(e.held or 0, e.streak_from), now
        elif e.held is None or e.level >= e.held:
            # The highest level that held (or a measured one) was refused: the one to go back to
            # is between it and the decreased one (bisect; a failed return bisects again).
            e.held, e.held_at = max(level, min((level + e.level) // 2, bound)), now
        else:
            # A level below the one to go back to was refused: that one is no level to go back
            # to now (a return there would cost a 429 the refusal foretold): one below the
            # refused level, at most.
            e.held = max(level, e.level - 1)
        return self._set(level, now, "decrease", gate=RAISE_GATE)

    def may_return(self, now: float) -> bool:
        """11. **ceiling**, for a return (which may cost a 429): at most ``burst`` - 2 429s came
        within ``span`` periods, so that one more the law cannot prevent keeps them within
        ``burst``."""
        span = self.policy.span * self.period
        return sum(1 for at in self.estimate.recent if now - at < span) <= self.policy.burst - 2

    def may_probe(self, now: float) -> bool:
        """11. **ceiling**: a probe (which may cost a 429) goes only when no 429 came within
        ``span`` periods (times the failed probes' back-off), and when this run's 429s, with
        the probe's and one more the law cannot prevent, stay within ``ceiling`` of its attempts
        (``burst`` in a short run)."""
        e, policy = self.estimate, self.policy
        if now < e.turn_at or now - e.refused_at < policy.span * self.period * e.cost:
            return False
        return e.refused + 2 <= max(policy.burst, policy.ceiling * (e.answered + e.refused))

    def probe_turn(self) -> float:
        """Seconds a probe takes the fleet's turn for (``docs/learning.md``, "The fleet"): the wait
        a failed probe imposes (``span`` times the back-off it would double to), so that a
        failure elsewhere in the fleet is honoured without being seen."""
        e = self.estimate
        return self.policy.span * self.period * min(2.0 if e.lent else 2.0**self.policy.burst, 2 * e.cost)

    def cede(self, until: float) -> None:
        """The fleet's turn to probe is another process's until ``until``: the probe just answered
        is withdrawn (the lane has not applied it), and the next waits for the turn's end."""
        e = self.estimate
        if e.raised_from is not None and not e.returning:
            e.level, e.changed_at = e.raised_from, self._unraised_at
            e.raised_from = None
        e.turn_at = until

    def adopt(self, factor: float, now: float) -> None:
        """Another process sharing the backend changed the level (the backend keeps one level per
        category): this one takes it, dated now, as the fleet's transition (``docs/learning.md``,
        "The fleet"): a lower level as a decrease after the fleet's 429, a higher as a raise on
        trial, also in a first contact after a quiet spell of this process alone (the fleet's
        level, which this one held, was in force: a 429 to the raise goes back to it, not
        measured)."""
        e = self.estimate
        level = self.level_at(factor)
        if level == e.level:
            return
        raised_from = None
        if level < e.level:
            if now > e.refused_at:
                e.refused_at = now
                e.recent = (*e.recent, now)[-self.policy.burst :]
            e.held, e.held_at, e.step = level, now, 1
        elif e.confirmed or e.held is not None:
            raised_from, e.returning = e.level, e.held is not None and level <= e.held
        e.level, e.changed_at, e.raised_from = level, now, raised_from

    # ------------------------------------------------------------------ the transitions' parts

    def _held(self, now: float) -> None:
        """8. held: the level in force held a whole period; remembered as ``held`` if it is the
        highest within ``memory`` periods."""
        e = self.estimate
        if e.raised_from is not None and not e.returning:
            e.step *= 2
            e.cost = 1.0
        e.raised_from = None
        if e.held is None or e.level >= e.held or now - e.held_at > self.policy.memory * self.period:
            e.held, e.held_at = e.level, now

    def _raise(self, level: int, now: float, *, returning: bool) -> Action:
        e = self.estimate
        raised_from, self._unraised_at = e.level, e.changed_at
        action = self._set(level, now, "return" if returning else "probe", gate=RAISE_GATE)
        e.raised_from, e.returning = raised_from, returning
        return action

    def _set(self, level: int, now: float, transition: str, *, gate: int | None = None) -> Action:
        e = self.estimate
        e.level, e.changed_at, e.raised_from = level, now, None
        return Action(transition, level=level, gate=gate)
