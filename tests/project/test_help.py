"""What ``help()`` shows: the client's namespaces and every field of every public attrs class.

A field's text is written once: as ``described(...)`` metadata that
``@fields_documented`` turns into the class docstring's ``Attributes:`` or
``Keyword Args:`` section, or directly in that section. A field documented only
by an attribute docstring is invisible to ``help()`` and fails here.
"""

from __future__ import annotations

import inspect
import pydoc
import re

import attrs
import pytest

import route_planning_async as rp
from route_planning_async import emulator, webhooks
from route_planning_async._docs import keywords_of

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
    from route_planning_async.emulator import FaultKind, _faults

    entries = _section_entries(FaultKind.__doc__ or "")
    assert list(entries) == [kind.name for kind in FaultKind]
    source = inspect.getsource(_faults)
    shown = " ".join(_flat(_help(FaultKind)).split())
    for text in entries.values():
        assert " ".join(text.split()) in shown
        words = r"\s+".join(map(re.escape, text.split()[:6]))
        assert len(re.findall(words, source)) == 1, text
