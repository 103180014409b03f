"""Sessions: ``nox -s tests`` (the test command), ``nox -s lint``, ``nox -s docs``, ``nox -s bench``."""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "docs", "tests"]
nox.options.reuse_existing_virtualenvs = True

TEST_DEPS = [
    "pytest>=8",
    "pytest-asyncio>=0.24",
    "pytest-timeout>=2.3",
    "hypothesis>=6.100",
    "jsonschema>=4.20",
    # Answers generated from the official OpenAPI schema (tests/conformance/).
    "hypothesis-jsonschema>=0.23",
    # The docs site's griffe extension, run over throwaway packages (tests/project/test_docs.py).
    "griffe>=1.0",
    # The leaky bucket the scheduler is compared with (tests/shared/test_scheduler.py).
    "aiolimiter>=1.1",
]

# The docs site's tools: the docs session builds with them, and the tests scan a
# site they build (tests/project/test_docs_site.py).
DOCS_DEPS = ["mkdocs>=1.6", "mkdocs-material>=9.5", "mkdocstrings[python]>=0.26"]

# aioresponses 0.7.9 breaks on aiohttp 3.14 (ClientResponse gained a required
# 'stream_writer' argument), so the tests of what aiohttp is handed
# (tests/unit/test_wire.py: headers, base URL joining, query encoding) run on 3.13
# only. Every other test, the request shapes of every endpoint included (they go
# through a scripted transport), runs on both lines.
AIOHTTP_VERSIONS = {
    "3.13": ["aiohttp>=3.13,<3.14", "aioresponses>=0.7.6"],
    "latest": ["aiohttp"],
}


@nox.session
@nox.parametrize("aiohttp", list(AIOHTTP_VERSIONS))
def tests(session: nox.Session, aiohttp: str) -> None:
    """The whole test suite, once per aiohttp line."""
    session.install("-e", ".[cli,redis,emulator]", *TEST_DEPS, *DOCS_DEPS)
    session.install("--upgrade", *AIOHTTP_VERSIONS[aiohttp])
    session.run("python", "-c", "import aiohttp; print('aiohttp', aiohttp.__version__)")
    args = ["-p", "no:cacheprovider", *session.posargs]
    if aiohttp == "latest":
        args += ["-m", "not aioresponses"]
    session.run("pytest", *args)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the whole tree; ruff format and mypy --strict over the package."""
    session.install("-e", ".[cli,redis,emulator]", "mypy>=1.10", "ruff>=0.6", *TEST_DEPS)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", "route_planning_async")
    # tests/typing: what the public API's types accept and refuse (see its docstring).
    session.run("mypy", "--strict", "route_planning_async", "tests/typing")


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
