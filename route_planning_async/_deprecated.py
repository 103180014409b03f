"""The bulk importer's old, stop-named names, kept for one release as deprecated aliases.

The importer (``_import/``) knows no kind of row and names none; before it spoke
of stops. Each old name still works, with a :class:`DeprecationWarning` naming
its successor, and goes in the next release:

===========================================  ==========================================
Deprecated                                   Use
===========================================  ==========================================
``route_planning_async.RejectedStop``        :class:`~route_planning_async.RejectedRow`
``route_planning_async.DuplicateStop``       :class:`~route_planning_async.DuplicateRow`
``ImportReport.rejected_stops``              :attr:`ImportReport.rejected`
``ImportReport.stop_id(position)``           :meth:`ImportReport.id_of`
``RejectedRow.stop``                         :attr:`RejectedRow.input`
``FailedBatch.stops``                        :attr:`FailedBatch.inputs`
``RejectedStop(stop=...)``                   ``RejectedRow(input=...)``
===========================================  ==========================================

The classes of ``_import/`` take the mixins below; the top-level package reads
:data:`RENAMED` for the two class names. This room imports nothing of the
library, so the engine's rooms can build on it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, Final, Protocol

__all__ = [
    "MISSING",
    "RENAMED",
    "FailedBatchAliases",
    "ImportReportAliases",
    "RejectedRowAliases",
    "rejected_row_input",
    "renamed",
]

RENAMED: Final[Mapping[str, str]] = {"RejectedStop": "RejectedRow", "DuplicateStop": "DuplicateRow"}
"""The deprecated top-level class names and their successors."""


def _warn(old: str, new: str, stacklevel: int = 3) -> None:
    warnings.warn(
        f"{old} is deprecated and goes in the next release; use {new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


MISSING: Final[Any] = object()
"""The default of an argument that may come under its deprecated keyword instead."""


def rejected_row_input(value: Any, given: Mapping[str, Any]) -> Any:
    """``RejectedRow``'s ``input``, given as ``value`` or as the last release's ``stop=``."""
    return _renamed_keyword("RejectedRow", "stop", "input", value, given)


def _renamed_keyword(owner: str, old: str, new: str, value: Any, given: Mapping[str, Any]) -> Any:
    """The argument ``new`` of ``owner()``, given as ``value`` or under its old keyword ``old``
    in ``given`` (the call's other keywords), with a warning pointing at the caller's line.

    Raises:
        TypeError: A keyword ``owner()`` does not take, both names given, or neither.
    """
    unknown = sorted(given.keys() - {old})
    if unknown:
        raise TypeError(f"{owner}() got an unexpected keyword argument {unknown[0]!r}")
    if old not in given:
        if value is MISSING:
            raise TypeError(f"{owner}() missing required argument: {new!r}")
        return value
    if value is not MISSING:
        raise TypeError(f"{owner}() got both {new}= and its old name {old}=")
    # The caller's line: past this function, its caller here and ``owner``'s ``__init__``.
    _warn(f"{owner}({old}=...)", f"{owner}({new}=...)", stacklevel=5)
    return given[old]


def renamed(module: str, namespace: Mapping[str, Any], name: str) -> Any:
    """A module's ``__getattr__``: the successor of a deprecated name of :data:`RENAMED`, with a
    warning pointing at the line that used the name (``__getattr__`` returns this call's result).

    Raises:
        AttributeError: ``name`` is not a deprecated name.
    """
    new = RENAMED.get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(
        f"{module}.{name} is deprecated and goes in the next release; use {module}.{new}",
        DeprecationWarning,
        # The user's line, past the module's ``__getattr__``: Python shows a DeprecationWarning
        # by default only where ``__main__`` triggers it.
        stacklevel=3,
    )
    return namespace[new]


class _Rejection(Protocol):
    @property
    def input(self) -> Any: ...


class _Batch(Protocol):
    @property
    def inputs(self) -> tuple[Any, ...]: ...


class _Report(Protocol):
    @property
    def rejected(self) -> list[Any]: ...

    def id_of(self, position: int) -> str | None: ...


class RejectedRowAliases:
    """``RejectedRow.stop``, deprecated."""

    __slots__ = ()

    @property
    def stop(self: _Rejection) -> Any:
        """Deprecated: :attr:`input`."""
        _warn("RejectedStop.stop", "RejectedRow.input")
        return self.input


class FailedBatchAliases:
    """``FailedBatch.stops``, deprecated."""

    __slots__ = ()

    @property
    def stops(self: _Batch) -> tuple[Any, ...]:
        """Deprecated: :attr:`inputs`."""
        _warn("FailedBatch.stops", "FailedBatch.inputs")
        return self.inputs


class ImportReportAliases:
    """``ImportReport.rejected_stops`` and ``ImportReport.stop_id``, deprecated."""

    __slots__ = ()

    @property
    def rejected_stops(self: _Report) -> list[Any]:
        """Deprecated: :attr:`rejected`."""
        _warn("ImportReport.rejected_stops", "ImportReport.rejected")
        return self.rejected

    def stop_id(self: _Report, position: int) -> str | None:
        """Deprecated: :meth:`id_of`."""
        _warn("ImportReport.stop_id()", "ImportReport.id_of()")
        return self.id_of(position)
