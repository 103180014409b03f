"""How the library's errors travel through pickle (an import's report made in a worker process).

An exception pickles as its class and ``args``, and is rebuilt by calling the class with
them: the library's errors take keyword arguments, so that call fails. Each one is rebuilt
instead from its ``args`` and its attributes, without calling its ``__init__``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["PicklableError", "picklable_state", "restore_error"]


def picklable_state(error: BaseException) -> dict[str, Any]:
    """The attributes of ``error``; a mapping that is not a dict (aiohttp's headers) as a dict."""
    return {
        key: dict(value.items()) if isinstance(value, Mapping) and not isinstance(value, dict) else value
        for key, value in vars(error).items()
    }


def restore_error(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    """An error back from a pickle: its ``args`` and attributes, without calling its ``__init__``."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class PicklableError(BaseException):
    """The base of the library's errors: pickled as their ``args`` and attributes."""

    def __reduce__(self) -> tuple[Any, ...]:
        return restore_error, (type(self), self.args, picklable_state(self))
