"""v1's converter: its models and inputs, and the hooks of its own shapes.

The machinery is the version-free ``route_planning_async/_converter.py``
(:class:`~route_planning_async._converter.Codec`), and the hooks of the models
both versions share are ``route_planning_async/_models/_hooks.py``; this room
registers what is v1's:

- Wire names: none. Every v1 key is the camelCase of its attribute
  (``client_id`` is ``clientId``, the official v1 name; v0.2b's
  ``circuitClientId`` is not read, as v1 answers never carry it).
- ``eta``, ``timeAtStopInfo`` and ``serviceInfo`` are written back with only the
  fields that are set, so each keeps the shape its ``status`` names; a
  ``serviceInfo`` value without an ``identifier`` is written back as the
  service answers it, ``{identifier: null, slaStartsAt}``.
- Depot and member import failures (``{error: {message}, depot | member: {...}}``)
  are flattened like stop and driver ones.
"""

from __future__ import annotations

from typing import Any, Final

import cattrs
from cattrs.gen import make_dict_unstructure_fn

from route_planning_async import _converter
from route_planning_async._converter import attrs_classes, renames
from route_planning_async._models import register_hooks as register_shared_hooks
from route_planning_async._models import register_import_failure
from route_planning_async.v1 import _inputs, _models

__all__ = [
    "CODEC",
    "WIRE_NAMES",
    "structure",
    "structure_list",
    "unstructure",
    "wire_name",
]

WIRE_NAMES: Final[dict[str, tuple[str, ...]]] = {}
"""Attributes whose JSON key is not their camelCase: none in v1."""


def _register_hooks(converter: cattrs.Converter) -> None:
    """The shared models' hooks, then v1's own."""
    register_shared_hooks(converter)
    register_import_failure(converter, _models.DepotImportFailure, "depot", ("depot",))
    register_import_failure(converter, _models.MemberImportFailure, "member", ("member",))
    whole = make_dict_unstructure_fn(
        _models.ServiceInfoValue, converter, **renames(_models.ServiceInfoValue, WIRE_NAMES)
    )

    def unstructure_service(value: _models.ServiceInfoValue) -> dict[str, Any]:
        if value.identifier is None:
            return {"identifier": None, "slaStartsAt": converter.unstructure(value.sla_starts_at)}
        encoded: dict[str, Any] = whole(value)
        return encoded

    converter.register_unstructure_hook(_models.ServiceInfoValue, unstructure_service)
    # After the value's hook: a generated function takes the hooks of its fields as they are.
    for cl in (_models.Eta, _models.TimeAtStopInfo, _models.ServiceInfo):
        converter.register_unstructure_hook(
            cl,
            make_dict_unstructure_fn(cl, converter, _cattrs_omit_if_default=True, **renames(cl, WIRE_NAMES)),
        )


CODEC: Final = _converter.Codec(attrs_classes(_models), attrs_classes(_inputs), WIRE_NAMES, _register_hooks)
"""v1's JSON: the v1 client's converter (``CODEC.converter``) and the functions below."""

structure = CODEC.structure
structure_list = CODEC.structure_list
unstructure = CODEC.unstructure
wire_name = CODEC.wire_name
