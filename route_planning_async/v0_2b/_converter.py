"""v0.2b's converter: its models, inputs and wire names.

The machinery (names, dates and epoch seconds, the compiled structure
functions, decode errors) is the version-free ``route_planning_async/_converter.py``;
this room registers what is v0.2b's:

- Wire names that are not the camelCase of the attribute (:data:`WIRE_NAMES`):
  ``client_id`` is sent as the official ``circuitClientId`` and read from it, the
  contract's ``serviceClientId`` or v1's ``clientId``.
- The hooks of the shapes of the models both versions share (an operation's
  result, import failures): ``route_planning_async/_models/_hooks.py``.
"""

from __future__ import annotations

from typing import Final

from route_planning_async import _converter
from route_planning_async._converter import attrs_classes
from route_planning_async._models import register_hooks
from route_planning_async.v0_2b import _inputs, _models

__all__ = [
    "CODEC",
    "CONVERTER",
    "WIRE_NAMES",
    "make_converter",
    "structure",
    "structure_list",
    "unstructure",
    "wire_name",
]

WIRE_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "client_id": ("circuitClientId", "serviceClientId", "clientId"),
}
"""Attributes whose JSON key is not their camelCase: the key sent first, then every
key read (in order of preference). The official schema names the stop's client id
``circuitClientId``; the contract ``serviceClientId``; API v1 ``clientId``."""


CODEC: Final = _converter.Codec(attrs_classes(_models), attrs_classes(_inputs), WIRE_NAMES, register_hooks)
"""v0.2b's JSON."""

CONVERTER: Final = CODEC.converter
"""The library's converter."""

make_converter = CODEC.make_converter
structure = CODEC.structure
structure_list = CODEC.structure_list
unstructure = CODEC.unstructure
wire_name = CODEC.wire_name
