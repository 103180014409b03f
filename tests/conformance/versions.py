"""The API versions the conformance suite holds the client and the emulator to: one row each.

A row (:class:`Version`) names the version's official document and what of the
library and the test support speaks it: the endpoint table, the models each
answer decodes into, the converter, the validation of bodies against the
document, and the base path the emulator serves the version under. Every test
of the suite runs once per row of :data:`VERSIONS`; a test that drives the
client (its calls differ between versions) keeps its calls per version name.
Each row is made from the library's registry (``route_planning_async/_versions.py``),
which gives its name, base path and client; ``tests/unit/test_versions.py`` fails
while a registered version has no row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import attrs
from emulator import openapi

from route_planning_async import _versions
from route_planning_async._converter import Codec
from route_planning_async._core import Endpoint
from route_planning_async.v0_2b import _converter as v0_2b_converter
from route_planning_async.v0_2b._endpoints import ENDPOINTS as V0_2B_ENDPOINTS
from route_planning_async.v1 import _converter as v1_converter
from route_planning_async.v1._endpoints import ENDPOINTS as V1_ENDPOINTS

from . import v0_2b, v1
from .schema import Decoding

__all__ = ["V0_2B", "V1", "VERSIONS", "Converter", "Validation", "Version"]

TESTS = Path(__file__).resolve().parent.parent


class Validation(Protocol):
    """Validation of bodies against a version's document, its listed differences patched.

    Each version's :class:`~emulator.openapi.OpenApiDocument` (``tests/emulator/openapi.py``),
    which reads the same document.
    """

    @property
    def KNOWN_DIFFERENCES(self) -> Sequence[Any]: ...

    def request_errors(self, template: str, method: str, body: Any) -> list[str]: ...

    def response_errors(self, template: str, method: str, status: int, body: Any) -> list[str]: ...


@attrs.frozen
class Converter:
    """How a version's client reads and writes JSON."""

    structure: Callable[[Any, type[Any]], Any]
    """JSON object -> model, as the client's methods decode one answer."""
    structure_list: Callable[[Any, type[Any]], list[Any]]
    """JSON array -> models, as the paginator decodes a page."""
    unstructure: Callable[[Any], Any]
    """Model -> JSON."""
    wire_names: Callable[[str], tuple[str, ...]]
    """The JSON keys an attribute is read from."""

    @classmethod
    def of(cls, codec: Codec) -> Converter:
        """The functions of a version's :class:`~route_planning_async._converter.Codec`,
        those its ``_converter.py`` publishes."""
        return cls(codec.structure, codec.structure_list, codec.unstructure, codec.read_names)


@attrs.frozen(eq=False)
class Version:
    """One API version and what speaks it."""

    name: str
    """As the service names it (``v0.2b``)."""
    schema: Path
    """The official OpenAPI document (request and response schemas)."""
    endpoints: Mapping[str, Endpoint]
    """The client's endpoint table."""
    decoding: Decoding
    """The model of every 2xx answer, and what no model holds."""
    converter: Converter
    """The client's JSON converter."""
    validation: Validation
    """Validation of bodies against the document."""
    emulator_base_path: str
    """Where the emulator serves the version (the client's base URL is the origin and this)."""
    client: Callable[..., Any]
    """The version's client class (its ``RoutePlanningClient``)."""


V0_2B = Version(
    name=_versions.V0_2B.name,
    schema=TESTS / "emulator" / "data" / "public-openapi-v0.2b.json",
    endpoints=V0_2B_ENDPOINTS,
    decoding=v0_2b.DECODING,
    converter=Converter.of(v0_2b_converter.CODEC),
    validation=openapi.V0_2B,
    emulator_base_path=_versions.V0_2B.base_path,
    client=_versions.V0_2B.module().RoutePlanningClient,
)

V1 = Version(
    name=_versions.V1.name,
    schema=TESTS / "emulator" / "data" / "public-openapi-v1.json",
    endpoints=V1_ENDPOINTS,
    decoding=v1.DECODING,
    converter=Converter.of(v1_converter.CODEC),
    validation=openapi.V1,
    emulator_base_path=_versions.V1.base_path,
    client=_versions.V1.module().RoutePlanningClient,
)

VERSIONS: tuple[Version, ...] = (V0_2B, V1)
"""Every version the suite checks."""
