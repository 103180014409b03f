"""The generator of the docstring texts written from texts kept elsewhere.

A text lives in one place (a field's ``described`` metadata, a contract's
docstring, a table in code); the docstrings that show it get a generated copy,
written into the source so that an editor's hover, ``help()`` and the docs site
read the same words. Nothing changes a ``__doc__`` at import. Run after changing
a text, a field, an attribute docstring or a decorated signature::

    python -m route_planning_async._docs_gen          # rewrite the stale docstrings
    python -m route_planning_async._docs_gen --check  # list them, exit 1 if any

Either way it then lists the docstrings whose layout is broken (a section named
twice, a line left outside its ``Raises:`` or ``Args:`` section) and exits 1 if
there is one: :func:`docstring_problems`.

It imports every module of the package, which registers the generated texts
(:mod:`route_planning_async._docs`: a section of a given title, replaced or
added before ``Returns:``/``Raises:`` and the like, or a docstring composed from
others), and adds the ``Attributes:`` section of each public class whose
attributes have docstrings (``help()`` shows no attribute docstring; entries
written by hand for other names are kept). Each registered object's docstring is
found in its module's source (a missing one is added) and rewritten in the
project's format. The rest of a docstring is left as written, and a docstring
whose text is already right is not touched, so a second run changes nothing.
Written lines fit the project's line length.
"""

from __future__ import annotations

import argparse
import ast
import enum
import importlib
import itertools
import pkgutil
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Final

import attrs

from route_planning_async._docs import (
    GeneratedSection,
    Keyword,
    Rewrite,
    Written,
    generated_sections,
    keyword_section,
    section_end,
    with_section,
)

__all__ = ["COMMAND", "docstring_problems", "main", "malformed", "stale_files", "with_section", "write"]

COMMAND: Final = "python -m route_planning_async._docs_gen"
"""What to run to rewrite the generated docstring sections."""

_PACKAGE: Final = "route_planning_async"
_LINE_LENGTH: Final = 110  # pyproject.toml's [tool.ruff] line-length
_WIDTH: Final = 100
_ENTRY: Final = re.compile(r"^ {4}(?P<name>\*{0,2}\w+)\b")
_WRAPPERS: Final = frozenset({"ClassVar", "Final", "typing.ClassVar", "typing.Final"})
_PREFIX: Final = re.compile(r"^(?P<prefix>[rRuU]*)(?P<quote>\"\"\"|'''|\"|')")

_Definition = ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef


@attrs.frozen
class _Edit:
    """A docstring of one file and the text it is to hold.

    ``node`` is the docstring's literal, or the first statement of a definition that has
    none (the docstring is written before it)."""

    node: ast.expr | ast.stmt
    lines: list[str]
    new: bool = False


def _import_all() -> list[GeneratedSection]:
    """Import every module of the package (their sections register as they are defined), and
    add the ``Attributes:`` section of each public class whose attributes have docstrings."""
    package = importlib.import_module(_PACKAGE)
    modules = [_PACKAGE]
    for info in pkgutil.walk_packages(package.__path__, f"{_PACKAGE}."):
        if not info.name.endswith("__main__"):  # importing one runs it
            importlib.import_module(info.name)
            modules.append(info.name)
    public = _public_classes(modules)
    attributes = (section for module in modules for section in _attribute_sections(module, public))
    return [*generated_sections(), *attributes]


def _public_classes(modules: Iterable[str]) -> set[tuple[str, str]]:
    """(module, qualified name) of every class a public module exports (its ``__all__``)."""
    public = set()
    for module in modules:
        if any(part.startswith("_") for part in module.split(".")):
            continue
        for name in getattr(sys.modules[module], "__all__", ()):
            value = getattr(sys.modules[module], name, None)
            if isinstance(value, type):
                public.add((value.__module__, value.__qualname__))
    return public


def _attribute_docstrings(
    body: Sequence[ast.stmt], of_self: bool, parameters: Mapping[str, ast.expr] | None = None
) -> Iterable[Keyword]:
    """The attributes assigned in ``body`` with a docstring after them: names of the class body,
    or with ``of_self``, ``self.<name>`` (a constructor's body, whose annotated ``parameters``
    give the type of an attribute set from one)."""
    for statement, after in itertools.pairwise(body):
        text = _docstring_node(ast.Module(body=[after], type_ignores=[]))
        if text is None:
            continue
        annotation = statement.annotation if isinstance(statement, ast.AnnAssign) else None
        if isinstance(statement, ast.AnnAssign):
            target: ast.expr | None = statement.target
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        else:
            continue
        if of_self and isinstance(target, ast.Attribute) and ast.unparse(target.value) == "self":
            name = target.attr
        elif not of_self and isinstance(target, ast.Name):
            name = target.id
        else:
            continue
        if of_self and annotation is None and isinstance(statement, ast.Assign):
            annotation = _inferred(statement.value, parameters or {})
        if not name.startswith("_"):
            yield Keyword(name, _type_shown(annotation), str(text.value))


def _inferred(value: ast.expr, parameters: Mapping[str, ast.expr]) -> ast.expr | None:
    """The type of an instance attribute set without an annotation: that of the constructor's
    parameter it is set from, or of a literal (``0``, ``""``, ``False``)."""
    if isinstance(value, ast.Name) and value.id in parameters:
        return parameters[value.id]
    if isinstance(value, ast.Constant) and type(value.value) in (bool, int, float, str):
        return ast.Name(type(value.value).__name__)
    return None


def _type_shown(annotation: ast.expr | None) -> str:
    """An attribute's annotation as its entry shows it (``ClassVar[X]`` and ``Final[X]`` as ``X``)."""
    if annotation is None:
        return ""
    if isinstance(annotation, ast.Subscript) and ast.unparse(annotation.value) in _WRAPPERS:
        return ast.unparse(annotation.slice)
    return "" if ast.unparse(annotation) in _WRAPPERS else ast.unparse(annotation)


def _classes(body: Sequence[ast.stmt], prefix: str = "") -> Iterable[tuple[str, ast.ClassDef]]:
    """The public classes of ``body`` and of their bodies, by qualified name."""
    for node in _definitions(body):
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            yield f"{prefix}{node.name}", node
            yield from _classes(node.body, f"{prefix}{node.name}.")


def _attribute_sections(module: str, public: set[tuple[str, str]]) -> Iterable[GeneratedSection]:
    """An ``Attributes:`` section for each public class of ``module`` (one in ``public``) whose
    attributes (in its body or set in its ``__init__``) have docstrings: ``help()`` shows no
    attribute docstring."""
    path = Path(sys.modules[module].__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for qualname, node in _classes(tree.body):
        if (module, qualname) not in public:
            continue
        keywords = {keyword.name: keyword for keyword in _attribute_docstrings(node.body, of_self=False)}
        for init in node.body:
            if isinstance(init, ast.FunctionDef) and init.name == "__init__":
                arguments = [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs]
                parameters = {arg.arg: arg.annotation for arg in arguments if arg.annotation is not None}
                for keyword in _attribute_docstrings(init.body, of_self=True, parameters=parameters):
                    keywords.setdefault(keyword.name, keyword)
        if _is_enum(module, qualname):  # help() lists no property of an enum
            keywords.update((keyword.name, keyword) for keyword in _properties(node))
        if keywords and _docstring_node(node) is not None:
            listed = list(keywords.values())
            yield GeneratedSection(module, qualname, _attributes(listed, _undocumented(node)))


def _undocumented(node: ast.ClassDef) -> set[str]:
    """The names the class ``node`` defines with no docstring of their own (in its body or its
    ``__init__``): an entry written by hand in its ``Attributes:`` may describe them."""
    bodies = [(node.body, False)]
    bodies += [
        (init.body, True)
        for init in node.body
        if isinstance(init, ast.FunctionDef) and init.name == "__init__"
    ]
    names = set()
    for body, of_self in bodies:
        documented = {keyword.name for keyword in _attribute_docstrings(body, of_self)}
        for statement in body:
            targets = statement.targets if isinstance(statement, ast.Assign) else []
            targets = [statement.target] if isinstance(statement, ast.AnnAssign) else targets
            for target in targets:
                if of_self and isinstance(target, ast.Attribute) and ast.unparse(target.value) == "self":
                    names.add(target.attr)
                elif not of_self and isinstance(target, ast.Name):
                    names.add(target.id)
            if not of_self and isinstance(statement, ast.FunctionDef) and not ast.get_docstring(statement):
                names.add(statement.name)
        names -= documented
    return names


def _is_enum(module: str, qualname: str) -> bool:
    runtime: object = sys.modules[module]
    for name in qualname.split("."):
        runtime = getattr(runtime, name, None)
    return isinstance(runtime, type) and issubclass(runtime, enum.Enum)


def _properties(node: ast.ClassDef) -> Iterable[Keyword]:
    """The public properties defined in the class ``node`` with their docstrings' first paragraph."""
    for function in node.body:
        decorators = [ast.unparse(decorator) for decorator in getattr(function, "decorator_list", ())]
        if isinstance(function, ast.FunctionDef) and "property" in decorators:
            text = ast.get_docstring(function)
            if text and not function.name.startswith("_"):
                shown = "" if function.returns is None else ast.unparse(function.returns)
                yield Keyword(function.name, shown, text.split("\n\n", 1)[0])


def _attributes(keywords: list[Keyword], undocumented: set[str]) -> Rewrite:
    """The ``Attributes:`` section listing ``keywords``. An entry written by hand is kept, in its
    place, for a name defined with no docstring of its own (an enum's member described in the class
    docstring); any other entry (a former attribute, or one that has a docstring elsewhere) goes."""

    def rewrite(lines: list[str], width: int, written: Written) -> list[str]:
        entries = _entries(keyword_section(keywords, title="Attributes", width=width).split("\n")[1:])
        if "Attributes:" in lines:
            start = lines.index("Attributes:")
            end = section_end(lines, start)
            kept = _entries(lines[start + 1 : end])
            kept = {name: entries.get(name, entry) for name, entry in kept.items() if name in undocumented}
            entries = {**kept, **entries}
            if not entries:  # nothing left to list: the section goes, and the blank line before it
                return [*lines[: max(start - 1, 0)], *lines[end:]]
        section = ["Attributes:", *(line for entry in entries.values() for line in entry)]
        return with_section(lines, "Attributes", section)

    return rewrite


def _entries(lines: Sequence[str]) -> dict[str, list[str]]:
    """The entries of a section's body by name: each its first line and the lines indented more."""
    entries: dict[str, list[str]] = {}
    name = ""
    for line in lines:
        head = _ENTRY.match(line)
        if head:
            name = head["name"]
            entries[name] = []
        entries.setdefault(name, []).append(line)
    return entries


def _definitions(body: Iterable[ast.stmt]) -> Iterable[ast.stmt]:
    """The statements of ``body``, and those inside its ``if`` and ``try`` blocks."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If | ast.Try):
            yield from _definitions([*statement.body, *statement.orelse])


def _find(tree: ast.Module, qualname: str) -> ast.Module | _Definition:
    """The definition called ``qualname`` in ``tree`` (the last one, as the name is bound to it)."""
    scope: ast.Module | _Definition = tree
    for name in qualname.split(".") if qualname else ():
        found = [
            node for node in _definitions(scope.body) if isinstance(node, _Definition) and node.name == name
        ]
        if not found:
            raise LookupError(f"{qualname}: no definition of {name!r} in its module's source")
        scope = found[-1]
    return scope


def _docstring_node(scope: ast.Module | _Definition) -> ast.Constant | None:
    first = scope.body[0] if scope.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.value
    return None


def _cleaned(content: str) -> list[str]:
    """The lines of a docstring's text, indentation removed as ``inspect.cleandoc`` does."""
    lines = content.expandtabs().split("\n")
    margin = min((len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()), default=0)
    cleaned = [lines[0].strip(), *(line[margin:].rstrip() for line in lines[1:])]
    while cleaned and not cleaned[-1]:
        cleaned.pop()
    while cleaned and not cleaned[0]:
        cleaned.pop(0)
    return cleaned


def _literal(source_lines: list[str], node: ast.expr | ast.stmt) -> tuple[str, str, str]:
    """The prefix, the quotes and the text between them of the docstring literal ``node``."""
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        text = source_lines[first][node.col_offset : node.end_col_offset]
    else:
        text = "\n".join(
            [
                source_lines[first][node.col_offset :],
                *source_lines[first + 1 : last],
                source_lines[last][: node.end_col_offset],
            ]
        )
    match = _PREFIX.match(text)
    if match is None:
        raise ValueError(f"line {node.lineno}: not a string literal: {text[:40]!r}")
    quote = match["quote"]
    return match["prefix"], quote, text[match.end() : len(text) - len(quote)]


def _escaped(lines: list[str], raw: bool, where: str) -> list[str]:
    if any('"""' in line for line in lines):
        raise ValueError(f"{where}: a generated text holds three double quotes")
    return lines if raw else [line.replace("\\", "\\\\") for line in lines]


@attrs.define
class _Source:
    """One module's source, read once."""

    path: Path
    lines: list[str]
    tree: ast.Module


class _Planner:
    """The docstring lines each registered object is to hold, each computed once."""

    def __init__(self, sections: Iterable[GeneratedSection]) -> None:
        self._rewrites: dict[tuple[str, str], list[GeneratedSection]] = defaultdict(list)
        for section in sections:
            if section.module.split(".", 1)[0] == _PACKAGE:  # a user's subclass may register too
                self._rewrites[section.module, section.qualname].append(section)
        self._sources: dict[str, _Source] = {}
        self._written: dict[tuple[str, str], list[str]] = {}

    def source(self, module: str) -> _Source:
        if module not in self._sources:
            path = Path(sys.modules[module].__file__ or "")
            text = path.read_text(encoding="utf-8")
            self._sources[module] = _Source(path, text.split("\n"), ast.parse(text))
        return self._sources[module]

    def current(self, module: str, qualname: str) -> tuple[ast.expr | ast.stmt, list[str], bool]:
        """The docstring's node, its lines as written, and whether it is missing."""
        source = self.source(module)
        scope = _find(source.tree, qualname)
        node = _docstring_node(scope)
        if node is None:
            if isinstance(scope, ast.Module) or scope.body[0].lineno == scope.lineno:
                raise LookupError(f"{module}.{qualname}: no docstring, and none can be added")
            return scope.body[0], [], True
        return node, _cleaned(str(node.value)), False

    def written(self, module: str, qualname: str) -> list[str]:
        """The lines the docstring of ``qualname`` in ``module`` is to hold."""
        key = (module, qualname)
        if key not in self._written:
            node, lines, _ = self.current(module, qualname)
            width = min(_WIDTH, _LINE_LENGTH - node.col_offset)
            for section in self._rewrites.get(key, ()):
                lines = section.rewrite(lines, width, self.written)
            self._written[key] = lines
        return self._written[key]

    def plan(self) -> dict[Path, list[_Edit]]:
        """For each file, the docstrings whose text the registered rewrites change."""
        plans: dict[Path, list[_Edit]] = defaultdict(list)
        for module, qualname in self._rewrites:
            node, lines, missing = self.current(module, qualname)
            written = self.written(module, qualname)
            if written != lines:
                source = self.source(module)
                raw = not missing and "r" in _literal(source.lines, node)[0].lower()
                where = f"{module}.{qualname}"
                plans[source.path].append(_Edit(node, _escaped(written, raw, where), missing))
        return dict(plans)


def _rewritten(source: str, edits: list[_Edit]) -> str:
    """``source`` with each edited docstring literal written anew, in the project's format."""
    source_lines = source.split("\n")
    for edit in sorted(edits, key=lambda edit: edit.node.lineno, reverse=True):
        node = edit.node
        assert node.end_lineno is not None
        assert node.end_col_offset is not None
        prefix = "" if edit.new else _literal(source_lines, node)[0]
        indent = " " * node.col_offset
        if len(edit.lines) == 1:
            literal = [f'{prefix}"""{edit.lines[0]}"""']
        else:
            body = [f"{indent}{line}" if line else "" for line in edit.lines[1:]]
            literal = [f'{prefix}"""{edit.lines[0]}', *body, f'{indent}"""']
        if edit.new:  # a docstring written before the definition's first statement
            source_lines[node.lineno - 1 : node.lineno - 1] = [indent + literal[0], *literal[1:]]
            continue
        before = source_lines[node.lineno - 1][: node.col_offset]
        after = source_lines[node.end_lineno - 1][node.end_col_offset :]
        literal[0] = before + literal[0]
        literal[-1] += after
        source_lines[node.lineno - 1 : node.end_lineno] = literal
    return "\n".join(source_lines)


def stale_files() -> list[Path]:
    """The source files whose generated docstring sections are not what the generator writes."""
    return sorted(_Planner(_import_all()).plan())


def write() -> list[Path]:
    """Rewrite the stale generated sections in the source; the files changed."""
    changed = []
    for path, edits in _Planner(_import_all()).plan().items():
        path.write_text(_rewritten(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
        changed.append(path)
    return sorted(changed)


_SECTION = re.compile(r"^([A-Z][A-Za-z]*(?: [A-Za-z]+)?):\s*$")
_ENTRY_SECTIONS: Final = frozenset({"Args", "Keyword Args", "Attributes", "Returns", "Yields", "Raises"})


def docstring_problems(source: str, where: str) -> list[str]:
    """What is wrong with the layout of the docstrings of one module's ``source``: a section
    named twice, or a line that should be in a section but sits outside it (an entry of
    ``Raises:`` written again below it, as a second pass of the generator once did)."""
    problems: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        docstring = ast.get_docstring(node, clean=True)
        if not docstring:
            continue
        name = getattr(node, "name", "<module>")
        seen: set[str] = set()
        section: str | None = None
        for line in docstring.splitlines():
            if not line.strip() or line.startswith((" ", "\t")):
                continue
            header = _SECTION.match(line)
            if header is not None:
                section = header.group(1)
                if section in seen:
                    problems.append(f"{where}: {name}: the section {section}: is written twice")
                seen.add(section)
            elif section in _ENTRY_SECTIONS:
                problems.append(
                    f"{where}: {name}: a line outside its {section}: section: {line.strip()[:60]!r}"
                )
    return problems


def malformed() -> list[str]:
    """:func:`docstring_problems` of every module of the package."""
    package = Path(__file__).parent
    problems: list[str] = []
    for path in sorted(package.rglob("*.py")):
        shown = path.relative_to(package.parent).as_posix()
        problems.extend(docstring_problems(path.read_text(encoding="utf-8"), shown))
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: rewrite (or, with ``--check``, list) the stale docstrings.

    Args:
        argv: The arguments (``sys.argv[1:]`` when None).
    """
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n", 1)[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="list the stale files and exit 1 if any")
    arguments = parser.parse_args(argv)
    root = Path.cwd()
    files = stale_files() if arguments.check else write()
    for path in files:
        shown = path.relative_to(root) if path.is_relative_to(root) else path
        print(f"{'stale' if arguments.check else 'rewritten'}: {shown}")
    if arguments.check and files:
        print(f"run {COMMAND} to write them")
        return 1
    problems = malformed()
    for problem in problems:
        print(f"malformed: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
