"""The README's quickstarts and the emulator guide's examples run as written, against the emulator."""

from __future__ import annotations

import asyncio
import pathlib
import re
from typing import Any

import pytest
from support.subprocess_pytest import run_pytest

from route_planning_async import RetryPolicy, emulator, v1

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
SPEEDUP = 50
"""How much faster than the contract the examples' emulators run here."""


def _quickstart(heading: str = "## Quickstart (API v0.2b)") -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, "the Quickstart section has no python block"
    return match.group(1)


def test_quickstart_runs_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_emulator = emulator.Emulator

    def fast_emulator(*args: Any, **kwargs: Any) -> Any:
        # The quickstart runs at the contract's real periods; the same code runs
        # here with the emulator's optimization delay and windows sped up.
        kwargs.setdefault("speedup", 50)
        return real_emulator(*args, **kwargs)

    monkeypatch.setattr(emulator, "Emulator", fast_emulator)
    code = compile(_quickstart(), str(README), "exec")
    namespace: dict[str, Any] = {"__name__": "readme_quickstart"}
    # asyncio.run in the snippet needs no running loop: this test is synchronous.
    exec(code, namespace)
    out = capsys.readouterr().out
    assert "50 stops created" in out
    assert "optimized:" in out
    # Each of the two routes lists its start (position 0) and end stop besides the deliveries.
    route_lines = [line.split() for line in out.splitlines() if line.startswith("routes/")]
    assert len(route_lines) == 50 + 2 * 2, out
    assert len({line[0] for line in route_lines}) == 2, out
    assert sorted(line[1] for line in route_lines if line[1] != "stop") == ["end", "end", "start", "start"]
    assert all(line[2] == "0" for line in route_lines if line[1] == "start"), out


def test_the_v1_quickstart_runs_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_emulator = emulator.Emulator
    made: list[emulator.Emulator] = []

    def fast_emulator(*args: Any, **kwargs: Any) -> emulator.Emulator:
        made.append(real_emulator(*args, **{"speedup": SPEEDUP, **kwargs}))
        return made[-1]

    monkeypatch.setattr(emulator, "Emulator", fast_emulator)
    # The client as written takes v1's default limits; sped up as much as its emulator.
    published = v1.RoutePlanningClient._default_rate_limits()
    sped_up = staticmethod(lambda: published.scaled(SPEEDUP))
    monkeypatch.setattr(v1.RoutePlanningClient, "_default_rate_limits", sped_up)
    code = compile(_quickstart("## Quickstart (API v1)"), str(README), "exec")
    exec(code, {"__name__": "readme_v1_quickstart"})
    (emu,) = made
    # The emulator as written enforces the limits the v1 client assumes: full speed, never a 429.
    assert emu.config.rate_limits == published
    assert emu.log.select(status=429) == []
    out = capsys.readouterr().out
    assert "50 stops created" in out
    # Two drivers of the main depot, so two routes, each with its start and end stops.
    routes = [line for line in out.splitlines() if line.startswith("routes/")]
    assert len(routes) == 2, out
    assert sum(int(line.split()[1]) for line in routes) == 50 + 2 * 2, out
    assert re.search(r"^found plans/\S+/stops/\S+ available$", out, re.M), out


def test_the_pytest_example_runs_with_the_installed_plugin(tmp_path: pathlib.Path) -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## The emulator, in your own tests") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, "the emulator section has no python block"
    loader = (
        "import datetime\n\n\n"
        "async def my_loader(client):\n"
        "    for day in range(1, 8):\n"
        "        await client.plans.create(title=f'day {day}', starts=datetime.date(2026, 3, day))\n\n\n"
    )
    (tmp_path / "test_example.py").write_text(loader + match.group(1), encoding="utf-8")
    result = run_pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_the_transport_example_runs_as_written() -> None:
    text = (README.parent / "docs" / "emulator.md").read_text(encoding="utf-8")
    section = text[text.index("For a test that needs no server at all") :]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match is not None, "the transport paragraph has no python block"
    namespace: dict[str, Any] = {"__name__": "readme_transport"}
    exec(compile(match.group(1), str(README), "exec"), namespace)
    # main() asserts the plan it got back; a wrong request fails the transport's assert.
    asyncio.run(namespace["main"]())


def test_the_retry_figures_are_retry_policys() -> None:
    policy = RetryPolicy()
    waits = [policy.ceiling(retry) for retry in range(1, policy.attempts)]
    readme = " ".join(README.read_text(encoding="utf-8").split())
    stated = re.search(
        r"it is tried (\d+) times in all, with random waits between attempts of at most "
        r"((?:[\d.]+, )*[\d.]+ and [\d.]+) s \(([\d.]+) s in all at most\)",
        readme,
    )
    assert stated is not None, "the README no longer states the default retries"
    attempts, each, total = stated.groups()
    assert int(attempts) == policy.attempts
    assert [float(wait) for wait in re.split(r", | and ", each)] == waits
    assert float(total) == sum(waits)
    assert re.findall(r"`after (\d+) attempts over T s`", readme) == [attempts]
    # The guides quote no other count, and the test the security table names has the same figures.
    for page in sorted((README.parent / "docs").glob("*.md")):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert re.findall(r"after \d+ attempts over [\d.]+ s", text) == [], page.name
        for times, whole, tenths in re.findall(r"tried_(\d+)_times_over_(\d+)_(\d+)_seconds", text):
            assert (int(times), float(f"{whole}.{tenths}")) == (policy.attempts, sum(waits)), page.name
