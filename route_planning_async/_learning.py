"""Learning the service's real limit from its 429s: one category's state (its policy, as data, is
``_learning_policy.py``).

The configured limits (``_limits.py``) are a belief. The service's limits "may
change at any moment", its public documentation gives other numbers than the
contract, and teams can have raised ones; so a category keeps a *rate factor*
``f`` in ``(0, 1]`` and admits ``learned_amount(amount, f)`` =
``max(1, floor(amount * f))`` of every rule per period (``_backends.py``). This
module decides ``f``; the scheduler's lanes (``_scheduler/_lane.py``) ask it after every
answer and carry the answer out through the backend, so that every process
sharing a backend uses what any of them learned.

The service's rule: the 429 share is the constraint
---------------------------------------------------

The v1 description ("Rate limiting") states it: "If the client keeps retrying
rate-limited requests while being rejected with a 429 at a high rate, Spoke will
keep rejecting the requests until you turn down the request rate", and traffic
held near the limit for long is throttled too. A client whose 429 share is high
is locked out, not slow. So the share of refused requests is the hard
constraint, kept by the lane whatever this module believes (the 429 ceiling,
``_scheduler/_ceiling.py``: over any 10 periods at most 5 % of what was sent, 3
while fewer than 60 were sent; no probe while one more refusal would pass it);
what is optimised inside it is the speed of taking back a freed budget.

The algorithm
-------------

**Cut to what the service counted.** A 429 says the service counted at least
its limit in its trailing window. When it comes, the slots the backend holds in
the trailing period of each rule that were answered without a 429 (``usage``,
by every process sharing the backend), with this process's 429s in that window
(a service may count refused requests: the lane adds them), are what the
service counted of ours; ``f_obs = max over rules of counted / amount`` is the
level it allows. Attempts still in flight are not in it (they may yet be
refused: in a first burst, most are), so a cut made on the first answers of a
burst may go too deep; the admitted answers that follow correct it
(:meth:`LimitLearner.correct`). A 429 to a level that had held says something
changed that the window cannot show yet: somebody else arrived on the key
(whose share grows over a period) or the limit fell. The cut is then TCP's
multiplicative decrease, to ``decrease`` (half) of the level in whole requests,
and every 429 within ``settle`` periods of that decrease decreases again, never
below what the window counted of ours (the others are still arriving; such a
429 is never read as a busy budget). Later, a 429 at a level a cut reached is a
race: others' sends race ours for each freed slot, and where their arrivals
jitter, a level that holds loses one now and then. If the level held ``P``
periods since it last changed and the 429 ceiling has room for this 429, it is
kept (one such 429 per ``P`` periods at most, the probes' own share); otherwise
it costs one request. Neither a decrease nor a race is a failed probe: the next
probe comes ``P`` periods later. Otherwise (the configured limits were never the
service's) the category is cut to ``f = max(floor, f_obs)`` (never raised by a
cut), *measured* unlike botocore's adaptive mode: a real limit of 0.8, 0.5, 0.3
or 0.1 of the configured one is reached at the first cut, not after halving
past it. Only a 429 to an attempt sent after the last change of ``f`` teaches
anything (one cut per round trip), and a cut is followed by a slow start (the
lane's gate).

**Probe back up, paced by what is left.** The limit may rise again. With ``r``
requests a period left to the category at its level (the request rules, over
the category's longest period), it probes no more often than every
``P = max(recent_probe_interval, ceil(1 / (probe_share * r)))`` periods (3 and
5 %: ``max(3, ceil(20 / r))``), so that refused probes alone stay under the
ceiling. After a cut from a level that held (others took part of it, or the
limit dropped for a while), the first probe comes ``P`` periods later; every
failed probe doubles the wait, up to ``2 P`` while a higher level ever held,
so when the others leave, the category is back at its full rate within
``2 P + 2`` periods (the next probe, and its first step). Where no higher level
ever held (the configured limits were never the service's), the first probe waits
``first_probe_unproven`` periods (``P`` if longer) and the waits double up to
``max_probe_interval`` (``2 P`` if longer). A probe raises ``f`` by one *unit*
(one request of the category's smallest rule); once the raised level has held a
whole period (the first step ``first_step`` periods: a level that passed one
period by luck is no proof) and an attempt sent at it was answered without a
429, it grows again by twice the step (TCP's slow start), until a 429 or the
configured limit (a raise to it waits for its period like any other). A step
that holds at a level a probe was refused at says that what refused it is gone
(the limit came back, or the others left): the ramp goes straight to the
highest level that held within ``memory`` periods, and back to the step if that
fails. A cut made in the process's first period is the exception: the window it
read may have held a stopped run's slots (see "Others on the key"), so its first
probe comes after ``first_probe``, it steps after ``confirm`` of a period, and
if it holds the category goes straight back to the configured limits; if it
fails, the cut was the limit, and the next probe waits twice
``first_probe_unproven``. The lane sends a raise's attempts one at a time for
``confirm`` of a period, so a step the service does not admit costs one 429,
whatever its size. A probe that fails
goes back to the last level of its ramp that held a whole period (not the
window's count at the 429: where others' share varies from window to window, a
raised level may pass in one and fail in the next), and a 429 to an attempt
sent *before* the raise, while it waits, fails it too: the level below was
already full. This is the bargain of CUBIC's plateau around its last maximum,
and of the client-side throttling in Google's SRE book, which accepts a bounded
share of rejections as the price of finding capacity again; the bound here is
the service's.

**Long windows.** A category with rules of several periods (optimize and
imports at the public documentation's limits) applies one factor to all of
them; a longer rule is paced by the shorter ones until a 429 is its own
(``_long_windows.py`` states the rule).

Others on the key
-----------------

A 429 has a second, common cause: someone else spent the key's budget (the
stopped run of the same job, a web app and a batch job on one key without a
shared backend, a colleague's script). The model: the service counts one budget
of ``L`` per window for everybody on the key; this process (with every process
sharing its backend, whose slots the backend holds) is one user of it, and
*others*, unseen, take ``O``; a 429 says ``own + O >= L``. Two anchors tell the
causes apart:

- **Busy, not smaller.** A 429 when the category had used less than ``busy_share``
  (a tenth) of its learned level in the window (``admitted``: at a restart, nothing) says
  others filled the window, not that ``L`` is lower: a lower limit refuses a
  category that is *using* it (a raise waiting for its confirmation sends one
  attempt at a time: a 429 then fails it). The level is kept, the attempts already sent
  teach nothing more, and the category waits until the service's window holds
  nothing of now (one period, or the ``Retry-After`` if longer), then sends at
  the learned rate again (:meth:`LimitLearner.busy`): a restart right after
  another run used the window costs that window. The judgement is made at the first 429,
  and the answers to one burst arrive in any order: an admitted answer to an
  attempt sent before the pause began, arriving in it, says the window was not
  others' alone (a burst into a window others filled is refused whole), and the
  category is cut to what the window shows admitted, as for a lower limit
  (:meth:`LimitLearner.refutes_busy`). Refused again within two periods of the
  end of that wait, the others stay (or the limit is lower): the next rule.
- **A stopped run's tail.** A restart seconds after a run that was sending
  steadily at the limit finds the window partly full: its first attempts pass
  as the run's oldest slots leave it, the next are refused while its newest
  remain, and the window shows part of the level admitted, so the category is
  cut. That window empties within a period of the restart: a cut the process
  made in its first period (on its own reading of the window, not another's cut
  seen through the backend) probes after ``first_probe``, and a probe that holds
  goes back to the configured limits. A service that really admits less
  refuses the probe, which costs one 429 and no more probes than without it
  (the next one waits as after a failed first probe).
- **The remainder, and its give-back.** While others keep taking ``O``, a 429
  comes when this process fills what they leave: the window shows ``L - O``, and
  the cut lands on it, as for a lower limit (the two cannot be told apart while
  they last). The level cut from had held, so the gap is taken as lent, not
  lost: probes come every ``P`` to ``2 P`` periods (the pacing above), and when
  the others stop, the category is back at its full rate within ``2 P + 2``
  periods. The price is one 429 per probe while they stay, ``1 / (P r)`` of the
  traffic at most (5 %), ``1 / (2 P r)`` once the waits have doubled. The
  arrival costs the attempts in flight when it came (the lane keeps them to a
  round trip's worth: its docstring, "One round trip at a time") and one 429
  per decrease down to what they leave.

Processes sharing a backend are one user of the budget: their slots are in
``usage``, a cut or a probe by any of them is every one's (the backend keeps
the lowest cut and the highest probe). A process that cuts after another did,
on more answers than it had, raises the factor back to what it sees admitted; a
429 that teaches nothing leaves the factor as it is; and a 429 within a period
of another's probe fails that probe, back to the level it was raised from (the
process reads the factor in force before it cuts: its attempt may have been
granted just before the raise, which it has not seen). A first burst's cut is
read again a round trip later, once the attempts then in flight are answered
(another process cannot correct a cut it has not seen: :meth:`LimitLearner.correct`). They
probe one at a time rather than four times as often: a ramp upward begins only
with the backend's turn to probe (``claim_probe``), which lasts the wait that
follows a failed probe; a cut one of them sees made by another spaces its own
probes as a cut of its own would, and ends a ramp of its own (the next begins
with one request); and a probe one of them sees made by another
defers its own by an interval. (A process that sends little may never see
another's probe fail: the turn is what keeps it from probing again at once.)

Assumptions: the service counts one budget per key and category (a sliding log
or a bucket; refused requests may count), others are steady or gone (a process
that bursts now and then looks like a busy window, then like nothing), and this
process's slots are what it sent, released as admitted or not by its answers,
as ``_scheduler/_lane.py`` keeps them. Where a refused burst is dear (a
weighted rule, or a period of 10 s or more: imports), a category scouts after a
quiet period: its first attempt goes alone and the others wait for its answer,
so a restart into a busy window costs one 429, not a window's worth (the lane's
docstring, "Others on the key").

Bounds, for a service whose limit is a fixed ``L`` of the configured ``A``:
after the first cut the category admits ``L`` per window (``floor(A * f_obs)``),
between probes it sends at ``L``, and a probe costs one 429 per probe interval.
A token bucket with a burst makes the first ``f_obs`` an over- or
under-estimate; the next cut or probe corrects it. Nothing here can make a
request fail: a refused request waits for the learned rate (the docstring of
``_scheduler/_lane.py``, "429s").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from route_planning_async._backends import learned_amount, learned_rules
from route_planning_async._held_levels import HighestHeld
from route_planning_async._learning_policy import LearningPolicy
from route_planning_async._limits import Rule
from route_planning_async._long_windows import LongWindows

__all__ = ["LearningPolicy", "LimitLearner"]


class LimitLearner:
    """One category's learning: when to cut its rate factor, to what, and when to probe.

    Pure bookkeeping on clock readings; the scheduler applies the factors it
    answers through the backend and reports back the factor in force
    (:meth:`sync`), which another process sharing the backend may have changed.
    """

    def __init__(self, policy: LearningPolicy, rules: Sequence[Rule]) -> None:
        self.policy = policy
        self.rules = tuple(rules)
        self.period = max((rule.period for rule in rules), default=1.0)
        self._confirm = policy.confirm * self.period
        self._smallest = min((rule.amount for rule in rules), default=1)
        # The rules that count requests (the pacing's ``r``); a category of weights alone uses them.
        self._counted = tuple(rule for rule in rules if rule.per == "request") or self.rules
        self.unit = 1.0 / self._smallest
        """One request (of the smallest rule) as a share of the configured limits."""
        self.factor = 1.0
        """The rate factor in force, as last seen."""
        self._windows = LongWindows(self.rules)
        self.cuts = 0
        """Cuts made so far."""
        self._changed_at = -math.inf
        self._active_since: float | None = None
        self._last_cut_level: float | None = None
        self._interval = policy.first_probe
        self._next_probe_at = math.inf
        self._raised_at: float | None = None
        self._raised_from = 1.0
        self._proven: float | None = None
        self._refused_level: float | None = None
        self._step = 1
        self._highest = HighestHeld(policy.memory * self.period)
        self.busy_until = -math.inf
        """The end of the last busy pause (:meth:`busy`)."""
        self._busy_since = math.inf
        self._cut_at: float | None = None
        self._decreased_at = -math.inf
        self._probed_by_others: tuple[float, float] | None = None
        # The last cut came in the process's first period and no probe has told yet
        # whether it read a stopped run's slots (_space_probes).
        self._cut_may_be_a_tail = False
        self.busy_pauses = 0
        """Refusals read as a busy budget (others spent it) so far."""

    def sync(self, factor: float, now: float) -> None:
        """The backend's factor in force at ``now`` (another process may have changed it)."""
        if self._active_since is None:
            self._active_since = now
            self._changed_at = now
        if abs(factor - self.factor) > 1e-12:
            if factor < self.factor:
                # Another process's cut is this one's too: the wait before its next probe grows,
                # and a ramp of its own ends, as after a cut of its own. (Whether the level cut
                # from held, only the process that cut can tell: this one may not have sent.)
                self._space_probes(now, factor, own=False)
                # Its cut saw only the answers in by then: this process's admitted answers to
                # attempts sent before it may correct it (:meth:`correct`).
                self._cut_at, self._step = now, 1
                self._probed_by_others = None
            else:
                # Raised by another process (its probe, or its correction of a cut): a
                # 429 here within a period fails the raise (:meth:`cut`).
                self._probed_by_others = (self.factor, now)
            self.factor = factor
            self._changed_at = now
            if factor >= 1.0:
                self._next_probe_at = math.inf
                self._raised_at = None
            else:
                # Changed by another process sharing the backend (a cut, or its probe): it
                # learns for all; this one probes only if nobody has for a whole interval.
                self._raised_at = None
                self._next_probe_at = now + self._interval * self.period

    @property
    def tail_check(self) -> bool:
        """Whether the next probe checks a cut made in the process's first period (which may
        have read a stopped run's slots): one probe, a period after it."""
        return self._cut_may_be_a_tail

    @property
    def probing(self) -> bool:
        """Whether a raised level waits for its confirmation (a 429 now is a failed probe)."""
        return self._raised_at is not None

    def teaches(self, sent_at: float) -> bool:
        """Whether a 429 to an attempt sent at ``sent_at`` says anything new (sent after the last change)."""
        return sent_at >= self._changed_at

    def level_of(self, admitted: Sequence[int]) -> float:
        """The rate factor at which the rules admit ``admitted`` (per rule) in their windows."""
        return max(
            (count / rule.amount for count, rule in zip(admitted, self.rules, strict=True)), default=0.0
        )

    def busy(self, now: float, admitted: Sequence[int], pause: float) -> float | None:
        """After a 429 that :meth:`teaches`: the pause to keep if it says the budget is busy
        rather than smaller, else None (then :meth:`cut`).

        It is busy when the category had used less than ``busy_share`` of its learned level
        in the window (``admitted`` as for :meth:`cut`), unless it was refused so within
        two periods of the end of the last busy pause: the level stays, the attempts
        already sent teach nothing more, and the category waits for the window (a
        period) or the ``pause`` the 429 asked for, whichever is longer.
        """
        if self.level_of(admitted) >= self.policy.busy_share * self.factor or self._raised_at is not None:
            # Not little of the window was ours, or a raise waits for its confirmation (a 429
            # fails it: a raise sends one attempt at a time, so its window holds little of ours).
            return None
        if self._settling(now):
            # Refused again soon after a cut: the others are still arriving (cut again).
            return None
        if now < self.busy_until + 2 * self.period:
            # Refused again soon after a busy window: the others stay, or the limit is
            # lower; either way it is what the service admits now (cut).
            return None
        pause = max(pause, self.period)
        if now - self._changed_at >= self.period and self._raised_at is None:
            # The level had held: what others take of it now is lent, not lost (probes soon, if they stay).
            self._highest.held(self.factor, now)
        self._busy_since = now
        self.busy_until = now + pause
        # Nothing is sent in the pause; the level has to hold again after it.
        self._changed_at = now + pause
        self.busy_pauses += 1
        return pause

    def refutes_busy(self, sent_at: float, now: float) -> bool:
        """Whether an admitted answer to an attempt sent at ``sent_at`` says the last busy
        pause misread its 429: the attempt was sent before it, so the window was not others'
        alone (a burst into a window others filled is refused whole); then :meth:`cut`.

        The 429 that started the pause came before this answer: answers to one burst
        arrive in any order, and the answered count it was judged by missed this one.
        """
        if sent_at < self._busy_since <= now < self.busy_until:
            self._busy_since = math.inf
            self.busy_until = -math.inf
            return True
        return False

    def cut(self, now: float, admitted: Sequence[int], *, steady: bool = False, spare: bool = False) -> float:
        """The factor to cut to after a 429 that :meth:`teaches`, given what the service admitted
        in each rule's trailing period (``usage``); ``steady``: sending steadily (not in the first
        period after a quiet one), so a level that held is decreased rather than measured;
        ``spare``: the 429 ceiling has room for this 429 (``_scheduler/_ceiling.py``)."""
        if (
            self.factor < 1.0
            and self._raised_at is None
            and self._windows.refused_alone(admitted, self.factor)
        ):
            # Refused by a longer rule paced by the shorter ones (not during a raise, the likelier cause):
            # it keeps the factor's amount; the next probe waits P periods at least (_long_windows.py).
            self._next_probe_at = max(self._next_probe_at, now + self.pace(self.factor) * self.period)
            self._changed_at = now
            self.cuts += 1
            return self.factor
        policy = self.policy
        observed = self.level_of(admitted)
        level = min(self.factor, max(policy.floor, observed))
        paced = False  # a held level refused (below) is no failed probe: the next probe waits P periods
        if self._raised_at is not None and now - self._raised_at >= self.period + self._confirm:
            # The last raise held a whole period (the lane asks no more once at the configured
            # limits): this 429 is not its failure.
            self._raised_at = None
            if self.factor >= 1.0:
                # Back at the configured limits, and they held: cuts begin afresh.
                self._last_cut_level = None
        if self._raised_at is not None and self._proven is not None:
            # A failed probe: back to the level its ramp began from, which held a whole period.
            # That says more than the window's count now: answers still in flight are not in
            # it, and where others' share varies from window to window, the raised level may
            # have passed in one window and fail in the next.
            level = min(self._proven, self.factor - self.unit)
            self._refused_level = self.factor
        elif self._probed_by_others is not None and now - self._probed_by_others[1] < self.period:
            # A raise by another process failed here: back to the level it was raised
            # from at least (the window's count misses the answers still in flight).
            level = max(level, min(self._probed_by_others[0], self.factor - self.unit))
        elif steady and (self._held_before(now) or self._highest.lent(level, now)):
            # A level that held is refused ("Cut to what the service counted"): an arrival, or a
            # fall, is decreased, and decreased again while the others arrive (never below what
            # the window counted of ours); later, at a level a cut reached, a race for a freed slot.
            paced = True
            arriving = now - self._decreased_at < policy.settle * self.period
            if arriving or not self._highest.above(self.factor + 1e-9):
                kept = math.floor(self.factor * self._smallest * policy.decrease + 1e-9) / self._smallest
                kept = max(kept, observed) if arriving else kept
                level = max(policy.floor, min(self.factor - self.unit, kept))
                self._decreased_at = now
            elif spare and now - self._changed_at >= self.pace(self.factor) * self.period:
                # The race is lost now and then by a level that holds: kept, once per P periods.
                self._changed_at = now
                self._probed_by_others = None
                return self.factor
            else:
                level = max(policy.floor, self.factor - self.unit)
        self._probed_by_others = None
        if level > self.factor - self.unit / 2 and self._raised_at is None:
            # Refused at the level in force, no probe pending: that level itself is
            # too much now (the limit dropped by a request, or traffic near the limit
            # for long is penalized). One request less.
            level = max(policy.floor, self.factor - self.unit)
        # The level in force before this 429, if it held a whole period with no probe waiting
        # for its confirmation, is remembered (``HighestHeld``).
        self._held_before(now)
        self._space_probes(now, level, own=True)
        if paced:
            self._interval = self.pace(level)
        self._cut_at = now
        self._raised_at = None
        self._step = 1
        self.cuts += 1
        self.factor = level
        self._changed_at = now
        self._next_probe_at = now + self._interval * self.period if level < 1.0 else math.inf
        return level

    def probe_refused(self, now: float) -> float:
        """After a 429, while a raised level waits for its confirmation, to an attempt sent
        before the raise: the level below it was already all the service admits, so the
        raised one cannot hold. The factor to go back to (the one raised from); the next
        probe waits as after a cut.

        Such an answer teaches nothing about the raised level itself (:meth:`teaches`),
        but confirming the raise by the answers that pass would go on raising into a
        full window, and pay a whole burst of 429s for it.
        """
        level = self._raised_from
        self._interval = self._longer_interval(now, level)
        self._raised_at = None
        self._step = 1
        self.factor = level
        self._changed_at = now
        self._next_probe_at = now + self._interval * self.period
        return level

    def _space_probes(self, now: float, level: float, *, own: bool) -> None:
        """A cut to ``level`` (``own``: made on this process's reading of the window, not
        another's seen through the backend): the wait before the next probe."""
        policy = self.policy
        if self._last_cut_level is not None:
            # Every further cut: probe less often (each failed probe costs a 429).
            self._interval = self._longer_interval(now, level)
        elif self._highest.level is not None:
            # A level that held is lent, not lost: probe as soon as the pacing allows.
            self._interval = self.pace(level)
        elif own and self._active_since is not None and now - self._active_since < self.period:
            # Cut in this process's first period: the window may have held a stopped
            # run's tail, gone a period later. One probe then tells.
            self._interval = policy.first_probe
            self._cut_may_be_a_tail = True
        else:
            self._interval = max(policy.first_probe_unproven, self.pace(level))
        self._last_cut_level = level

    def _longer_interval(self, now: float, level: float) -> float:
        """The wait before the next probe after another cut, or a failed probe."""
        interval = self._interval_after_failure(now, level)
        self._cut_may_be_a_tail = False
        return interval

    def _interval_after_failure(self, now: float, level: float) -> float:
        """The wait before the next probe if the one in force now fails."""
        if self._cut_may_be_a_tail:
            # Refused after a first period's cut: there was no stopped run's tail, and this
            # early probe took the place of the first one (first_probe_unproven), which
            # would have been followed by twice its wait.
            return min(2 * self.policy.first_probe_unproven, self._probe_cap(now, level))
        # At most twice the last wait, to a cap (a level that held a while ago keeps it short:
        # _probe_cap), and never more often than the pacing allows.
        return max(self.pace(level), min(self._interval * 2, self._probe_cap(now, level)))

    def _settling(self, now: float) -> bool:
        """Whether the last cut came within ``settle`` periods ("The algorithm", its first rule)."""
        return self._cut_at is not None and now - self._cut_at < self.policy.settle * self.period

    def corrects(self, sent_at: float) -> bool:
        """Whether an admitted answer to an attempt sent at ``sent_at`` may correct the last
        cut: it was sent before the cut (which left it out: it was in flight, maybe refused yet)."""
        return self._cut_at is not None and sent_at < self._cut_at

    def correct(self, now: float, admitted: Sequence[int]) -> float | None:
        """After such an answer, within a period of the cut: the level the window now shows
        admitted, if the cut went below it (the cut never stays below what passed), else None."""
        cut_at = self._cut_at
        if cut_at is None or now - cut_at >= self.period or self._raised_at is not None:
            return None
        level = min(1.0, self.level_of(admitted))
        if level <= self.factor + self.unit / 2:
            return None
        self.factor = level
        self._last_cut_level = level
        return level

    def _probe_cap(self, now: float, level: float) -> float:
        """The longest wait between probes at ``level``."""
        policy = self.policy
        if self._highest.above(level):
            # A higher level held: others hold the rest (or the limit dropped for a while),
            # however long ago. Probe often enough to take it back within 2 P (and a ramp) once
            # it is free; the pacing keeps the failed probes' 429s within its share meanwhile.
            return 2 * self.pace(level)
        return max(policy.max_probe_interval, 2 * self.pace(level))

    def _held_before(self, now: float) -> bool:
        """Whether the level in force held a whole period, with no probe waiting for its
        confirmation (then it is remembered: ``HighestHeld``)."""
        held = now - self._changed_at >= self.period and self._raised_at is None
        if held:
            self._highest.held(self.factor, now)
        return held

    def pace(self, level: float) -> float:
        """``P`` at ``level`` (:meth:`LearningPolicy.pace`; ``r`` over the longest period)."""
        return self.policy.pace(
            min(learned_amount(rule.amount, level) * self.period / rule.period for rule in self._counted)
        )

    def per_second(self, level: float) -> float:
        """The requests a second the rules of requests admit at ``level`` (the fastest)."""
        return max(learned_amount(rule.amount, level) / rule.period for rule in self._counted)

    def ramp_due(self, now: float) -> bool:
        """Whether :meth:`probe` would begin a ramp upward now (the shared backend's turn
        is claimed first: :meth:`defer_probe`)."""
        return self.factor < 1.0 and self._raised_at is None and now >= self._next_probe_at

    def probe_turn(self, now: float) -> float:
        """Seconds before anybody sharing the backend may probe after a probe begun at ``now``:
        ``recent_probe_interval`` periods; the wait after its failure if it checks a first period's cut."""
        if self._cut_may_be_a_tail:
            return self._interval_after_failure(now, self.factor) * self.period
        return self.policy.recent_probe_interval * self.period

    def defer_probe(self, until: float) -> None:
        """Another process sharing the backend has the turn to probe, and its probe asks for all
        (a first period's cut's too): wait for the turn's end and an interval (a raise comes first)."""
        if self._cut_may_be_a_tail:
            self._interval = self._longer_interval(until, self.factor)
        self._next_probe_at = max(self._next_probe_at, until + self._interval * self.period)

    def probe(self, now: float, sent_at: float) -> float | None:
        """After an answer that is not a 429, to an attempt sent at ``sent_at``: the
        factor to raise to, or None to stay."""
        if self._raised_at is not None:
            # Confirmed by an answer to an attempt sent at the raised level, once the level
            # has held a whole period (where others' share varies from window to window, a
            # level may pass in part of one), or ``confirm`` of one after a first period's cut.
            wait = self._confirm if self._cut_may_be_a_tail else self.period
            if self._step == 1 and not self._cut_may_be_a_tail:
                # A ramp's first step: a level that passed one period by luck is no proof.
                wait = self.policy.first_step * self.period
            if sent_at < self._raised_at or now - self._raised_at < wait:
                return None
            if self.factor >= 1.0:
                # The configured limits held: nothing is left to probe.
                self._raised_at = None
                return None
            # The raised level held: a larger step, or, after a first period's cut, the
            # configured limits (the cut was a stopped run's tail); at a level a probe was
            # refused at, the highest that held (module docstring, "Probe back up").
            self._step = self._smallest if self._cut_may_be_a_tail else self._step * 2
            refused, top = self._refused_level, self._highest
            if refused is not None and self.factor > refused - self.unit / 2 and top.lent(self.factor, now):
                assert top.level is not None
                self._refused_level = None
                jump = learned_amount(self._smallest, top.level) - learned_amount(self._smallest, self.factor)
                self._step = max(self._step, jump)
            if not self._cut_may_be_a_tail or now - self._raised_at >= self.policy.first_step * self.period:
                # Held as a ramp's first step must: a jump from it that fails comes back to it.
                self._proven = self.factor
            self._cut_may_be_a_tail = False
        elif self.factor >= 1.0 or now < self._next_probe_at:
            return None
        else:
            # A ramp begins: the level it starts from held a whole period, or nothing is proven.
            # (After a first period's cut, the level cut to is what the service admitted.)
            held = now - self._changed_at >= self.period or self._cut_may_be_a_tail
            self._proven = self.factor if held else None
        # Whole requests of the smallest rule: from n admitted per period to n + step.
        admitted = learned_amount(self._smallest, self.factor)
        target = min(1.0, (admitted + self._step) / self._smallest)
        self._raised_from = self.factor
        self._raised_at = now
        self.factor = target
        self._changed_at = now
        if target >= 1.0:
            self._next_probe_at = math.inf
        return target

    def learned(self) -> tuple[Rule, ...]:
        """The rules with their learned amounts."""
        return learned_rules(self.acquire_rules(self.factor), self.factor)

    def acquire_rules(self, factor: float) -> tuple[Rule, ...]:
        """The rules to ask the backend with at ``factor`` (``_long_windows.py``)."""
        return self._windows.rules_at(factor)
