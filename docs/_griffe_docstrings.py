"""griffe extension: the docs site shows the docstrings as written, and fields as text.

griffe reads the sources without running them, so it sees a docstring as
written; the sections that repeat a text kept elsewhere (a field's
``described`` metadata) are written into the source by the docstring
generator (``python -m route_planning_async._docs._gen``), so the site, an
editor and ``help()`` show the same words.

For each package named in the ``packages`` option, once griffe has read it, this
extension:

- gives a method without a docstring the docstring of the method it overrides,
  as ``help()`` does (a backend's implementation of the contract);
- leaves out the value of every attribute defined by a call
  (``attrs.field(..., metadata=described(...))``, a table built by a
  function): the site shows an attribute as its name, type and text, never the
  source of its definition;
- imports the package from the same files and gives every attrs field that
  carries a ``described`` text that text as its attribute docstring.

An object that cannot be imported (a module whose optional dependency is
missing, a name defined only for type checkers) keeps the docstring griffe read.
The ``__main__`` modules are never imported: importing one runs it.

Then, for every object of those packages, it turns the reST that the docstrings
share with ``help()`` into the Markdown the site renders:

- a role (``:class:`X```, ``:meth:``, ``:func:``, ``:attr:``, ``:data:``,
  ``:exc:``, ``:obj:``, ``:mod:``; ``~`` shows the last name only) becomes a
  cross-reference to the object the name resolves to from the docstring's
  scope, rendered as a link where the site documents that object and as inline
  code elsewhere; a name that resolves to nothing becomes inline code;
- a ``::`` literal block (the paragraph ending ``::`` and the indented lines
  after it) becomes a fenced code block;
- a base class with a private name (a leading underscore), or from a private room
  (``_namespaces._stops.StopsNamespace``, the calls a namespace shares with the
  other API version), is left out of the class's bases: the site neither lists
  it nor shows the constructor inherited from it, and shows the public methods
  the class inherits from it as the class's own.

Registered in ``mkdocs.yml``::

    extensions:
      - docs/_griffe_docstrings.py:
          packages: [route_planning_async]
"""

from __future__ import annotations

import ast
import html
import importlib
import re
import sys
import warnings
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import griffe

_MISSING = object()


class FieldTexts(griffe.Extension):
    """Show the fields of the named packages as name, type and text."""

    def __init__(self, packages: Iterable[str]) -> None:
        """Document the fields of ``packages`` with their ``described`` texts.

        Args:
            packages: The top-level packages (importable names) to document as they run.
        """
        super().__init__()
        self.packages = frozenset(packages)

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Once griffe has read a whole package: update it if it is one of ``packages``."""
        if pkg.name not in self.packages:
            return
        _hide_call_values(pkg)
        _inherit_docstrings(pkg)
        runtime = _import_package(pkg)
        if runtime is not None:
            _update_members(pkg, runtime, loader)
        _to_markdown(pkg)


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


def _hide_call_values(obj: griffe.Object) -> None:
    """Leave out the value of each attribute of ``obj`` and its members that a call defines."""
    for member in list(obj.members.values()):
        if isinstance(member, griffe.Alias):
            continue
        if isinstance(member, griffe.Attribute) and isinstance(member.value, griffe.ExprCall):
            member.value = None
        if isinstance(member, griffe.Module | griffe.Class):
            _hide_call_values(member)


def _inherit_docstrings(obj: griffe.Object) -> None:
    """Give each method without a docstring the docstring of the method it overrides, as
    ``help()`` and editors show it (a backend's implementation of the contract)."""
    for member in list(obj.members.values()):
        if isinstance(member, griffe.Alias):
            continue
        if isinstance(member, griffe.Class):
            try:
                ancestors = member.mro()
            except Exception:  # a base griffe cannot resolve: nothing to inherit from it
                ancestors = []
            for name, method in member.members.items():
                if isinstance(method, griffe.Function) and method.docstring is None:
                    found = [base.members[name] for base in ancestors if name in base.members]
                    written = next((m.docstring for m in found if m.docstring is not None), None)
                    if written is not None:
                        method.docstring = griffe.Docstring(
                            written.value,
                            parent=method,
                            parser=written.parser,
                            parser_options=written.parser_options,
                        )
        if isinstance(member, griffe.Module | griffe.Class):
            _inherit_docstrings(member)


def _update_members(obj: griffe.Object, runtime: object, loader: griffe.GriffeLoader) -> None:
    """Give the attrs fields among ``obj``'s own members their texts (aliases where they point)."""
    for member in list(obj.members.values()):
        if isinstance(member, griffe.Alias):
            continue
        runtime_member = _runtime_member(member, runtime)
        if runtime_member is _MISSING:
            continue
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
        with warnings.catch_warnings():
            # Only looked at: a deprecated name (a module ``__getattr__`` that warns, as
            # ``route_planning_async.RejectedStop``) must not warn in the build.
            warnings.simplefilter("ignore", DeprecationWarning)
            return getattr(runtime_parent, member.name, _MISSING)
    except Exception:
        return _MISSING


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


_ROLE = re.compile(
    r"(?::py)?:(?:class|meth|func|attr|data|exc|obj|mod):`(?P<tilde>~?)(?P<name>[\w.]+)(?:\(\))?`"
)
_LITERAL_HEAD = re.compile(r"^(?P<indent>\s*)(?P<text>.*?)(?P<space>\s?)::\s*$")


def _to_markdown(obj: griffe.Object) -> None:
    """Turn the reST of ``obj``'s docstring and of its members' into Markdown; hide private bases."""
    if obj.docstring is not None:
        obj.docstring.value = markdown_of(obj.docstring.value, lambda name: _resolve(obj, name))
    if isinstance(obj, griffe.Class):
        _hide_private_bases(obj)
    for member in list(obj.members.values()):
        if not isinstance(member, griffe.Alias):
            _to_markdown(member)


def _private_base(cls: griffe.Class, base: object) -> bool:
    """Whether ``base`` (an expression of ``cls``'s bases) has a private name or lives in a private room."""
    name = str(base).split("[", 1)[0]
    path = getattr(getattr(base, "left", base), "canonical_path", name)
    return any(part.startswith("_") for part in (name.split(".")[-1], *str(path).split(".")[1:]))


def _hide_private_bases(cls: griffe.Class) -> None:
    """Drop the private bases of ``cls``; the public members inherited through them become its own."""
    hidden = [base for base in cls.bases if _private_base(cls, base)]
    if not hidden:
        return
    try:
        inherited = dict(cls.inherited_members)
    except Exception:  # a base griffe cannot resolve: nothing to show of it
        inherited = {}
    for name, member in inherited.items():
        if not name.startswith("_") and name not in cls.members:
            cls.set_member(name, griffe.Alias(name, member.target_path, parent=cls))
    cls.bases = [base for base in cls.bases if base not in hidden]


def _resolve(obj: griffe.Object, name: str) -> str | None:
    """The path of the object ``name`` stands for in ``obj``'s scope, or None."""
    first, _, rest = name.partition(".")
    scope: griffe.Object | None = obj if isinstance(obj, griffe.Module | griffe.Class) else obj.parent
    while scope is not None:
        try:
            path = scope.resolve(first)
        except griffe.NameResolutionError:
            scope = scope.parent
            continue
        return _existing(obj, f"{path}.{rest}" if rest else path)
    return _existing(obj, name)


def _existing(obj: griffe.Object, path: str) -> str | None:
    """``path`` made canonical if griffe knows an object there, else None."""
    try:
        target = obj.modules_collection[path]
        return str(target.canonical_path)
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def markdown_of(text: str, resolve: Any) -> str:
    """``text`` with its reST roles and ``::`` literal blocks written as Markdown.

    Args:
        text: A docstring.
        resolve: Called with a role's name; answers the path to link to, or None.
    """
    return _roles(_literal_blocks(text), resolve)


def _roles(text: str, resolve: Any) -> str:
    def link(match: re.Match[str]) -> str:
        name = match["name"]
        shown = name.rsplit(".", 1)[-1] if match["tilde"] else name
        path = resolve(name)
        if path is None:
            return f"`{shown}`"
        code = f"<code>{html.escape(shown)}</code>"
        return f'<autoref identifier="{html.escape(path)}" optional>{code}</autoref>'

    parts = re.split(r"(^```.*?^```)", text, flags=re.M | re.S)
    return "".join(part if index % 2 else _ROLE.sub(link, part) for index, part in enumerate(parts))


def _literal_blocks(text: str) -> str:
    """Every ``::`` paragraph's indented block fenced (as Python where it parses)."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        head = _LITERAL_HEAD.match(lines[index])
        block_end = _indented_block(lines, index + 1, len(head["indent"])) if head else None
        if head is None or block_end is None:
            out.append(lines[index])
            index += 1
            continue
        if head["text"]:
            out.append(f"{head['indent']}{head['text']}{'' if head['space'] else ':'}")
        block = lines[index + 1 : block_end]
        code = _dedent(block)
        while code and not code[0].strip():
            code.pop(0)
        while code and not code[-1].strip():
            code.pop()
        fence = "python" if _parses("\n".join(code)) else "text"
        indented = [f"{head['indent']}{line}" if line else "" for line in code]
        out += ["", f"{head['indent']}```{fence}", *indented, f"{head['indent']}```", ""]
        index = block_end
    return "\n".join(out)


def _indented_block(lines: list[str], start: int, indent: int) -> int | None:
    """The end of the block of lines more indented than ``indent`` from ``start``, or None if none."""
    end = start
    seen = False
    while end < len(lines):
        line = lines[end]
        if line.strip():
            if len(line) - len(line.lstrip()) <= indent:
                break
            seen = True
        end += 1
    return end if seen else None


def _dedent(block: list[str]) -> list[str]:
    margin = min((len(line) - len(line.lstrip()) for line in block if line.strip()), default=0)
    return [line[margin:].rstrip() for line in block]


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        try:  # a fragment with a top-level await
            compile(code, "<docstring>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except SyntaxError:
            return False
    return True
