"""mkdocs hook: the README's links to files of the repository, pointed at docs pages.

The docs pages include the README's sections (pymdownx.snippets), and the README
links to the guides in ``docs/`` (each its own page) and to source files that are
not part of the site. Each such link is mapped here to the page that documents the
same thing. A guide of ``docs/`` links to a repository file as ``../<path>`` (which
a reader of the repository follows too), mapped as the README's ``<path>``. A link
to a repository file missing from the map is left as it is, so ``mkdocs build
--strict`` reports it.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

REPOSITORY_FILES = {
    "README.md": "index.md",
    "ARCHITECTURE.md": "architecture.md",
    "CHANGELOG.md": "changelog.md",
    "docs/": "index.md",
    "benchmarks/": "benchmark-results.md",
    "benchmarks/RESULTS.md": "benchmark-results.md",
    "route_planning_async/_errors/__init__.py": "reference/errors.md",
    "route_planning_async/v0_2b/_endpoints.py": "rate-limits.md",
    "route_planning_async/v1/_endpoints.py": "v1.md",
    "route_planning_async/_learning/": "learning.md",
    "docs/learning.md": "learning.md",
}

_LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")

# pymdownx.snippets includes files at priority 32; relinking runs after it.
_AFTER_SNIPPETS = 31


class _Relink(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return [_LINK.sub(_relink, line) for line in lines]


def _relink(match: re.Match[str]) -> str:
    target, anchor = match.group(1).removeprefix("../"), match.group(2) or ""
    page = REPOSITORY_FILES.get(target)
    if page is None and target.startswith("docs/") and target.endswith(".md"):
        page = target.removeprefix("docs/")  # a guide of docs/ is its own page
    # Links are written relative to the site root: mkdocs resolves a leading "/"
    # against the docs directory and makes it relative to the page.
    return match.group(0) if page is None else f"](/{page}{anchor})"


class _RelinkExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(_Relink(md), "relink_repository_files", _AFTER_SNIPPETS)


def on_config(config: Any) -> Any:
    config.markdown_extensions.append(_RelinkExtension())
    return config
