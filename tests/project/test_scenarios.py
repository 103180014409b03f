"""The scenario benchmark's pieces: the seeded generator, the 429 ceiling, the search over rates, and
one real run over sockets (``python -m benchmarks scenarios``)."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks._scenario._judge import BARS, Attempt, ceiling_breaches, most_in_window, search
from benchmarks._scenario._scenarios import AMOUNT, FAMILIES, NEIGHBOUR_FAMILIES, draw, percentile, seeds


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_and_a_seed_give_the_same_scenario(family: str) -> None:
    assert draw(family, 7) == draw(family, 7)
    assert len({draw(family, seed) for seed in range(5)}) == 5


def test_the_families_draw_what_they_say() -> None:
    for seed in range(20):
        for family in NEIGHBOUR_FAMILIES:
            scenario = draw(family, seed)
            (neighbour,) = scenario.neighbours
            assert neighbour.kind == family
            assert list(neighbour.times) == sorted(neighbour.times)
            assert neighbour.times[0] >= 0
            assert neighbour.times[-1] < scenario.periods
            # A neighbour alone stays clear of the limit in every period.
            assert most_in_window(neighbour.times, 1.0) <= 0.8 * AMOUNT
        copies = draw("copies", seed).copies
        assert 2 <= len(copies) <= 4
        assert all(0 <= c.arrive < c.leave <= draw("copies", seed).periods for c in copies)
        assert 1 <= draw("limits", seed).amount <= AMOUNT
        assert draw("storm", seed).storm_at is not None
        link = draw("jitter", seed).link
        assert 0.001 <= link.delay <= 0.010
        assert 0 <= link.jitter <= 0.020
    # Some copies arrive late and some leave early.
    copies = [c for seed in range(20) for c in draw("copies", seed).copies]
    assert any(c.arrive > 0 for c in copies)
    assert any(c.leave < draw("copies", 0).periods for c in copies)
    with pytest.raises(ValueError, match="unknown family"):
        draw("nope", 0)


def test_seeds_and_percentiles() -> None:
    assert seeds("0-3,7") == [0, 1, 2, 3, 7]
    assert percentile([float(v) for v in range(40, 0, -1)], 0.1) == 4.0


def test_the_ceiling() -> None:
    ok = [Attempt(i / 10, "ok") for i in range(400)]
    assert ceiling_breaches(ok) == []
    # 4 refusals spread over the run: within 5 % and never 4 in 10 periods.
    spread = ok + [Attempt(t, "refused") for t in (1.0, 12.0, 23.0, 34.0)]
    assert ceiling_breaches(spread) == []
    # The same 4 within 10 periods break it.
    bunched = ok + [Attempt(t, "refused") for t in (1.0, 3.0, 5.0, 10.9)]
    assert ceiling_breaches(bunched) == ["4 429s in 10 periods (at most 3)"]
    # The service's storm is not counted.
    assert ceiling_breaches(ok + [Attempt(5.0, "storm")] * 25) == []
    # Under 60 attempts: at most 3 refusals.
    few = [Attempt(i, "ok") for i in range(40)] + [Attempt(t, "refused") for t in (0.0, 15.0, 30.0, 39.0)]
    assert ceiling_breaches(few) == ["4 429s in 44 attempts (at most 3)"]
    many = [Attempt(i / 20, "ok") for i in range(760)] + [Attempt(t * 10.0, "refused") for t in range(4)] * 12
    assert any("429s (at most 5%)" in text for text in ceiling_breaches(many))
    assert BARS.window_refused == 3


def _judge(threshold: float, calls: list[list[float]]):  # type: ignore[no-untyped-def]
    async def evaluate(rates: list[float]) -> list[float]:
        calls.append(rates)
        return rates

    return evaluate, (lambda rate: rate <= threshold)


@pytest.mark.parametrize("width", [1, 3])
@pytest.mark.parametrize("threshold", [0.4, 3.1, 6.3, 9.99])
def test_the_search_finds_the_highest_rate_that_passes(width: int, threshold: float) -> None:
    calls: list[list[float]] = []
    evaluate, passed = _judge(threshold, calls)
    rounds = 6 if width == 1 else 3
    found = asyncio.run(search(evaluate, passed, 10.0, rounds=rounds, width=width))
    assert found.rate <= threshold
    assert threshold - found.rate <= 10.0 / (width * (width + 1) ** (rounds - 1)) + 1e-9
    assert found.best == found.rate
    assert [len(rates) for rates in calls] == [width] * rounds
    assert {rate for rate, _ in found.tried} == {rate for rates in calls for rate in rates}


def test_the_search_stops_when_the_top_passes_and_answers_zero_when_nothing_does() -> None:
    calls: list[list[float]] = []
    evaluate, passed = _judge(20.0, calls)
    found = asyncio.run(search(evaluate, passed, 10.0, rounds=3, width=3))
    assert (found.rate, len(calls)) == (10.0, 1)
    evaluate, passed = _judge(0.0, calls)
    nothing = asyncio.run(search(evaluate, passed, 10.0, rounds=3, width=3))
    assert (nothing.rate, nothing.best) == (0.0, None)


def test_a_noisy_failure_ends_the_bracket_below_later_passes() -> None:
    async def evaluate(rates: list[float]) -> list[float]:
        return rates

    # 5 fails (noise), 7.5 passes: the search does not believe 7.5.
    found = asyncio.run(search(evaluate, lambda rate: rate != 5.0, 10.0, rounds=1, width=4))
    assert found.rate == 2.5


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_storm_scenario_over_real_sockets() -> None:
    """About 13 seconds: the library's arm and 9 fixed-rate arms of 4 seconds, 4 at a time."""
    from benchmarks._scenario._run import STORM, run_scenario
    from benchmarks._scenario._scenarios import AMOUNT

    run = asyncio.run(run_scenario(draw("storm", 0)))
    library = run["library"]["copy-0"]
    # The service's storm (STORM / AMOUNT periods of 429s) reaches the library's program and the
    # fixed-rate one: sending evenly at r a period, it meets about r * STORM / AMOUNT of them (a
    # send the loaded machine held up is skipped, never sent late).
    assert library["storm"] >= 1
    assert 1 <= run["fixed"]["copy-0"]["storm"] <= run["fixed_rate"] * STORM / AMOUNT + 2
    assert library["attempts"] == sum(library[k] for k in ("admitted", "refused", "storm", "errors"))
    assert len(run["tried"]) == 9
    assert run["fixed_rate"] > 0
    assert set(run["verdict"]) >= {"ratio", "misses", "passed"}
