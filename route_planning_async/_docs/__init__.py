"""Texts written once and shown wherever they apply.

A field or an option is described in one place: the ``doc`` metadata of its
attrs field (:func:`described`). The docstrings that show it are written from
there by a generator, into the source (``python -m
route_planning_async._docs._gen``): the ``Keyword Args:`` section of the class
docstring of an input (:func:`fields_documented`, so ``help(StopInput)`` lists
its constructor's keywords) and of every method that takes the fields or
options as ``**keywords`` (:func:`keywords_documented`). The decorators only
register what the generator writes; nothing here changes a ``__doc__``, so an
editor's hover, ``help()`` and the docs site show the same written text.

A text may name words that differ between the places that show it, as
``{rows}`` or ``{key}``: each place fills them in (``stops`` and
``recipient.external_id`` for a stop import, ``drivers`` and ``email or phone``
for a driver import).

Types are the field's annotation as written, with ``UnsetType`` left out (a
field left :data:`~route_planning_async.UNSET` is simply not given).

The docs machinery's room: this module (the texts and the decorators that register
where they are shown), ``_gen.py`` (the generator) and ``_deprecated.py`` (the old
names kept for one release as deprecated aliases). This module and
``_deprecated.py`` import nothing of the library, so every room can build on them;
``_gen.py`` imports every module of the package as it runs, so no module imports it.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, ForwardRef, TypeVar, overload

import attrs

__all__ = [
    "GeneratedSection",
    "Keyword",
    "described",
    "docstring_documented",
    "fields_documented",
    "generated_sections",
    "keyword_section",
    "keywords_documented",
    "keywords_of",
    "section_documented",
    "with_section",
]

_DOC: Final = "route_planning_async.doc"
_WIDTH: Final = 100
_UNSET_MEMBER: Final = re.compile(r"\s*\|\s*UnsetType\b|\bUnsetType\s*\|\s*")

C = TypeVar("C", bound=type)
F = TypeVar("F", bound=Callable[..., Any])


def described(text: str, **metadata: object) -> dict[str, object]:
    """The metadata of an attrs field whose text is ``text`` (``attrs.field(metadata=described(...))``)."""
    return {**metadata, _DOC: inspect.cleandoc(text)}


@attrs.frozen
class Keyword:
    """One entry of a ``Keyword Args:`` section.

    Attributes:
        name (str): The keyword.
        type (str): Its type, as the docstring shows it.
        text (str): What it is; ``{word}`` placeholders are filled in where it is shown.
    """

    name: str
    """The keyword."""
    type: str
    """Its type, as the docstring shows it."""
    text: str
    """What it is; ``{word}`` placeholders are filled in where it is shown."""


def _type_text(annotation: object) -> str:
    if isinstance(annotation, ForwardRef):  # a TypedDict keeps its string annotations as these
        annotation = annotation.__forward_arg__
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    return _UNSET_MEMBER.sub("", text)


def _default_text(field: attrs.Attribute[Any]) -> str:
    """`` Default X.`` for a field with a plain default that its text does not already name."""
    default = field.default
    if default is attrs.NOTHING or isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        return ""
    if getattr(default, "name", None) == "UNSET":
        return ""
    return f" Default {default!r}."


def keywords_of(
    cls: type,
    *,
    types: type | None = None,
    only: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    defaults: bool = False,
) -> list[Keyword]:
    """The documented fields of the attrs class ``cls``, in their order.

    Args:
        cls: An attrs class whose fields carry :func:`described` metadata.
        types: Take each keyword's type from this class's annotations (a
            ``TypedDict`` that a method unpacks) instead of ``cls``'s.
        only: Just these fields; None: every documented field.
        exclude: Leave these fields out.
        defaults: Add each field's default to its text (for options).
    """
    annotations = _annotations(types if types is not None else cls)
    wanted = None if only is None else set(only)
    skipped = set(exclude)
    keywords = []
    for field in attrs.fields(cls):
        text = field.metadata.get(_DOC)
        if text is None or field.name in skipped or (wanted is not None and field.name not in wanted):
            continue
        type_text = _type_text(annotations.get(field.name, field.type))
        keywords.append(Keyword(field.name, type_text, text + (_default_text(field) if defaults else "")))
    return keywords


def _annotations(cls: type) -> dict[str, object]:
    merged: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        merged.update(getattr(klass, "__annotations__", {}))
    return merged


def keyword_section(
    keywords: Iterable[Keyword],
    words: Mapping[str, str] | None = None,
    *,
    title: str = "Keyword Args",
    width: int = _WIDTH,
) -> str:
    """The ``Keyword Args:`` section (or another ``title``) listing ``keywords``, indented as a
    method docstring's sections, its lines at most ``width`` characters."""
    lines = [f"{title}:"]
    for keyword in keywords:
        text = _fill(keyword.text, words or {})
        named = f"{keyword.name} ({keyword.type})" if keyword.type else keyword.name
        entry = f"{named}: {' '.join(text.split())}"
        lines += textwrap.wrap(
            entry, width, initial_indent="    ", subsequent_indent="        ", break_on_hyphens=False
        )
    return "\n".join(lines)


def _fill(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each ``{word}`` of ``words`` filled in (other braces are left as they are)."""
    for word, value in words.items():
        text = text.replace(f"{{{word}}}", value)
    return text


Written = Callable[[str, str], list[str]]
"""What a rewrite is given to read another docstring: the lines the generator writes for the
object ``qualname`` of ``module``."""

Rewrite = Callable[[list[str], int, Written], list[str]]
"""A generated text: given a docstring's lines as written (cleaned; empty if it has none), the
width its lines must keep to, and :data:`Written`, the lines the docstring is to hold."""

_SECTION_HEADS: Final = re.compile(r"^(Returns|Yields|Raises|Example|Examples|Note|Notes):\s*$")


@attrs.frozen
class GeneratedSection:
    """A text that the generator writes into the docstring of one object of the source.

    Attributes:
        module (str): The module that defines the object.
        qualname (str): The object's qualified name in it (empty: the module's own docstring).
        rewrite (Rewrite): What the docstring is to hold, from what it holds.
    """

    module: str
    """The module that defines the object."""
    qualname: str
    """The object's qualified name in it (empty: the module's own docstring)."""
    rewrite: Rewrite
    """What the docstring is to hold, from what it holds."""


_SECTIONS: Final[list[GeneratedSection]] = []


def generated_sections() -> list[GeneratedSection]:
    """Every text registered so far, in the order the modules were imported."""
    return list(_SECTIONS)


def docstring_documented(module: str, qualname: str, rewrite: Rewrite) -> None:
    """Register a generated text of a docstring for the generator to write into the source.

    Args:
        module: The module that defines the object (``__name__``).
        qualname: The object's qualified name in it; empty for the module's docstring.
        rewrite: What the docstring is to hold (:data:`Rewrite`).
    """
    _SECTIONS.append(GeneratedSection(module, qualname, rewrite))


def section_documented(module: str, qualname: str, title: str, text: Callable[[int], str]) -> None:
    """Register a section of a docstring for the generator to write into the source.

    Args:
        module: The module that defines the object (``__name__``).
        qualname: The object's qualified name in it; empty for the module's docstring.
        title: The section's first line, without its colon: the section so titled is replaced
            (or added, before ``Returns:``, ``Raises:`` and the like).
        text: Called with a width: the section, its title line first.
    """

    def rewrite(lines: list[str], width: int, written: Written) -> list[str]:
        return with_section(lines, title, text(width).split("\n"))

    docstring_documented(module, qualname, rewrite)


def section_end(lines: list[str], start: int) -> int:
    """The end of the section whose title is ``lines[start]``: its indented lines and table rows."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "|"))):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return end


def with_section(lines: list[str], title: str, section: list[str]) -> list[str]:
    """``lines`` with the section titled ``title`` replaced by ``section`` (added if missing,
    before the first ``Returns:``, ``Raises:`` and the like)."""
    head = f"{title}:"
    if head in lines:
        start = lines.index(head)
        return [*lines[:start], *section, *lines[section_end(lines, start) :]]
    at = next((i for i, line in enumerate(lines) if _SECTION_HEADS.match(line)), len(lines))
    before = list(lines[:at])
    while before and not before[-1]:
        before.pop()
    after = list(lines[at:])
    return [*before, *([""] if before else []), *section, *(["", *after] if after else [])]


def _registered(obj: Any, title: str, text: Callable[[int], str]) -> None:
    section_documented(obj.__module__, obj.__qualname__, title, text)


@overload
def fields_documented(cls: C, /) -> C: ...
@overload
def fields_documented(*, title: str = "Keyword Args") -> Callable[[C], C]: ...
def fields_documented(cls: C | None = None, /, *, title: str = "Keyword Args") -> C | Callable[[C], C]:
    """Class decorator (above ``@attrs.frozen``): the class docstring lists the constructor's keywords.

    ``@fields_documented(title="Attributes")`` lists them under that title instead
    (a response model, whose fields are read rather than given). The section is
    written into the source by the generator; the class is returned unchanged.
    """

    def decorate(documented: C) -> C:
        def text(width: int) -> str:
            return keyword_section(keywords_of(documented), title=title, width=width)

        _registered(documented, title, text)
        return documented

    return decorate if cls is None else decorate(cls)


def keywords_documented(*keywords: Iterable[Keyword], **words: str) -> Callable[[F], F]:
    """Decorator: the method's docstring gets a ``Keyword Args:`` section listing ``keywords``,
    their ``{word}`` placeholders filled from ``words`` (written into the source by the
    generator; the method is returned unchanged)."""
    listed = [keyword for group in keywords for keyword in group]

    def decorate(function: F) -> F:
        _registered(function, "Keyword Args", lambda width: keyword_section(listed, words, width=width))
        return function

    return decorate
