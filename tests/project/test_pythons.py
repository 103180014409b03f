"""Every Python the package claims is tested: ``noxfile.py``'s sessions, the classifiers and
``requires-python`` name the same versions, and the sessions find an installed one.

The noxfile is read, not imported (nox is not installed where the tests run).
"""

from __future__ import annotations

import ast
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOXFILE = ROOT / "noxfile.py"


def _noxfile() -> ast.Module:
    return ast.parse(NOXFILE.read_text(encoding="utf-8"))


def _constant(name: str) -> Any:
    for node in _noxfile().body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} is not in noxfile.py")


def _functions(*names: str) -> dict[str, Any]:
    """The noxfile's functions ``names``, defined alone (they need only the standard library)."""
    module = ast.Module(
        body=[node for node in _noxfile().body if isinstance(node, ast.FunctionDef) and node.name in names],
        type_ignores=[],
    )
    namespace: dict[str, Any] = {}
    exec("import glob, os, shutil, subprocess", namespace)
    exec(compile(module, str(NOXFILE), "exec"), namespace)
    return namespace


def test_the_classifiers_and_requires_python_name_the_tested_pythons() -> None:
    pythons = _constant("PYTHONS")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    classified = [
        c.rpartition(" :: ")[2]
        for c in project["classifiers"]
        if c.startswith("Programming Language :: Python :: 3.")
    ]
    assert classified == list(pythons)
    assert project["requires-python"] == f">={pythons[0]}"


def test_the_sessions_run_in_parallel_and_skip_a_missing_python() -> None:
    text = NOXFILE.read_text(encoding="utf-8")
    assert any(dep.startswith("pytest-xdist") for dep in _constant("TEST_DEPS"))
    assert '"-n", "auto"' in text
    assert "nox.options.error_on_missing_interpreters = False" in text


def _script(path: Path, code: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nexit {code}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.skipif(os.name != "posix", reason="shell scripts stand for the interpreters")
def test_an_installed_python_is_found_past_a_broken_pyenv_shim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    interpreter = _functions("_interpreter", "_patch")["_interpreter"]
    _script(tmp_path / "shims" / "python3.12", 127)  # pyenv's shim of a version it does not select
    older = _script(tmp_path / "pyenv" / "versions" / "3.12.9" / "bin" / "python3.12", 0)
    newer = _script(tmp_path / "pyenv" / "versions" / "3.12.10" / "bin" / "python3.12", 0)
    monkeypatch.setenv("PATH", str(tmp_path / "shims"))
    monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "pyenv"))
    assert interpreter("3.12") == str(newer)
    newer.unlink()
    assert interpreter("3.12") == str(older)
    older.unlink()
    assert interpreter("3.12") == "3.12"  # nox reports it missing and skips the session
    on_path = _script(tmp_path / "shims" / "python3.12", 0)
    assert interpreter("3.12") == str(on_path)


def test_the_nox_floor_run_installs_the_aiohttp_pyproject_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [declared] = [dep for dep in project["dependencies"] if dep.startswith("aiohttp")]
    floor = _constant("AIOHTTP_FLOOR")
    assert declared == f"aiohttp>={floor.removesuffix('.0')}"
    runs = NOXFILE.read_text(encoding="utf-8")
    assert '"floor": [f"aiohttp=={AIOHTTP_FLOOR}"' in runs
    matrix_runs = _functions("_matrix_runs")
    matrix_runs["PYTHONS"] = _constant("PYTHONS")
    assert (_constant("PYTHONS")[0], "floor") in matrix_runs["_matrix_runs"]("3.11")


def test_ci_runs_every_test_somewhere_and_no_combination_twice() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.findall(r"^\.ci-venv/bin/nox -s (\w+)$", ci, re.M) == ["lint", "docs", "tests", "matrix"]
    assert "set -euo pipefail" in ci  # a failed session (pytest's 5, no test collected, too) stops it
    assert "success_codes" not in NOXFILE.read_text(encoding="utf-8")
    pythons = _constant("PYTHONS")
    functions = _functions("_matrix_runs", "_pytest_args")
    functions["PYTHONS"] = pythons
    for current in (*pythons, "3.14"):
        # nox -s tests on the Python that runs nox and the newest aiohttp, then the matrix.
        runs = [(current, "latest"), *functions["_matrix_runs"](current)]
        assert len(set(runs)) == len(runs), runs
        assert {(version, "latest") for version in pythons} | {(pythons[0], "floor")} <= set(runs)
    # What a run on the newest aiohttp leaves out, the floor run (which leaves out nothing) runs;
    # what the quick run (nox -s tests) leaves out beyond that, every run of the matrix runs.
    floor = functions["_pytest_args"]("floor")
    latest = functions["_pytest_args"]("latest")
    quick = functions["_pytest_args"]("latest", quick=True)
    assert "-m" not in floor
    left_out = re.findall(r"not (\w+)", latest[latest.index("-m") + 1])
    assert sorted(left_out) == ["aioresponses", "fuzz"]
    quick_left_out = re.findall(r"not (\w+)", quick[quick.index("-m") + 1])
    assert sorted(quick_left_out) == ["aioresponses", "fuzz", "slow"]
    assert "-m" not in functions["_pytest_args"]("floor", quick=False)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    assert {marker.split(":")[0] for marker in declared["ini_options"]["markers"]} >= set(quick_left_out)
