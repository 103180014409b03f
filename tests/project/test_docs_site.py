"""The docs site as built: no reST markup or private base left in the rendered pages.

The site is built once per session with ``mkdocs build --strict`` into a
temporary directory, as ``nox -s docs`` builds it. The conversion of reST to
Markdown that the griffe extension (``docs/_griffe_docstrings.py``) does is also
checked on its own, on small texts.
"""

from __future__ import annotations

import ast
import html
import importlib.util
import os
import pathlib
import re
import subprocess
import sys
from types import ModuleType

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LEFTOVERS = re.compile(r":(?:class|meth|func|attr|data|exc|obj|mod):|::|Bases: _")
"""What must not show in a rendered page's text (outside code)."""
SOURCE = re.compile(r"attrs\.field\(|described\(|_table\(|:(?:class|meth|func|attr|data|exc|obj|mod):`")
"""What must not show anywhere on a page, code and signatures included: the source of a field's
definition (``attrs.field(..., metadata=described(...))``, a table built by a call) or a raw role."""


def _extension() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "_griffe_docstrings", ROOT / "docs" / "_griffe_docstrings.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _markdown(text: str, known: dict[str, str] | None = None) -> str:
    converted: str = _extension().markdown_of(text, (known or {}).get)
    return converted


def test_a_role_becomes_a_cross_reference_or_inline_code() -> None:
    known = {"Plan": "pkg.models.Plan", "pkg.Stops.create": "pkg.resources.Stops.create"}
    text = "A :class:`Plan`, :meth:`~pkg.Stops.create`, :func:`missing` and :py:exc:`~errors.Gone`."
    assert _markdown(text, known) == (
        'A <autoref identifier="pkg.models.Plan" optional><code>Plan</code></autoref>, '
        '<autoref identifier="pkg.resources.Stops.create" optional><code>create</code></autoref>, '
        "`missing` and `Gone`."
    )


def test_a_literal_block_becomes_a_fenced_block() -> None:
    text = "Use it::\n\n    async with Client() as client:\n        await client.get(x)\n\nAfter."
    assert _markdown(text) == (
        "Use it:\n\n```python\nasync with Client() as client:\n    await client.get(x)\n```\n\nAfter."
    )


def test_a_detached_marker_and_a_non_python_block() -> None:
    text = "Args:\n    rows: The rows. ::\n\n        $ route-planning import\n        done.\n    other: More."
    assert _markdown(text) == (
        "Args:\n    rows: The rows.\n\n    ```text\n    $ route-planning import\n    done.\n    ```\n\n"
        "    other: More."
    )


def test_fenced_code_is_left_alone() -> None:
    text = "```python\nx = ':class:`Plan`'\n```"
    assert _markdown(text) == text


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    pytest.importorskip("mkdocs", reason="the docs tools are not installed (nox -s docs installs them)")
    directory = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    (directory / "build.log").write_text(result.stderr, encoding="utf-8")
    return directory


def _text(page: pathlib.Path) -> str:
    """The text a reader sees on ``page``, code blocks and inline code left out."""
    markup = re.sub(r"<(pre|code|script|style)\b.*?</\1>", " ", page.read_text(encoding="utf-8"), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_no_rest_markup_or_private_base_is_left_on_the_site(site: pathlib.Path) -> None:
    left = [
        f"{page.relative_to(site)}: {' '.join(match.group(0).split())}"
        for page in sorted(site.rglob("*.html"))
        for match in re.finditer(rf".{{0,30}}(?:{LEFTOVERS.pattern}).{{0,30}}", _text(page))
    ]
    assert left == []


def test_no_page_shows_the_source_of_a_definition(site: pathlib.Path) -> None:
    left = [
        f"{page.relative_to(site)}: {' '.join(match.group(0).split())}"
        for page in sorted(site.rglob("*.html"))
        for match in re.finditer(
            rf".{{0,40}}(?:{SOURCE.pattern}).{{0,40}}",
            html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))),
        )
    ]
    assert left == []


def test_a_field_shows_as_name_type_and_text(site: pathlib.Path) -> None:
    page = (site / "reference" / "models" / "index.html").read_text(encoding="utf-8")
    at = page.index('id="route_planning_async.Recipient.external_id"')
    shown = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page[at : page.index('id="', at + 10)])).split())
    assert "external_id : str | None The caller's own id for the recipient." in shown


def test_the_search_fields_are_a_table(site: pathlib.Path) -> None:
    page = (site / "reference" / "v1" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r"<tr>\s*<td><code>([^<]+)</code></td>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>", page)
    names = [name for name, _, _ in rows]
    assert len(names) == 39
    assert "deliveryInfo.driverProvidedRecipientNotes" in names
    assert ("paymentOnDelivery.amount", "integer", "= != &gt; &gt;= &lt; &lt;=") in rows


def test_namespaces_show_no_private_constructor(site: pathlib.Path) -> None:
    page = (site / "reference" / "resources" / "index.html").read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert "Plans(client" not in text
    assert "Plans: create, list" in text


def test_the_fault_guide_is_built(site: pathlib.Path) -> None:
    text = " ".join(_text(site / "faults" / "index.html").split())
    for kind in ("rate_limit", "error_after_commit", "reject_stop"):
        assert kind in text


def test_the_separate_signatures_are_formatted(site: pathlib.Path) -> None:
    # mkdocs.yml shows signatures apart from their headings; mkdocstrings formats them with black
    # or ruff, and without either says so at every build. The docs tools (noxfile.py's DOCS_DEPS,
    # which nox -s docs and the test sessions install) include ruff.
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s+separate_signature: true$", config, re.M)
    noxfile = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    [deps] = [
        ast.literal_eval(node.value)
        for node in noxfile.body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["DOCS_DEPS"]
    ]
    assert any(re.match(r"(ruff|black)\b", dep) for dep in deps), deps
    assert "Formatting signatures requires" not in (site / "build.log").read_text(encoding="utf-8")
