"""The conformance suite: the clients and the emulator held against each version's official document.

``hypothesis-jsonschema`` 0.23 (its latest release) drives Hypothesis's private
``many`` helper through ``more()``, which newer Hypothesis releases replaced by a
context manager and iteration. :func:`_many_more` gives ``many`` the old method on
top of the new protocol, so the generator runs on every Hypothesis the test
dependencies allow; nothing changes where ``more()`` still exists.
"""

from __future__ import annotations

from typing import Any

from hypothesis.internal.conjecture import utils as conjecture_utils


def _many_more(self: Any) -> bool:
    """``many.more()`` in terms of ``with many(...) as elements: for _ in elements``."""
    iterator = getattr(self, "_conformance_iterator", None)
    if iterator is None:
        self.__enter__()
        iterator = self._conformance_iterator = iter(self)
    try:
        next(iterator)
    except StopIteration:
        self.__exit__(None, None, None)
        return False
    return True


if not hasattr(conjecture_utils.many, "more"):
    conjecture_utils.many.more = _many_more  # type: ignore[attr-defined]
