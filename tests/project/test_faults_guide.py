"""The fault injection guide (``docs/faults.md``): one example per fault kind, and they run.

The page's python blocks form one test module; it is written to a directory and
run by pytest in a child process, with the plugin's fixtures, as a user runs it.
"""

from __future__ import annotations

import pathlib
import re

from support.examples import examples
from support.subprocess_pytest import run_pytest

from route_planning_async.emulator import FaultKind

GUIDE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "faults.md"


def _blocks() -> list[str]:
    return [example.code for example in examples() if example.path == GUIDE]


def test_every_kind_has_its_own_section_and_example() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    sections = re.findall(r"^### (\w+)$", text, re.M)
    assert sections == [kind.value for kind in FaultKind]
    for kind, block in zip(FaultKind, _blocks(), strict=True):
        assert f'Fault("{kind.value}"' in block, kind


def test_the_fault_guide_examples_run_as_one_test_module(tmp_path: pathlib.Path) -> None:
    (tmp_path / "test_faults_guide_examples.py").write_text("\n\n".join(_blocks()), encoding="utf-8")
    result = run_pytest(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(FaultKind)} passed" in result.stdout
