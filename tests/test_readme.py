"""The README's quickstart runs as written, against the emulator it starts."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest

from route_planning_async import emulator

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def _quickstart() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quickstart") :]
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
    route_lines = [line for line in out.splitlines() if line.startswith(("Ana", "Ben"))]
    assert len(route_lines) >= 50, out
