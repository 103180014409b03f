"""The documentation site covers the public API and every README section it is built from.

The site itself is built by ``nox -s docs`` (``mkdocs build --strict``); these
checks keep its sources complete as the library grows. The griffe extension that
gives the site's fields their texts (``docs/_griffe_docstrings.py``) is run here
over throwaway packages.
"""

from __future__ import annotations

import importlib
import pathlib
import re
import sys
import warnings
from collections.abc import Iterator

import griffe
import pytest

import route_planning_async as rp
from route_planning_async import emulator, redis, v1, webhooks
from route_planning_async.v1 import resources, search

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _referenced() -> set[str]:
    """Every name rendered by a ``:::`` line: the API reference, and the guides that hold
    their objects' reference (``faults.md``)."""
    names: set[str] = set()
    for page in [*(DOCS / "reference").glob("*.md"), DOCS / "faults.md"]:
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


def test_every_public_name_of_v1_is_in_the_api_reference() -> None:
    referenced = _referenced()
    # A class both versions share is documented once, under its top-level name.
    shared = {name for name in v1.__all__ if getattr(rp, name, None) is getattr(v1, name)}
    missing = [
        f"route_planning_async.v1.{name}"
        for name in v1.__all__
        if f"route_planning_async.v1.{name}" not in referenced
        and not (name in shared and f"route_planning_async.{name}" in referenced)
    ]
    missing += [
        f"route_planning_async.v1.resources.{name}"
        for name in resources.__all__
        if f"route_planning_async.v1.resources.{name}" not in referenced
        and f"route_planning_async.v1.{name}" not in referenced
    ]
    assert missing == []
    assert search.__name__ in referenced


def test_every_readme_section_is_on_a_docs_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"<!-- --8<-- \[start:([\w-]+)\] -->", readme))
    included = set()
    for page in DOCS.rglob("*.md"):
        included.update(re.findall(r'--8<-- "README\.md:([\w-]+)"', page.read_text(encoding="utf-8")))
    assert sections == included
    # Every heading is inside a section the site shows, but two: the Redis subsection's (the Redis
    # page has its own title) and the list of the site's pages.
    prose = re.sub(r"```.*?```", "", readme, flags=re.S)
    shown = r"<!-- --8<-- \[start:([\w-]+)\] -->.*?<!-- --8<-- \[end:\1\] -->"
    outside = re.sub(shown, "", prose, flags=re.S)
    headings = re.findall(r"^#{2,} (.+)$", outside, re.M)
    assert headings == ["Many workers, one API key (Redis)", "Documentation"]


def test_the_readme_teaches_in_at_most_550_lines_and_links_every_guide() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 550
    # The reference lives on the site: every guide is linked from the README, or shows its sections.
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", readme))
    showing = {
        page.name
        for page in DOCS.glob("*.md")
        if re.search(r'--8<-- "README\.md:', page.read_text(encoding="utf-8"))
    }
    guides = {page.name for page in DOCS.glob("*.md")} - {"changelog.md", "benchmark-results.md"}
    assert guides - linked - showing == set()


_PARCELS = '''
"""A package whose docstrings are completed at import time."""

import attrs

from route_planning_async._docs import described, fields_documented, keywords_documented, keywords_of


@fields_documented
@attrs.frozen
class Parcel:
    """A parcel to deliver."""

    weight: float = attrs.field(metadata=described("Its weight in kilograms."))
    label: str = attrs.field(default="", metadata=described("Printed on the {side} side."))


class Parcels:
    """The parcels namespace."""

    @keywords_documented(keywords_of(Parcel), side="upper")
    def update(self, **fields: object) -> None:
        """Change a parcel.

        Returns:
            Nothing.
        """
'''


@pytest.fixture
def packages(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[pathlib.Path]:
    """A directory on ``sys.path`` for throwaway packages, forgotten by ``sys.modules`` afterwards."""
    monkeypatch.syspath_prepend(str(tmp_path))
    imported = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - imported:
        del sys.modules[name]


def _write_package(root: pathlib.Path, name: str, modules: dict[str, str]) -> None:
    (root / name).mkdir(parents=True)
    for module, source in modules.items():
        (root / name / f"{module}.py").write_text(source, encoding="utf-8")


def _load_documented(root: pathlib.Path, name: str) -> griffe.Module:
    """The package ``name`` under ``root`` as the docs site loads it."""
    extension = {str(DOCS / "_griffe_docstrings.py"): {"packages": [name]}}
    loaded = griffe.load(
        name, search_paths=[root], extensions=griffe.load_extensions(extension), docstring_parser="google"
    )
    assert isinstance(loaded, griffe.Module)
    return loaded


def test_the_docs_site_shows_the_docstrings_as_written_and_fields_as_text(packages: pathlib.Path) -> None:
    _write_package(packages, "parcels", {"__init__": _PARCELS})

    package = _load_documented(packages, "parcels")

    parcel = package["Parcel"]
    assert parcel.docstring.value == "A parcel to deliver."  # nothing is added at import time
    assert parcel["weight"].docstring.value == "Its weight in kilograms."
    assert parcel["label"].docstring.value == "Printed on the {side} side."
    # A field shows as name, type and text: not as the call that defines it.
    assert parcel["weight"].value is None
    assert str(parcel["weight"].annotation) == "float"
    assert package["Parcels.update"].docstring.value == "Change a parcel.\n\nReturns:\n    Nothing."


def test_a_method_without_a_docstring_shows_the_one_it_overrides(packages: pathlib.Path) -> None:
    source = (
        'class Contract:\n    """The contract."""\n\n    def take(self) -> int:\n'
        '        """Take one.\n\n        Returns:\n            One.\n        """\n        return 1\n\n\n'
        'class Kept(Contract):\n    """Keeps it."""\n\n    def take(self) -> int:\n        return 1\n'
    )
    _write_package(packages, "contracts", {"__init__": source})

    package = _load_documented(packages, "contracts")

    assert package["Kept.take"].docstring.value == "Take one.\n\nReturns:\n    One."


def test_what_cannot_be_imported_keeps_the_docstring_as_written(packages: pathlib.Path) -> None:
    _write_package(
        packages,
        "partial",
        {
            "__init__": '"""A package with a module that needs a missing dependency."""\n',
            "optional": 'import not_installed\n\n\nclass Extra:\n    """Written."""\n',
            "__main__": 'raise SystemExit("a __main__ module runs when imported")\n',
        },
    )

    package = _load_documented(packages, "partial")

    assert package["optional.Extra"].docstring.value == "Written."


def test_a_package_imported_from_other_sources_keeps_its_docstrings_as_written(
    packages: pathlib.Path, caplog: pytest.LogCaptureFixture
) -> None:
    _write_package(packages / "installed", "parcels", {"__init__": _PARCELS})
    _write_package(packages / "sources", "parcels", {"__init__": _PARCELS})
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.syspath_prepend(str(packages / "installed"))
        importlib.import_module("parcels")

    package = _load_documented(packages / "sources", "parcels")

    assert package["Parcel.weight"].docstring is None  # no field text from other sources
    assert "docstrings left as written" in caplog.text


def test_a_deprecated_name_is_looked_at_without_a_warning(packages: pathlib.Path) -> None:
    # As the top-level package keeps RejectedStop: an alias for the type checker, a warning at
    # run time. The build (mkdocs build --strict) printed that warning for each such name.
    source = (
        "import warnings\nfrom typing import TYPE_CHECKING\n\n\n"
        'class New:\n    """The new name."""\n\n\n'
        "if TYPE_CHECKING:\n    Old = New\nelse:\n\n"
        "    def __getattr__(name):\n"
        '        if name != "Old":\n            raise AttributeError(name)\n'
        '        warnings.warn("Old is deprecated", DeprecationWarning, stacklevel=2)\n'
        "        return New\n"
    )
    _write_package(packages, "renamed", {"__init__": source})

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        package = _load_documented(packages, "renamed")

    assert package["New"].docstring.value == "The new name."
    assert [str(warning.message) for warning in caught] == []
