"""The scenario benchmark's pieces: the seeded generator, the 429 ceiling, the search over rates, and
real runs over sockets (``python -m benchmarks scenarios``), with a new bound or the recorded one."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any

import pytest

from benchmarks._scenario._judge import BARS, Attempt, ceiling_breaches, confirm, most_in_window, search
from benchmarks._scenario._report import PHASES
from benchmarks._scenario._run import RECORDED, run_scenario
from benchmarks._scenario._scenarios import AMOUNT, FAMILIES, NEIGHBOUR_FAMILIES, draw, percentile, seeds
from benchmarks.bench_scenarios import compare, main, summary


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
    every_copy = [c for seed in range(20) for c in draw("copies", seed).copies]
    assert any(c.arrive > 0 for c in every_copy)
    assert any(c.leave < draw("copies", 0).periods for c in every_copy)
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


def _reruns(repeats: dict[float, bool], calls: list[list[float]]) -> Any:
    """An ``evaluate`` whose rerun of each rate passes or fails as ``repeats`` says."""

    async def evaluate(rates: list[float]) -> list[str]:
        calls.append(rates)
        return ["again" if repeats[rate] else "refused" for rate in rates]

    return evaluate


def _repeated(run: str) -> bool:
    return run != "refused"


def test_the_bound_is_the_first_candidate_that_passes_again() -> None:
    # The search's runs (here: their names) best first; 7.5's rerun fails, 7.0's passes: 7.0 is
    # the bound, with its run from the search, and 6.0 is not run again.
    calls: list[list[float]] = []
    evaluate = _reruns({7.5: False, 7.0: True, 6.0: True}, calls)
    found = asyncio.run(confirm(evaluate, _repeated, [(7.5, "a"), (7.0, "b"), (6.0, "c")]))
    assert (found.rate, found.best, found.confirmed) == (7.0, "b", True)
    assert calls == [[7.5], [7.0]]
    assert found.reruns == ((7.5, "refused"), (7.0, "again"))


def test_a_bound_no_rerun_repeats_stands_unconfirmed_and_no_candidate_is_none() -> None:
    calls: list[list[float]] = []
    evaluate = _reruns({7.5: False, 7.0: False}, calls)
    found = asyncio.run(confirm(evaluate, _repeated, [(7.5, "a"), (7.0, "b")]))
    assert (found.rate, found.best, found.confirmed) == (7.5, "a", False)
    assert calls == [[7.5], [7.0]]
    nothing = asyncio.run(confirm(evaluate, _repeated, []))
    assert (nothing.rate, nothing.best, nothing.confirmed, nothing.reruns) == (0.0, None, False, ())


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_storm_scenario_over_real_sockets() -> None:
    """About 13 seconds: the library's arm and 9 fixed-rate arms of 4 seconds, 4 at a time."""
    from benchmarks._scenario._run import STORM
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
    # The bound's rate passed in the search and once more (or no rerun repeated one: the
    # search's best stands); the rerun rates are the search's passing ones.
    passing = {rate for rate, passed in run["tried"] if passed}
    assert run["reruns"]
    assert {rate for rate, _ in run["reruns"]} <= passing
    assert run["confirmed"] == run["reruns"][-1][1]
    if run["confirmed"]:
        assert run["fixed_rate"] == run["reruns"][-1][0]
    assert set(run["verdict"]) >= {"ratio", "misses", "passed"}


def _recorded(family: str, seed: int) -> dict[str, Any]:
    """The committed record's run of ``family``/``seed`` (``benchmarks/scenarios.json``)."""
    record = json.loads((Path(__file__).parents[2] / "benchmarks" / "scenarios.json").read_text())
    run: dict[str, Any] = next(
        run for run in record["runs"] if (run["family"], run["seed"]) == (family, seed)
    )
    return run


def _run_of(
    family: str,
    seed: int,
    ratio: float,
    refused: int,
    attempts: int,
    passed: bool,
    first: int = 10,
    breaches: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A run whose fixed-rate program admitted 10 a period in the first two periods, 100 later;
    the library's, ``first`` and then ``ratio`` times as many."""
    later = PHASES[-1][1] - 2
    return {
        "family": family,
        "seed": seed,
        "library": {
            "neighbour-0": {"refused": 9, "attempts": 10, "storm": 0},
            "copy-0": {
                "refused": refused,
                "attempts": attempts,
                "storm": 0,
                "admitted_per_period": [first] * 2 + [round(ratio * 100)] * later,
                "breaches": list(breaches),
            },
        },
        "fixed": {"copy-0": {"admitted_per_period": [10] * 2 + [100] * later}},
        "verdict": {"ratio": ratio, "passed": passed},
    }


def test_a_family_s_summary_gives_its_worst_runs() -> None:
    # Ten runs of ratio 0.50, 0.55, ... 0.95: the 10th percentile of ten is the lowest (nearest
    # rank); the neighbour's 429s (90 %) are not the library's.
    runs = [_run_of("jitter", i, 0.5 + 0.05 * i, i, 100, i >= 8) for i in range(10)]
    assert summary(runs) == (
        "jitter: 2 of 10 passed | ratio worst 0.50, 10th percentile 0.50, mean 0.725 | worst 429 share 9.0%"
    )


def test_a_run_against_the_record_is_compared_with_it_seed_by_seed() -> None:
    # Four seeds, now 0.10 above, 0.10 above, level and 0.20 above what was recorded: differences
    # of mean 0.10 and standard deviation 0.0816 (standard error 0.0408); one run passed then,
    # all four now. By phase: the first contact 5 of 10 a period then, 10 now; later 330 of 400
    # then (the ratios' mean), 370 now.
    before = [
        _run_of("steady", i, ratio, 0, 100, ratio >= 0.9, first=5)
        for i, ratio in enumerate((0.8, 0.85, 0.95, 0.7))
    ]
    now = [
        _run_of("steady", i, ratio, 0, 100, ratio >= 0.9) for i, ratio in enumerate((0.9, 0.95, 0.95, 0.9))
    ]
    recorded = {(run["family"], run["seed"]): run for run in before}
    assert summary(now, recorded) == (
        "steady: 4 of 4 passed | ratio worst 0.90, 10th percentile 0.90, mean 0.925 | worst 429 share 0.0%"
        " | against the record, seed by seed: ratio +0.100 (standard error 0.041), passed 1 then, 4 now"
        " | by phase (periods 0-1, 2-9, 10-19, 20-39): 1.000 0.925 0.925 0.925 now,"
        " 0.500 0.825 0.825 0.825 then"
    )


def _saved(
    tmp_path: Path, name: str, runs: list[dict[str, Any]], made: list[dict[str, Any]] | None = None
) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"runs": runs, "made": made or []}))
    return path


def test_two_saved_runs_are_compared_seed_by_seed_family_by_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Steady: the ratios' differences as in the test above (+0.100, standard error 0.041), one
    # run passed before and four after, one of them over a 429 bar; the library's 429s 1 + 2 + 3
    # + 4 before, 0 + 1 + 2 + 3 after. Storm: one seed, level. Jitter/9, saved after only, is
    # not compared. The runs after are saved in another order: they are paired by scenario.
    before = [
        _run_of("steady", i, ratio, i + 1, 100, ratio >= 0.9)
        for i, ratio in enumerate((0.8, 0.85, 0.95, 0.7))
    ]
    before.append(_run_of("storm", 0, 0.93, 0, 100, True))
    after = [
        _run_of("steady", i, ratio, i, 100, True, breaches=("4 429s in 10 periods (at most 3)",) * (i == 2))
        for i, ratio in enumerate((0.9, 0.95, 0.95, 0.9))
    ]
    after += [_run_of("jitter", 9, 0.5, 0, 100, False), _run_of("storm", 0, 0.93, 0, 100, True)]
    after.reverse()
    lines = [
        "steady (4 scenarios): passed 1 -> 4 | mean ratio 0.825 -> 0.925, seed by seed +0.100 (standard "
        "error 0.041) | runs over a 429 bar 0 -> 1 | the library's 429s 10 -> 6 | worst ratio 0.70 -> 0.90",
        "storm (1 scenario): passed 1 -> 1 | mean ratio 0.930 -> 0.930, seed by seed +0.000 (one seed: "
        "no standard error) | runs over a 429 bar 0 -> 0 | the library's 429s 0 -> 0 | worst ratio "
        "0.93 -> 0.93",
        "all (5 scenarios): passed 2 -> 5 | mean ratio 0.846 -> 0.926, seed by seed +0.080 (standard "
        "error 0.037) | runs over a 429 bar 0 -> 1 | the library's 429s 10 -> 6 | worst ratio 0.70 -> 0.90",
    ]
    assert compare(before, after) == lines
    # The same from the command line, from two saved files, each named with how it was made.
    made = [
        {"command": "python -m benchmarks scenarios --out a.json", "commit": "abc1234-dirty", "date": "d"}
    ]
    a, b = _saved(tmp_path, "a.json", before, made), _saved(tmp_path, "b.json", after)
    assert main(["--compare", str(a), str(b)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"before: {a}: python -m benchmarks scenarios --out a.json at abc1234-dirty, d",
        *lines,
    ]
    # --family and --seeds narrow the comparison.
    assert main(["--compare", str(a), str(b), "--family", "steady", "--seeds", "1-2"]) == 0
    assert [text.split(":")[0] for text in capsys.readouterr().out.splitlines()[1:]] == [
        "steady (2 scenarios)"
    ]
    # Nothing in common, a file that is not a saved run, or runs asked for too: a clear error.
    jitter = _saved(tmp_path, "jitter.json", after[1:2])
    unknown = _saved(tmp_path, "unknown.json", [{**after[0], "family": "hail"}])
    no_verdict = _saved(tmp_path, "no-verdict.json", [{**after[0], "verdict": {"ratio": 1.0}}])
    not_json = tmp_path / "not.json"
    not_json.write_text("runs: none")
    for argv, error in (
        (["--compare", str(jitter), str(a)], "have no scenario in common"),
        (["--compare", str(jitter), str(tmp_path / "nothing.json")], "nothing.json is not a saved run"),
        (["--compare", str(jitter), str(not_json)], "not.json is not a saved run: not JSON"),
        (["--compare", str(jitter), str(unknown)], "run 0 is of an unknown family 'hail'"),
        (["--compare", str(jitter), str(no_verdict)], "run 0 (storm/0) has no verdict's ratio and passed"),
        (["--compare", str(jitter), str(jitter), "--against-record"], "--compare runs nothing"),
        (["--report", "--out", str(tmp_path / "d.json")], "--report alone runs nothing for --out to save"),
        (["--family", "storm", "--seeds", "0", "--trace", "--out", str(tmp_path / "t.json")], "not recorded"),
        (["--family", "storm", "--out", str(tmp_path / "no" / "e.json")], "no folder"),
    ):
        with pytest.raises(SystemExit) as exit:
            main(argv)
        assert exit.value.code == 2
        assert error in capsys.readouterr().err


def test_out_saves_the_runs_made_even_when_one_of_them_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import concurrent.futures

    from benchmarks import bench_scenarios

    recorded = _recorded("storm", 0)

    def one(family: str, seed: int, *args: object) -> dict[str, Any]:
        if seed == 2:
            raise RuntimeError("the emulator fell over")
        return {**recorded, "seed": seed}

    # The scenarios run in threads of this process, each answered by the recorded run of storm/0.
    monkeypatch.setattr(bench_scenarios, "_one", one)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", concurrent.futures.ThreadPoolExecutor)
    out = tmp_path / "runs.json"
    assert main(["--family", "storm", "--seeds", "1,0", "--jobs", "1", "--out", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert [(run["family"], run["seed"]) for run in saved["runs"]] == [("storm", 0), ("storm", 1)]
    assert saved["made"][0]["scenarios"] == 2
    assert saved["made"][0]["command"].endswith(f"--out {out}")
    capsys.readouterr()
    # A scenario that fails ends the command, and the runs made before it are saved.
    with pytest.raises(RuntimeError, match="fell over"):
        main(["--family", "storm", "--seeds", "0-2", "--jobs", "1", "--out", str(out)])
    assert [run["seed"] for run in json.loads(out.read_text())["runs"]] == [0, 1]


def test_a_recorded_bound_must_be_the_scenario_s_own() -> None:
    recorded = _run_of("storm", 1, 1.0, 0, 10, True)
    with pytest.raises(ValueError, match="the recorded run is storm/1, not the scenario storm/0"):
        asyncio.run(run_scenario(draw("storm", 0), bound=recorded))


def test_runs_against_the_record_are_not_recorded_and_need_their_scenario_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "scenarios.json"
    record.write_text(json.dumps({"runs": [_run_of("storm", 0, 1.0, 0, 10, True)], "made": []}))
    for argv, error in (
        (["--against-record", "--record"], "--against-record runs are judged against the record"),
        (["--against-record", "--report"], "--against-record runs are judged against the record"),
        (["--family", "storm", "--seeds", "0-2", "--against-record"], "holds no run of storm/1, storm/2"),
        (["--family", "storm", "--seeds", "0", "--at-bound"], "give --against-record"),
        (
            ["--family", "storm", "--seeds", "0", "--against-record", "--after-first-contact"],
            "give --at-bound",
        ),
    ):
        with pytest.raises(SystemExit) as exit:
            main([*argv, "--record-file", str(record)])
        assert exit.value.code == 2
        assert error in capsys.readouterr().err
    assert json.loads(record.read_text())["runs"] == [_run_of("storm", 0, 1.0, 0, 10, True)]


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_library_arm_judged_against_the_recorded_bound() -> None:
    """About 4 seconds: the library's arm alone, the search's figures taken from the record."""
    recorded = _recorded("storm", 0)
    run = asyncio.run(run_scenario(draw("storm", 0), bound=recorded))
    assert run["bound"] == "recorded"
    for key in RECORDED:
        assert run.get(key) == recorded.get(key)
    library = run["library"]["copy-0"]
    assert library["storm"] >= 1
    assert run["verdict"]["bound"] == recorded["fixed"]["copy-0"]["admitted"]
    assert run["verdict"]["ratio"] == round(library["admitted"] / recorded["fixed"]["copy-0"]["admitted"], 4)


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_library_arm_configured_at_the_recorded_bound() -> None:
    """About 4 seconds: steady/0's library arm configured at the bound's rate rounded up, learning
    nothing."""
    recorded = _recorded("steady", 0)
    with pytest.raises(ValueError, match="at_bound needs the recorded bound"):
        asyncio.run(run_scenario(draw("steady", 0), at_bound=True))
    run = asyncio.run(run_scenario(draw("steady", 0), bound=recorded, at_bound=True))
    level = math.ceil(recorded["fixed_rate"])
    assert level < AMOUNT
    assert run["configured_at"] == level
    # Never more than the configured level in a period: the client kept to it, learning nothing.
    assert max(run["library"]["copy-0"]["admitted_per_period"]) <= level
    assert "configured_at" not in recorded


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_library_arm_at_the_recorded_bound_after_its_first_contact() -> None:
    """About 4 seconds: steady/0's library arm spends its first period at the contract's limits,
    sends nothing in its second, then reads at the bound's rate rounded up, learning nothing."""
    recorded = _recorded("steady", 0)
    with pytest.raises(ValueError, match="after_first_contact needs at_bound"):
        asyncio.run(run_scenario(draw("steady", 0), bound=recorded, after_first_contact=True))
    run = asyncio.run(
        run_scenario(draw("steady", 0), bound=recorded, at_bound=True, after_first_contact=True)
    )
    level = math.ceil(recorded["fixed_rate"])
    assert run["configured_at"] == level
    assert run["after_first_contact"] is True
    copy = run["library"]["copy-0"]
    sent = [a + r for a, r in zip(copy["admitted_per_period"], copy["refused_per_period"], strict=True)]
    # The first period at the contract's limits (more than the bound's level), the second quiet.
    assert copy["admitted_per_period"][0] > level
    assert sent[1] == 0
    # From the third, never more than the configured level in a period.
    assert max(copy["admitted_per_period"][2:]) <= level
    assert sum(copy["admitted_per_period"][2:]) > 0


def test_a_trace_runs_one_scenario_and_is_not_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "scenarios.json"
    for argv, error in (
        (
            ["--family", "storm", "--seeds", "0-1", "--trace"],
            "--trace runs one scenario (one family, one seed), not 2",
        ),
        (["--trace"], f"--trace runs one scenario (one family, one seed), not {5 * len(FAMILIES)}"),
        (["--trace", "--record"], "--trace runs are not recorded"),
        (["--trace", "--report"], "--trace runs are not recorded"),
    ):
        with pytest.raises(SystemExit) as exit:
            main([*argv, "--record-file", str(record)])
        assert exit.value.code == 2
        assert error in capsys.readouterr().err
    assert not record.exists()


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_a_trace_prints_the_program_s_level_changes_in_periods(capsys: pytest.CaptureFixture[str]) -> None:
    """About 4 seconds: storm/0's library arm alone, judged against the record."""
    from benchmarks._scenario._run import STORM

    assert main(["--family", "storm", "--seeds", "0", "--against-record", "--trace"]) == 0
    *trace, verdict = capsys.readouterr().out.splitlines()
    assert verdict.startswith("storm/0: copy-0 ")
    at = [float(line.split()[0]) for line in trace]
    assert [line.split()[1] for line in trace] == ["copy-0"] * len(trace)
    assert at == sorted(at)
    # Alone on the key at the configured limit, the level first moves in the service's storm:
    # its first 429 cuts it (the line says so), and the level comes back after it.
    storm_at = draw("storm", 0).storm_at
    assert storm_at is not None
    assert storm_at <= at[0] <= storm_at + STORM / AMOUNT
    assert "refused with 429" in trace[0]
    assert trace[-1].endswith("read: back at the configured limits")


def test_the_phase_table_sums_every_seed_per_phase() -> None:
    from benchmarks._scenario._report import _phase_row

    assert [start for start, _ in PHASES] == [0, 2, 10, 20]
    periods = PHASES[-1][1]

    def run(library: int, fixed: int) -> dict[str, Any]:
        # Two copies; each admits ``library`` a period in the first two periods and 1 later, its
        # fixed-rate counterpart ``fixed`` and 2.
        admitted = [library, library] + [1] * (periods - 2)
        bound = [fixed, fixed] + [2] * (periods - 2)
        return {
            "library": {
                "neighbour-0": {"admitted_per_period": [9] * periods},
                **{f"copy-{i}": {"admitted_per_period": admitted} for i in range(2)},
            },
            "fixed": {f"copy-{i}": {"admitted_per_period": bound} for i in range(2)},
        }

    # First contact: (3 + 5) * 2 periods * 2 copies over (4 + 4) * 2 * 2: 1.00; later 1 over 2.
    assert _phase_row("copies", [run(3, 4), run(5, 4)]) == "| copies | 1.00 | 0.50 | 0.50 | 0.50 |"
    assert _phase_row("copies", [run(3, 4) | {"fixed": None}]) == "| copies |  |  |  |  |"


def test_the_bound_beside_a_virtual_neighbour_is_the_highest_rate_that_keeps_the_ceiling() -> None:
    from benchmarks._scenario._virtual import neighbour_bound, neighbour_fixed

    # Beside a neighbour at 70% of 10 reads a second, 3 a period are left.
    bound = neighbour_bound(0.7, 1)
    assert bound["ceiling"] == []
    assert 0.9 < bound["rate"] < 1.0
    assert bound["of_remainder"] > 0.9
    # Evenly at all that is left, every window the neighbour's most in one falls on is over: the
    # refused requests count, and the run breaks the ceiling.
    over = neighbour_fixed(0.7, 1, 3.0)
    assert over["ceiling"]
    assert over["share_429"] > 0.05
    # Just under the bound's rate it keeps it, the same scenario drawn again.
    assert neighbour_fixed(0.7, 1, 2.7)["ceiling"] == []
