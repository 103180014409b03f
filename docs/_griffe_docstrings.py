"""griffe extension: the docs site shows the docstrings that ``help()`` shows.

griffe reads the sources without running them, so it sees a docstring as
written. ``route_planning_async._docs`` completes some docstrings at import time:
the ``Keyword Args:`` section of a class decorated ``@fields_documented`` or a
method decorated ``@keywords_documented(...)``, written from the texts its attrs
fields carry (``attrs.field(metadata=described(...))``).

For each package named in the ``packages`` option, once griffe has read it, this
extension imports the package from the same files and, walking its modules and
classes:

- gives every class and function whose runtime ``__doc__`` differs from the
  docstring griffe read the runtime one;
- gives every attrs field that carries a ``described`` text that text as its
  attribute docstring.

An object that cannot be imported (a module whose optional dependency is
missing, a name defined only for type checkers) keeps the docstring griffe read.
The ``__main__`` modules are never imported: importing one runs it.

Registered in ``mkdocs.yml``::

    extensions:
      - docs/_griffe_docstrings.py:
          packages: [route_planning_async]
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import griffe

_MISSING = object()


class RuntimeDocstrings(griffe.Extension):
    """Replace static docstrings by the runtime ones in the named packages."""

    def __init__(self, packages: Iterable[str]) -> None:
        """Take the docstrings of ``packages`` from their runtime objects.

        Args:
            packages: The top-level packages (importable names) to document as they run.
        """
        super().__init__()
        self.packages = frozenset(packages)

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Once griffe has read a whole package: update it if it is one of ``packages``."""
        if pkg.name not in self.packages:
            return
        runtime = _import_package(pkg)
        if runtime is not None:
            _update_members(pkg, runtime, loader)


def _import_package(pkg: griffe.Module) -> ModuleType | None:
    """The runtime package, imported from the directory griffe read it from.

    Another copy of the package may come first on ``sys.path`` (an installed one):
    the directory griffe searched is put before it. If the package was already
    imported from elsewhere, its docstrings are left as griffe read them, with a
    warning, since they would describe other sources.
    """
    filepath = pkg.filepath
    if not isinstance(filepath, Path):  # a namespace package: no single directory
        return None
    root = str(filepath.parent.parent if pkg.is_package else filepath.parent)
    if sys.path[:1] != [root]:
        sys.path.insert(0, root)
    try:
        runtime = importlib.import_module(pkg.path)
    except Exception as error:
        griffe.logger.warning("%s: not importable (%s); docstrings left as written", pkg.path, error)
        return None
    if Path(runtime.__file__ or "").resolve() != filepath.resolve():
        griffe.logger.warning(
            "%s: imported from %s, not from %s; docstrings left as written",
            pkg.path,
            runtime.__file__,
            filepath,
        )
        return None
    return runtime


def _update_members(obj: griffe.Object, runtime: object, loader: griffe.GriffeLoader) -> None:
    """Update the docstrings of ``obj``'s own members (aliases are updated where they point)."""
    for member in list(obj.members.values()):
        if isinstance(member, griffe.Alias):
            continue
        runtime_member = _runtime_member(member, runtime)
        if runtime_member is _MISSING:
            continue
        if isinstance(member, griffe.Class | griffe.Function):
            _use_runtime_docstring(member, runtime_member, loader)
        if isinstance(member, griffe.Class):
            _use_field_texts(member, runtime_member, loader)
        if isinstance(member, griffe.Module | griffe.Class):
            _update_members(member, runtime_member, loader)


def _runtime_member(member: griffe.Object, runtime_parent: object) -> object:
    """The runtime object of ``member``, or ``_MISSING`` if it cannot be had."""
    try:
        if isinstance(member, griffe.Module):
            if member.name == "__main__":
                return _MISSING
            return importlib.import_module(member.path)
        return getattr(runtime_parent, member.name, _MISSING)
    except Exception:
        return _MISSING


def _use_runtime_docstring(obj: griffe.Object, runtime: object, loader: griffe.GriffeLoader) -> None:
    """Give ``obj`` the runtime ``__doc__`` of ``runtime`` if it differs from the one griffe read.

    An attribute is never given its runtime ``__doc__``: that is the docstring of
    its value's type.
    """
    doc = getattr(runtime, "__doc__", None)
    if isinstance(doc, str) and doc.strip():
        _set_docstring(obj, doc, loader)


def _use_field_texts(cls: griffe.Class, runtime: object, loader: griffe.GriffeLoader) -> None:
    """Give each attrs field of ``cls`` that carries a ``described`` text that text as docstring."""
    if not (isinstance(runtime, type) and attrs.has(runtime)):
        return
    # Imported here, once the package has been imported from the sources griffe read.
    from route_planning_async._docs import keywords_of

    for keyword in keywords_of(runtime):
        attribute = cls.members.get(keyword.name)
        if isinstance(attribute, griffe.Attribute):
            _set_docstring(attribute, keyword.text, loader)


def _set_docstring(obj: griffe.Object, text: str, loader: griffe.GriffeLoader) -> None:
    written = obj.docstring
    docstring = griffe.Docstring(
        text,
        lineno=written.lineno if written else None,
        endlineno=written.endlineno if written else None,
        parent=obj,
        parser=loader.docstring_parser,
        parser_options=loader.docstring_options,
    )
    if written is None or docstring.value != written.value:
        obj.docstring = docstring
