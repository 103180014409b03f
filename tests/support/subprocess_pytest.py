"""Running pytest on files a test wrote, in a child process: README examples as users run them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_pytest(directory: Path, *, importable: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m pytest -q`` on ``directory`` (its own rootdir); ``importable`` puts it on
    ``PYTHONPATH`` so the tests can import the modules beside them."""
    env = {**os.environ, "PYTHONPATH": str(directory)} if importable else None
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(directory),
            str(directory),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=directory,
        env=env,
    )
