"""How a scenario is judged: the bars (issue 51's "Bars"), the 429 ceiling, and the search for the
best fixed-rate program in hindsight.

Everything here is pure: the runs are measured elsewhere (``_run.py``) and handed in as
lists of attempts, each an :class:`Attempt` (when it was sent, in periods from the start of the
run, and what came back).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, Literal, TypeVar

import attrs

__all__ = ["BARS", "Attempt", "Bars", "Confirmed", "Searched", "ceiling_breaches", "confirm", "search"]

Outcome = Literal["ok", "refused", "storm", "error"]
"""``ok`` admitted (2xx), ``refused`` a 429 of the limits (or the lockout), ``storm`` a 429 the
service injected (its own storm), ``error`` anything else (another status, no answer)."""


@attrs.frozen
class Attempt:
    """One attempt a program sent: when (periods from the start of the run) and what came back."""

    at: float
    outcome: Outcome


@attrs.frozen
class Bars:
    """The bars a scenario is held to, in one place (issue 51, "Bars")."""

    refused_share: float = 0.05
    """Every program: 429s at most this share of its attempts over the run..."""
    few_attempts: int = 60
    """...or, in a run of fewer attempts than this..."""
    few_refused: int = 3
    """...at most this many."""
    window_periods: int = 10
    """And never more than ``window_refused`` 429s in any this many periods."""
    window_refused: int = 3
    beside_neighbour: float = 0.90
    """A program beside any neighbour admits at least this share of what the best fixed-rate
    program admits in the same scenario."""
    copies_together: float = 0.90
    """k copies together admit at least this share of what k fixed-rate programs admit at the best
    common rate..."""
    copy_share: float = 0.70
    """...and each copy at least this share of an equal share (its fixed-rate counterpart's)."""
    first_contact_refused: int = 3
    """At most this many 429s in the first ``first_contact_periods`` at any real limit."""
    first_contact_periods: int = 10
    first_period_use: float = 0.90
    """At the configured limit, on a link whose round trip is under a tenth of a period, at least
    this share of the first period used."""
    storm_level: float = 0.90
    """After the service's storm, back at this share of what is left..."""
    storm_periods: int = 20
    """...within this many periods of the storm's last 429."""


BARS = Bars()


def ceiling_breaches(attempts: Sequence[Attempt], bars: Bars = BARS) -> list[str]:
    """What breaks the 429 ceiling in one program's run (empty when it holds); storms aside."""
    refused = sorted(a.at for a in attempts if a.outcome == "refused")
    sent = sum(1 for a in attempts if a.outcome != "storm")
    out: list[str] = []
    if sent < bars.few_attempts:
        if len(refused) > bars.few_refused:
            out.append(f"{len(refused)} 429s in {sent} attempts (at most {bars.few_refused})")
    elif len(refused) > bars.refused_share * sent:
        out.append(f"{len(refused) / sent:.1%} 429s (at most {bars.refused_share:.0%})")
    worst = most_in_window(refused, bars.window_periods)
    if worst > bars.window_refused:
        out.append(f"{worst} 429s in {bars.window_periods} periods (at most {bars.window_refused})")
    return out


def most_in_window(times: Sequence[float], width: float) -> int:
    """The most of ``times`` (sorted) in any half-open window ``[t, t + width)``."""
    best, first = 0, 0
    for last, t in enumerate(times):
        while times[first] <= t - width:
            first += 1
        best = max(best, last - first + 1)
    return best


T = TypeVar("T")


@attrs.frozen
class Searched(Generic[T]):
    """The search's answer: the highest rate that passed (0 when none did), its run, and every run."""

    rate: float
    best: T | None
    tried: tuple[tuple[float, T], ...]


async def search(
    evaluate: Callable[[list[float]], Awaitable[list[T]]],
    passed: Callable[[T], bool],
    high: float,
    *,
    rounds: int = 3,
    width: int = 3,
) -> Searched[T]:
    """The highest rate in ``(0, high]`` whose run ``passed``, by a search over rates.

    Each round runs ``width`` rates at once (``evaluate`` gets the list, returns their runs in
    order), evenly spaced in the bracket ``(pass, fail]``: the first round from 0 up to and
    including ``high``, the next ones strictly inside. The bracket becomes the highest passing
    rate and the first failing one above it; with ``width=1`` this is bisection. After ``rounds``
    rounds the bracket is at most ``high / (width * (width + 1) ** (rounds - 1))`` wide. Refusals
    grow with the rate, but a run can be noisy: a rate that fails above one that passed ends the
    bracket there; rates above it are not believed.
    """
    if not high > 0:
        raise ValueError(f"high must be positive, got {high!r}")
    if rounds < 1 or width < 1:
        raise ValueError("rounds and width must be at least 1")
    low, top, top_tried = 0.0, high, False
    best: T | None = None
    tried: list[tuple[float, T]] = []
    for _ in range(rounds):
        if top_tried:
            rates = [low + (top - low) * (i + 1) / (width + 1) for i in range(width)]
        else:
            rates = [low + (top - low) * (i + 1) / width for i in range(width)]
        runs = await evaluate(rates)
        tried.extend(zip(rates, runs, strict=True))
        for rate, run in zip(rates, runs, strict=True):
            if passed(run):
                low, best = rate, run
            else:
                top, top_tried = rate, True
                break
        else:
            if not top_tried:
                return Searched(low, best, tuple(tried))  # ``high`` itself passed
    return Searched(low, best, tuple(tried))


@attrs.frozen
class Confirmed(Generic[T]):
    """The bound: the first candidate whose rate passed again on a fresh draw (:func:`confirm`)."""

    rate: float
    """The bound's rate (0 when there was no candidate)."""
    best: T | None
    """The candidate's run in the search (None when there was no candidate)."""
    confirmed: bool
    """Whether a rerun confirmed it (False: no candidate's rerun passed; the first candidate
    stands, unconfirmed)."""
    reruns: tuple[tuple[float, T], ...]
    """Every rerun, in order."""


async def confirm(
    evaluate: Callable[[list[float]], Awaitable[list[T]]],
    passed: Callable[[T], bool],
    candidates: Sequence[tuple[float, T]],
) -> Confirmed[T]:
    """The first of ``candidates`` (rates and their runs in the search, best first) whose rate
    passes once more, run alone on a fresh draw (``evaluate`` gets ``[rate]``).

    A rate that passed once may have passed by the draw: a plain program sending evenly at the
    bound's rate, run again in the same scenario on another key (other link delays, the machine's
    other timing), breaks the 429 ceiling in some seeds where its first run kept within it. A bound
    no program without hindsight can repeat is not one; a rate that passes twice is. The bound's
    figures stay the search's run at that rate. When no rerun passes, the first candidate stands,
    unconfirmed.
    """
    reruns: list[tuple[float, T]] = []
    for rate, run in candidates:
        (again,) = await evaluate([rate])
        reruns.append((rate, again))
        if passed(again):
            return Confirmed(rate, run, True, tuple(reruns))
    if not candidates:
        return Confirmed(0.0, None, False, ())
    rate, run = candidates[0]
    return Confirmed(rate, run, False, tuple(reruns))
