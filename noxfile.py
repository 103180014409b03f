"""Sessions: ``nox -s tests`` (the suite once, the quick check), ``nox -s matrix`` (every other
Python and the aiohttp floor), ``nox -s lint``, ``nox -s docs``, ``nox -s bench``, ``nox -s fuzz``.
``.ci/run`` runs lint, docs, tests and matrix."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys

import nox

nox.options.sessions = ["lint", "docs", "tests"]
nox.options.reuse_existing_virtualenvs = True
# A Python that is not on this machine is skipped with a message ("Python
# interpreter 3.13 not found"), on CI too (where nox would otherwise fail), and
# never downloaded.
nox.options.error_on_missing_interpreters = False
if hasattr(nox.options, "download_python"):
    nox.options.download_python = "never"

TEST_DEPS = [
    "pytest>=8",
    # The sessions run the suite on every core (-n auto).
    "pytest-xdist>=3.5",
    "pytest-asyncio>=0.24",
    "pytest-timeout>=2.3",
    "hypothesis>=6.100",
    "jsonschema>=4.20",
    # Answers generated from the official OpenAPI schema (tests/conformance/).
    "hypothesis-jsonschema>=0.23",
    # The docs site's griffe extension, run over throwaway packages (tests/project/test_docs.py).
    "griffe>=1.0",
    # A client generated from the official v1 document, run against the emulator
    # (tests/conformance/test_generated_client.py); generated at test time, never committed.
    "openapi-python-client>=0.29",
    # The leaky bucket the scheduler is compared with (tests/scheduler/test_scheduler.py).
    "aiolimiter>=1.1",
    # The official files as a fuzzer's oracle against the emulator (tests/fuzz/; nox -s fuzz).
    "schemathesis>=4.30",
]

# The docs site's tools: the docs session builds with them, and the tests scan a
# site they build (tests/project/test_docs_site.py).
# ruff formats the signatures mkdocs.yml asks to show apart (separate_signature); without
# black or ruff, mkdocstrings leaves them unformatted and says so at every build.
DOCS_DEPS = ["mkdocs>=1.6", "mkdocs-material>=9.5", "mkdocstrings[python]>=0.26", "ruff>=0.6"]

# The aiohttp the package declares as its floor (pyproject.toml's "aiohttp>=3.12.4";
# tests/project/test_pythons.py holds the two equal) and the newest. aioresponses
# 0.7.9 breaks on aiohttp 3.14 (ClientResponse gained a required 'stream_writer'
# argument), so the tests of what aiohttp is handed (tests/unit/test_wire.py:
# headers, base URL joining, query encoding) run on the floor only. Every other
# test, the request shapes of every endpoint included (they go through a
# scripted transport), runs on both.
AIOHTTP_FLOOR = "3.12.4"
AIOHTTP_VERSIONS = {
    "floor": [f"aiohttp=={AIOHTTP_FLOOR}", "aioresponses>=0.7.6"],
    "latest": ["aiohttp"],
}

PYTHONS = ("3.11", "3.12", "3.13")
"""The Pythons the package claims (``requires-python``) and is tested on: each on the newest
aiohttp, the oldest on the aiohttp floor too."""


def _interpreter(version: str) -> str:
    """A working ``python<version>``: on PATH, else one of pyenv's (``$PYENV_ROOT/versions``), so
    an installed version is found when pyenv does not select it; else ``version``, which nox
    then reports missing and skips."""
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    installed = glob.glob(os.path.join(root, "versions", f"{version}.*", "bin", f"python{version}"))
    newest_first = sorted(installed, key=lambda path: [int(part) for part in _patch(path)], reverse=True)
    for candidate in [shutil.which(f"python{version}"), *newest_first]:
        # A pyenv shim of a version pyenv does not select is on PATH, but fails when run.
        if candidate and subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return version


def _patch(path: str) -> list[str]:
    """The digits of the ``3.12.1`` directory of a pyenv interpreter's path."""
    name = os.path.basename(os.path.dirname(os.path.dirname(path)))
    return [part for part in name.split(".") if part.isdigit()]


CURRENT = f"{sys.version_info.major}.{sys.version_info.minor}"
"""The Python that runs nox: ``nox -s tests`` runs the suite on it, on the newest aiohttp."""


def _matrix_runs(current: str) -> list[tuple[str, str]]:
    """``(python, aiohttp)`` of each run of ``nox -s matrix``: the oldest Python on the aiohttp
    floor, and the newest aiohttp on every Python but ``current``, which ``nox -s tests`` ran."""
    return [(PYTHONS[0], "floor"), *[(version, "latest") for version in PYTHONS if version != current]]


def _pytest_args(aiohttp: str, *, quick: bool = False) -> list[str]:
    """The arguments of a run on ``aiohttp`` ("floor" or "latest"); ``quick`` for ``nox -s tests``.

    The wire tests (marker ``aioresponses``) need aioresponses, which works below aiohttp 3.14
    only, and the fuzzer's bounded pass (marker ``fuzz``, about a minute of CPU) runs once: both
    run on the floor alone, in ``nox -s matrix``. The quick run also leaves the tests marked
    ``slow`` (processes of their own, a clean install, the benchmarks' smoke runs: about a fifth
    of the suite's time) to every run of the matrix. Every other test runs in every run.
    """
    args = ["-p", "no:cacheprovider", "-n", "auto"]
    left_out = [] if aiohttp == "floor" else ["aioresponses", "fuzz"]
    if quick:
        left_out.append("slow")
    if left_out:
        args += ["-m", " and ".join(f"not {marker}" for marker in left_out)]
    return args


def _run_suite(session: nox.Session, aiohttp: str, *, quick: bool = False) -> None:
    session.install("-e", ".[cli,redis,emulator]", *TEST_DEPS, *DOCS_DEPS)
    session.install("--upgrade", *AIOHTTP_VERSIONS[aiohttp])
    session.run("python", "-c", "import sys, aiohttp; print(sys.version, '/ aiohttp', aiohttp.__version__)")
    # session.run fails the session on any exit but 0: pytest's 5 (no test collected) included.
    session.run("pytest", *_pytest_args(aiohttp, quick=quick), *session.posargs)


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite once, on the Python that runs nox and the newest aiohttp, but for the tests
    marked slow, which every run of ``nox -s matrix`` runs (the quick check)."""
    _run_suite(session, "latest", quick=True)


MATRIX_RUNS = [
    nox.param(_interpreter(python), aiohttp, id=f"{python}-aiohttp-{aiohttp}")
    for python, aiohttp in _matrix_runs(CURRENT)
]
"""``nox -s matrix`` runs them one after another; ``nox -s "matrix(3.11-aiohttp-floor)"`` runs
the suite on the declared aiohttp floor alone."""


@nox.session
@nox.parametrize("python,aiohttp", MATRIX_RUNS)
def matrix(session: nox.Session, aiohttp: str) -> None:
    """The suite on every other Python the package claims, and on the aiohttp floor (the
    aioresponses wire tests and the fuzzer's bounded pass run there)."""
    _run_suite(session, aiohttp)


FUZZ_EXAMPLES = "300"
"""Examples per operation of ``nox -s fuzz`` (the bounded pass of ``nox -s matrix``'s floor run takes 3)."""


@nox.session
def fuzz(session: nox.Session) -> None:
    """schemathesis over both official files against the emulator: every check, a fixed seed,
    objects seeded through the API (tests/fuzz/). A failure outside the reviewed list
    (tests/fuzz/known.py, docs/differences.md) fails it; ``-- <n>`` sets the examples per
    operation."""
    session.install("-e", ".[cli,redis,emulator]", *TEST_DEPS)
    examples = session.posargs[0] if session.posargs else FUZZ_EXAMPLES
    env = {"ROUTE_PLANNING_FUZZ_EXAMPLES": examples}
    session.run("pytest", "-p", "no:cacheprovider", "-n", "0", "-s", "tests/fuzz", env=env)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the whole tree; ruff format over the package and the Python blocks of the README
    and docs; mypy --strict over the package and the benchmarks."""
    # ruff formats the Python blocks of Markdown files from 0.16.
    session.install("-e", ".[cli,redis,emulator]", "mypy>=1.10", "ruff>=0.16", *TEST_DEPS)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", "route_planning_async", "README.md", "docs")
    # tests/typing: what the public API's types accept and refuse (see its docstring).
    session.run("mypy", "--strict", "route_planning_async", "tests/typing")
    # The benchmarks import the tests' socket-free service (tests/support) for their virtual-time runs.
    session.run("mypy", "--strict", "benchmarks", env={"MYPYPATH": "tests"})


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site (mkdocs.yml, docs/), built with every warning an error.

    The HTML goes to ``site/`` (ignored by git), or to the directory given after
    ``--``; ``nox -s docs -- serve`` serves it instead, rebuilt on every change.
    """
    session.install("-e", ".[cli,redis,emulator]", *DOCS_DEPS)
    env = {"NO_MKDOCS_2_WARNING": "1"}
    if session.posargs == ["serve"]:
        session.run("mkdocs", "serve", "--strict", env=env)
        return
    site = session.posargs[0] if session.posargs else "site"
    session.run("mkdocs", "build", "--strict", "--site-dir", site, env=env)
    session.log(f"The site is in {site}/: python3 -m http.server -d {site} 8000, then http://localhost:8000")


@nox.session
def bench(session: nox.Session) -> None:
    """The benchmark suite; writes benchmarks/RESULTS.md and benchmarks/results.json."""
    # aiolimiter is one of the baselines the scheduler is measured against.
    session.install("-e", ".[cli,redis,emulator]", "psutil>=5.9", "aiolimiter>=1.1")
    session.run("python", "-m", "benchmarks", *session.posargs)
