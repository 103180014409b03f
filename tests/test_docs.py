"""The documentation site covers the public API and every README section it is built from.

The site itself is built by ``nox -s docs`` (``mkdocs build --strict``); these
checks keep its sources complete as the library grows.
"""

from __future__ import annotations

import pathlib
import re

import route_planning_async as rp
from route_planning_async import emulator, redis, webhooks

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _referenced() -> set[str]:
    names: set[str] = set()
    for page in (DOCS / "reference").glob("*.md"):
        names.update(re.findall(r"^::: (route_planning_async[\w.]*)", page.read_text(encoding="utf-8"), re.M))
    return names


def test_every_public_name_is_in_the_api_reference() -> None:
    referenced = _referenced()
    missing = sorted(
        f"route_planning_async.{name}"
        for name in rp.__all__
        if name != "__version__" and f"route_planning_async.{name}" not in referenced
    )
    assert missing == []


def test_every_public_name_of_the_submodules_is_in_the_api_reference() -> None:
    referenced = _referenced()
    missing = [
        f"{module.__name__}.{name}"
        for module in (emulator, redis)
        for name in module.__all__
        if f"{module.__name__}.{name}" not in referenced and module.__name__ not in referenced
    ]
    # The emulator's route table and limiter internals are documented by their module.
    assert sorted(missing) == sorted(
        f"route_planning_async.emulator.{name}"
        for name in ("BASE_PATH", "ROUTES", "RouteSpec", "EmulatorState", "LimiterKind", "RateLimiter")
    )
    assert webhooks.__name__ in referenced


def test_every_readme_section_is_on_a_docs_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"<!-- --8<-- \[start:([\w-]+)\] -->", readme))
    included = set()
    for page in DOCS.rglob("*.md"):
        included.update(re.findall(r'--8<-- "README\.md:([\w-]+)"', page.read_text(encoding="utf-8")))
    # The README's "Differences" section points to the docs page that holds the table.
    assert sections - {"differences"} == included
    headings = re.findall(r"^## (.+)$", re.sub(r"```.*?```", "", readme, flags=re.S), re.M)
    assert len(headings) == len(sections) - 1  # the intro has no heading
