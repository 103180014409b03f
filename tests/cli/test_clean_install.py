"""The README's two commands, in a clean virtual environment: install with the extra, run the demo."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


def _scripts(venv: Path) -> Path:
    return venv / ("Scripts" if sys.platform == "win32" else "bin")


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_install_with_the_cli_extra_and_run_the_demo(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    scripts = _scripts(venv)
    # Nothing from the development environment leaks in: a fresh venv, no PYTHONPATH.
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["COLUMNS"] = "120"
    install = subprocess.run(
        [str(scripts / "python"), "-m", "pip", "install", "--quiet", f"{REPOSITORY}[cli]"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=800,
    )
    assert install.returncode == 0, install.stderr[-4000:]

    demo = subprocess.run(
        [str(scripts / "route-planning"), "demo", "--stops", "200", "--speedup", "20"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
        timeout=300,
    )

    assert demo.returncode == 0, demo.stderr[-4000:]
    assert "Routes" in demo.stdout
    assert "Requests per rate-limit category" in demo.stdout
    total = re.search(r"│ Total\s+│\s+(\d+) │", demo.stdout)
    assert total is not None, demo.stdout
    skipped = re.search(r"(\d+) skipped:", demo.stdout)
    assert int(total[1]) + (int(skipped[1]) if skipped else 0) == 200
    import_row = re.search(r"│ batch_import\s+│\s+(\d+) │\s+(\d+) │\s+(\d+) │\s+(\d+) │", demo.stdout)
    assert import_row is not None, demo.stdout
    assert (import_row[1], import_row[3], import_row[4]) == ("2", "200", "0")
    # The installed package is the one that ran, not the source tree.
    where = subprocess.run(
        [str(scripts / "python"), "-c", "import route_planning_async; print(route_planning_async.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
        timeout=60,
    )
    assert str(venv) in where.stdout
