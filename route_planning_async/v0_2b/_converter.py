"""v0.2b's converter: its models, inputs and wire names, and the hooks of its own shapes.

The machinery (names, dates and epoch seconds, the compiled structure
functions, decode errors) is the version-free ``route_planning_async/_converter.py``;
this room registers what is v0.2b's:

- Wire names that are not the camelCase of the attribute (:data:`WIRE_NAMES`):
  ``client_id`` is sent as the official ``circuitClientId`` and read from it, the
  contract's ``serviceClientId`` or v1's ``clientId``.
- ``Operation.result`` is told apart by its keys: ``code`` means failure
  (contract, Operations), ``numOptimizedStops`` success, anything else is kept
  as an ``UnknownResult``.
- Import failures: ``{error: {message}, stop: {...}}`` (``unassignedStop`` for an
  unassigned stop import, ``driver`` for a driver import) as
  :class:`ImportFailure` and :class:`DriverImportFailure`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

import attrs
import cattrs

from route_planning_async import _converter
from route_planning_async._converter import json_type, structure_items, structure_with
from route_planning_async._errors import DecodeError
from route_planning_async.v0_2b import _inputs, _models

__all__ = [
    "CONVERTER",
    "WIRE_NAMES",
    "make_converter",
    "structure",
    "structure_list",
    "unstructure",
    "wire_name",
]

T = TypeVar("T")

_MODELS: Final[frozenset[type]] = frozenset(
    getattr(_models, name) for name in _models.__all__ if attrs.has(getattr(_models, name))
)
_INPUTS: Final[frozenset[type]] = frozenset(
    getattr(_inputs, name) for name in _inputs.__all__ if attrs.has(getattr(_inputs, name))
)
_RESULT_TYPE: Final = _models.OptimizationSuccess | _models.OptimizationFailure | _models.UnknownResult | None

WIRE_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "client_id": ("circuitClientId", "serviceClientId", "clientId"),
}
"""Attributes whose JSON key is not their camelCase: the key sent first, then every
key read (in order of preference). The official schema names the stop's client id
``circuitClientId``; the contract ``serviceClientId``; API v1 ``clientId``."""


def _structure_import_failure(value: Any, _: Any) -> _models.ImportFailure:
    if not isinstance(value, dict):
        raise DecodeError("", value, f"expected an import failure object, got {json_type(value)}")
    error = value.get("error") or {}
    if not isinstance(error, dict):
        raise DecodeError("error", error, f"expected an object, got {json_type(error)}")
    # Plan stop imports echo the stop under "stop" (contract); unassigned stop
    # imports under "unassignedStop" (public API documentation).
    echo = value.get("stop", value.get("unassignedStop")) or {}
    if not isinstance(echo, dict):
        raise DecodeError("stop", echo, f"expected an object, got {json_type(echo)}")
    return _models.ImportFailure(message=str(error.get("message", "")), stop=dict(echo))


def _unstructure_import_failure(value: _models.ImportFailure) -> dict[str, Any]:
    return {"error": {"message": value.message}, "stop": value.stop}


def _structure_driver_import_failure(value: Any, _: Any) -> _models.DriverImportFailure:
    # POST /drivers:import answers each failure as {error: {message}, driver: {...}}.
    error = value.get("error") or {}
    return _models.DriverImportFailure(
        message=str(error.get("message", "")), driver=dict(value.get("driver") or {})
    )


def _unstructure_driver_import_failure(value: _models.DriverImportFailure) -> dict[str, Any]:
    return {"error": {"message": value.message}, "driver": value.driver}


def _register_hooks(converter: cattrs.Converter) -> None:
    """The hooks of v0.2b's own shapes: an operation's result, import failures."""
    success_hook: Callable[[Any, Any], _models.OptimizationSuccess] = converter.get_structure_hook(
        _models.OptimizationSuccess
    )
    failure_hook: Callable[[Any, Any], _models.OptimizationFailure] = converter.get_structure_hook(
        _models.OptimizationFailure
    )

    def structure_result(
        value: Any, _: Any
    ) -> _models.OptimizationSuccess | _models.OptimizationFailure | _models.UnknownResult | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise DecodeError("", value, f"expected a result object, got {json_type(value)}")
        if "code" in value:
            return failure_hook(value, _models.OptimizationFailure)
        if "numOptimizedStops" in value:
            return success_hook(value, _models.OptimizationSuccess)
        # A result of a shape this version does not know: kept whole, never
        # mistaken for a success of zero stops.
        return _models.UnknownResult(raw=dict(value))

    converter.register_structure_hook_func(lambda t: t == _RESULT_TYPE, structure_result)
    converter.register_structure_hook(_models.ImportFailure, _structure_import_failure)
    converter.register_unstructure_hook(_models.ImportFailure, _unstructure_import_failure)
    converter.register_structure_hook(_models.DriverImportFailure, _structure_driver_import_failure)
    converter.register_unstructure_hook(_models.DriverImportFailure, _unstructure_driver_import_failure)


def make_converter() -> cattrs.Converter:
    """A new converter configured for v0.2b's JSON."""
    return _converter.make_converter(_MODELS, _INPUTS, WIRE_NAMES, _register_hooks)


CONVERTER: Final = make_converter()
"""The library's converter."""


def structure(data: Any, cl: type[T]) -> T:
    """JSON data -> an instance of the model ``cl``; a :class:`DecodeError` if it cannot be."""
    return structure_with(CONVERTER, data, cl)


def structure_list(data: Any, cl: type[T]) -> list[T]:
    """A JSON array -> a list of ``cl``; a :class:`DecodeError` naming ``[index]`` if it cannot be."""
    hook: Callable[[Any, Any], T] = CONVERTER.get_structure_hook(cl)
    return structure_items(data, hook, cl)


def unstructure(value: Any) -> Any:
    """A model or input -> its JSON data (camelCase; UNSET input fields omitted)."""
    return CONVERTER.unstructure(value)


def wire_name(name: str) -> str:
    """The JSON key an attribute is sent as."""
    names = WIRE_NAMES.get(name)
    return names[0] if names else _converter.camel_case(name)
