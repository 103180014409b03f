"""The converter hooks of the shared models' own shapes, registered by each version's converter.

- ``Operation.result`` is told apart by its keys: ``code`` means failure
  (contract, Operations), ``numOptimizedStops`` success, anything else is kept
  as an ``UnknownResult``.
- Import failures ``{error: {message}, <echo key>: {...}}`` are flattened into a
  model of ``message`` and the echo (:func:`register_import_failure`): a stop
  import echoes the stop under ``stop`` (``unassignedStop`` for an unassigned stop
  import), a driver import under ``driver``; v1's depot and member imports under
  ``depot`` and ``member``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import cattrs

from route_planning_async._converter import json_type
from route_planning_async._errors import DecodeError
from route_planning_async._models._results import (
    DriverImportFailure,
    ImportFailure,
    OptimizationFailure,
    OptimizationSuccess,
    UnknownResult,
)

__all__ = ["register_hooks", "register_import_failure"]

_RESULT_TYPE: Final = OptimizationSuccess | OptimizationFailure | UnknownResult | None


def register_import_failure(
    converter: cattrs.Converter, cl: type[Any], attribute: str, keys: tuple[str, ...]
) -> None:
    """Decode ``cl`` from ``{error: {message}, <key>: {...}}`` and encode it back.

    Args:
        converter: The version's converter.
        cl: The failure model: ``message`` and the echo attribute.
        attribute: The echo's attribute (``stop``, ``driver`` ...).
        keys: The JSON keys the echo is read from, the first present wins; it is
            written back under the first.
    """

    def structure(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise DecodeError("", value, f"expected an import failure object, got {json_type(value)}")
        error = value.get("error") or {}
        if not isinstance(error, dict):
            raise DecodeError("error", error, f"expected an object, got {json_type(error)}")
        key = next((key for key in keys if key in value), keys[0])
        echo = value.get(key) or {}
        if not isinstance(echo, dict):
            raise DecodeError(key, echo, f"expected an object, got {json_type(echo)}")
        return cl(message=str(error.get("message", "")), **{attribute: dict(echo)})

    def unstructure(value: Any) -> dict[str, Any]:
        return {"error": {"message": value.message}, keys[0]: getattr(value, attribute)}

    converter.register_structure_hook(cl, structure)
    converter.register_unstructure_hook(cl, unstructure)


def register_hooks(converter: cattrs.Converter) -> None:
    """The hooks of the shared models: an operation's result, stop and driver import failures."""
    success_hook: Callable[[Any, Any], OptimizationSuccess] = converter.get_structure_hook(
        OptimizationSuccess
    )
    failure_hook: Callable[[Any, Any], OptimizationFailure] = converter.get_structure_hook(
        OptimizationFailure
    )

    def structure_result(
        value: Any, _: Any
    ) -> OptimizationSuccess | OptimizationFailure | UnknownResult | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise DecodeError("", value, f"expected a result object, got {json_type(value)}")
        if "code" in value:
            return failure_hook(value, OptimizationFailure)
        if "numOptimizedStops" in value:
            return success_hook(value, OptimizationSuccess)
        # A result of a shape this version does not know: kept whole, never
        # mistaken for a success of zero stops.
        return UnknownResult(raw=dict(value))

    converter.register_structure_hook_func(lambda t: t == _RESULT_TYPE, structure_result)
    # Plan stop imports echo the stop under "stop" (contract); unassigned stop
    # imports under "unassignedStop" (public API documentation).
    register_import_failure(converter, ImportFailure, "stop", ("stop", "unassignedStop"))
    register_import_failure(converter, DriverImportFailure, "driver", ("driver",))
