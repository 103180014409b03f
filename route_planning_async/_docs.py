"""Texts written once and shown wherever they apply.

A field or an option is described in one place: the ``doc`` metadata of its
attrs field (:func:`described`). From there, at import time, this module writes
the ``Keyword Args:`` section of every docstring that takes it: the class
docstring of an input (:func:`fields_documented`, so ``help(StopInput)`` lists
its constructor's keywords) and the docstring of every method that takes the
fields or options as ``**keywords`` (:func:`keywords_documented`). The docs
site reads the same generated docstrings (``docs/_griffe_docstrings.py``).

A text may name words that differ between the places that show it, as
``{rows}`` or ``{key}``: each place fills them in (``stops`` and
``recipient.external_id`` for a stop import, ``drivers`` and ``email or phone``
for a driver import).

Types are the field's annotation as written, with ``UnsetType`` left out (a
field left :data:`~route_planning_async.UNSET` is simply not given).
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, ForwardRef, TypeVar, overload

import attrs

__all__ = [
    "Keyword",
    "described",
    "fields_documented",
    "keyword_section",
    "keywords_documented",
    "keywords_of",
]

_DOC: Final = "route_planning_async.doc"
_WIDTH: Final = 100
_SECTION_HEADS: Final = re.compile(r"^(Returns|Yields|Raises|Example|Examples|Note|Notes):\s*$")
_UNSET_MEMBER: Final = re.compile(r"\s*\|\s*UnsetType\b|\bUnsetType\s*\|\s*")

C = TypeVar("C", bound=type)
F = TypeVar("F", bound=Callable[..., Any])


def described(text: str, **metadata: object) -> dict[str, object]:
    """The metadata of an attrs field whose text is ``text`` (``attrs.field(metadata=described(...))``)."""
    return {**metadata, _DOC: inspect.cleandoc(text)}


@attrs.frozen
class Keyword:
    """One entry of a ``Keyword Args:`` section."""

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
    keywords: Iterable[Keyword], words: Mapping[str, str] | None = None, *, title: str = "Keyword Args"
) -> str:
    """The ``Keyword Args:`` section (or another ``title``) listing ``keywords``, indented as a
    method docstring's sections."""
    lines = [f"{title}:"]
    for keyword in keywords:
        text = _fill(keyword.text, words or {})
        entry = f"{keyword.name} ({keyword.type}): {' '.join(text.split())}"
        lines += textwrap.wrap(
            entry, _WIDTH, initial_indent="    ", subsequent_indent="        ", break_on_hyphens=False
        )
    return "\n".join(lines)


def _fill(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each ``{word}`` of ``words`` filled in (other braces are left as they are)."""
    for word, value in words.items():
        text = text.replace(f"{{{word}}}", value)
    return text


def _with_section(doc: str | None, section: str) -> str:
    """``doc`` (cleaned) with ``section`` placed before its Returns/Raises sections."""
    lines = inspect.cleandoc(doc or "").splitlines()
    at = next((i for i, line in enumerate(lines) if _SECTION_HEADS.match(line)), len(lines))
    head = "\n".join(lines[:at]).rstrip()
    tail = "\n".join(lines[at:])
    return f"{head}\n\n{section}\n" + (f"\n{tail}\n" if tail else "")


@overload
def fields_documented(cls: C, /) -> C: ...
@overload
def fields_documented(*, title: str = "Keyword Args") -> Callable[[C], C]: ...
def fields_documented(cls: C | None = None, /, *, title: str = "Keyword Args") -> C | Callable[[C], C]:
    """Class decorator (above ``@attrs.frozen``): the class docstring lists the constructor's keywords.

    ``@fields_documented(title="Attributes")`` lists them under that title instead
    (a response model, whose fields are read rather than given).
    """

    def decorate(documented: C) -> C:
        section = keyword_section(keywords_of(documented), title=title)
        documented.__doc__ = _with_section(documented.__doc__, section)
        return documented

    return decorate if cls is None else decorate(cls)


def keywords_documented(*keywords: Iterable[Keyword], **words: str) -> Callable[[F], F]:
    """Decorator: the method's docstring gets a ``Keyword Args:`` section listing ``keywords``,
    their ``{word}`` placeholders filled from ``words``."""
    listed = [keyword for group in keywords for keyword in group]

    def decorate(function: F) -> F:
        function.__doc__ = _with_section(function.__doc__, keyword_section(listed, words))
        return function

    return decorate
