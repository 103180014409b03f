"""What ``help()`` shows: the client's namespaces and every attribute of every public class.

A field's text is written once: as ``described`` metadata that
``@fields_documented`` has the docstring generator write into the class
docstring's ``Attributes:`` or ``Keyword Args:`` section, as an attribute
docstring (which ``help()`` does not show: the generator copies it into the
class's ``Attributes:``), as a property's docstring, or directly in that
section. An attribute whose text ``help()`` does not show fails here.
"""

from __future__ import annotations

import ast
import enum
import inspect
import itertools
import pydoc
import re
import textwrap

import attrs
import pytest

import route_planning_async as rp
from route_planning_async import emulator, redis, v0_2b, v1, webhooks
from route_planning_async._docs import keywords_of
from route_planning_async.v1 import search

NAMESPACES = (
    "plans",
    "stops",
    "unassigned_stops",
    "operations",
    "depots",
    "custom_stop_properties",
    "drivers",
    "routes",
    "raw",
)


def _help(obj: object) -> str:
    return pydoc.render_doc(obj, renderer=pydoc.plaintext)


def _flat(text: str) -> str:
    """``text`` with help()'s margins and line breaks collapsed to single spaces."""
    return " ".join(re.sub(r"^\s*\|", "", line) for line in text.splitlines()).replace("  ", " ")


def _section_entries(doc: str) -> dict[str, str]:
    """``name -> text`` of every ``name (type): text`` entry of the docstring's sections."""
    entries: dict[str, str] = {}
    name = None
    for line in inspect.cleandoc(doc).splitlines():
        entry = re.match(r"^    (\w+)(?: \(.*?\))?: (.*)$", line)
        if entry:
            name = entry.group(1)
            entries[name] = entry.group(2)
        elif name is not None and line.startswith("        "):
            entries[name] += " " + line.strip()
        else:
            name = None
    return entries


def test_help_of_the_client_lists_each_namespace_with_its_text() -> None:
    shown = _help(rp.RoutePlanningClient)
    entries = _section_entries(rp.RoutePlanningClient.__doc__ or "")
    for namespace in NAMESPACES:
        assert entries.get(namespace), f"{namespace} is not in the class docstring"
        assert f"{namespace} (" in shown
        assert " ".join(entries[namespace].split()) in " ".join(_flat(shown).split())


def test_the_namespace_texts_are_written_once() -> None:
    source = inspect.getsource(inspect.getmodule(rp.RoutePlanningClient))  # type: ignore[arg-type]
    for text in _section_entries(rp.RoutePlanningClient.__doc__ or "").values():
        words = r"\s+".join(map(re.escape, text.split()[:5]))
        assert len(re.findall(words, source)) == 1, text


def _public_attrs_classes() -> list[type]:
    found = []
    for module in (rp, emulator, webhooks):
        for name in module.__all__:
            value = getattr(module, name)
            if isinstance(value, type) and attrs.has(value) and value not in found:
                found.append(value)
    return found


def _qualified(cls: type) -> str:
    for module in (webhooks, emulator, rp):
        if getattr(module, cls.__name__, None) is cls:
            return f"{module.__name__}.{cls.__name__}"
    raise AssertionError(cls)  # pragma: no cover


@pytest.mark.parametrize("cls", _public_attrs_classes(), ids=_qualified)
def test_help_of_a_public_attrs_class_describes_every_field(cls: type) -> None:
    entries = _section_entries(cls.__doc__ or "")
    shown = " ".join(_flat(_help(cls)).split())
    texts = {keyword.name: keyword.text for keyword in keywords_of(cls)}
    for field in attrs.fields(cls):
        if field.name.startswith("_"):
            continue
        assert entries.get(field.name), f"{_qualified(cls)}.{field.name} is not described in help()"
        assert " ".join(entries[field.name].split()) in shown
        if field.name in texts:  # its described text is the one shown
            first_words = " ".join(texts[field.name].split()[:4])
            assert first_words in " ".join(entries[field.name].split())


def test_each_fault_kind_is_described_once_in_its_module() -> None:
    """The kinds' texts are ``FaultKind``'s ``Attributes:`` (what ``help(FaultKind)`` shows); the
    module docstring points there instead of a copy that could drift."""
    from route_planning_async.emulator import FaultKind
    from route_planning_async.emulator._traffic import _faults

    entries = {
        name: text for name, text in _section_entries(FaultKind.__doc__ or "").items() if name.isupper()
    }
    assert list(entries) == [kind.name for kind in FaultKind]
    source = inspect.getsource(_faults)
    shown = " ".join(_flat(_help(FaultKind)).split())
    for text in entries.values():
        assert " ".join(text.split()) in shown
        words = r"\s+".join(map(re.escape, text.split()[:6]))
        assert len(re.findall(words, source)) == 1, text


# Every public class: each attribute it defines shows in help() with its text ----------

PUBLIC_MODULES = (rp, v0_2b, v0_2b.resources, v1, v1.resources, search, emulator, webhooks, redis)


def _public_classes() -> list[type]:
    found: dict[str, type] = {}
    for module in PUBLIC_MODULES:
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if isinstance(value, type) and value.__module__.startswith("route_planning_async"):
                found.setdefault(f"{value.__module__}.{value.__qualname__}", value)
    return [found[name] for name in sorted(found)]


def _docstring_after(body: list[ast.stmt]) -> dict[str, str]:
    """``name -> text`` of the names (or ``self.<name>``) assigned in ``body`` with a docstring after."""
    texts = {}
    for statement, after in itertools.pairwise(body):
        if not (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)):
            continue
        target = statement.target if isinstance(statement, ast.AnnAssign) else None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        if isinstance(target, ast.Attribute) and ast.unparse(target.value) == "self":
            texts[target.attr] = str(after.value.value)
        elif isinstance(target, ast.Name):
            texts[target.id] = str(after.value.value)
    return texts


def own_attributes(cls: type) -> dict[str, str | None]:
    """``name -> text`` (None: no text of its own) of the public attributes ``cls`` defines: its
    attrs fields, enum members, properties, and the attributes with a docstring in its body or
    its ``__init__``."""
    node = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    assert isinstance(node, ast.ClassDef)
    texts: dict[str, str | None] = dict(_docstring_after(node.body))
    for init in node.body:
        if isinstance(init, ast.FunctionDef) and init.name == "__init__":
            texts.update({k: v for k, v in _docstring_after(init.body).items() if k not in texts})
    if attrs.has(cls):
        own = set(vars(cls).get("__annotations__", {}))
        described = {keyword.name: keyword.text for keyword in keywords_of(cls)}
        for field in attrs.fields(cls):
            if field.name in own:
                texts.setdefault(field.name, described.get(field.name))
                texts[field.name] = described.get(field.name, texts[field.name])
    if issubclass(cls, enum.Enum):
        for member in cls.__members__:
            texts.setdefault(member, None)
    for name, value in vars(cls).items():
        if isinstance(value, property):
            texts[name] = inspect.getdoc(value)
    return {name: text for name, text in texts.items() if not name.startswith("_")}


PUBLIC_CLASSES = _public_classes()


def test_the_sweep_covers_the_public_classes() -> None:
    names = {cls.__name__ for cls in PUBLIC_CLASSES}
    assert {"ImportReport", "APIError", "Plan", "StopInput", "FaultKind", "SearchField", "Emulator"} <= names
    assert len(PUBLIC_CLASSES) > 150


@pytest.mark.parametrize("cls", PUBLIC_CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_help_shows_every_attribute_a_public_class_defines_with_its_text(cls: type) -> None:
    shown = " ".join(_flat(_help(cls)).split())
    entries = _section_entries(cls.__doc__ or "")
    missing = []
    for name, text in own_attributes(cls).items():
        if text is None:  # described by hand, in a section of the class docstring
            if not entries.get(name):
                missing.append(f"{name} (no text)")
            continue
        first = " ".join(text.split("\n\n", 1)[0].split())
        if name not in shown or first not in shown:
            missing.append(name)
    assert missing == [], f"help({cls.__qualname__}) does not show these with their text"


def test_help_of_the_import_report_shows_its_counts() -> None:
    shown = " ".join(_flat(_help(rp.ImportReport)).split())
    texts = own_attributes(rp.ImportReport)
    for name in ("created", "skipped", "total", "unknown", "duplicates"):
        text = texts[name]
        assert text, name
        entry = rf"\b{name}(?: \([^)]*\))?: {re.escape(' '.join(text.split()))}"
        assert re.search(entry, shown), f"help(ImportReport) does not show {name} with its text"
