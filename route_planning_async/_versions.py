"""The API versions the library speaks: one registry, read by every part that must know them.

Each :class:`ApiVersion` names a version as the service does (``v0.2b``), the
package that holds what is its own (``route_planning_async.v0_2b``), the path
its endpoints live below (``/public/v0.2b``), the limits its documentation
publishes (by name) and its decoder (the version's ``_converter.CODEC``). The
error codes (``_errors/_codes.py``), the webhook decoder (``webhooks.py``), the
clients, the command line (``_cli/_versions.py``), the emulator
(``emulator/_server/_versions.py``) and the conformance suite read this table;
``tests/unit/test_versions.py`` fails when one of them misses a version listed
here. A name that is not listed is an error that names the known ones
(:func:`api_version`).

This room is on the ground floor: it imports no version's package. A version's
modules are imported by name when :meth:`ApiVersion.module` is first asked.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Final, Protocol, TypeVar, cast

import attrs

__all__ = ["API_VERSIONS", "V0_2B", "V1", "VERSIONS", "ApiVersion", "Decoder", "api_version"]

T = TypeVar("T")


class Decoder(Protocol):
    """What a version's converter decodes JSON with (``Codec.structure``)."""

    def structure(self, data: Any, cl: type[T]) -> T:
        """``data`` as an instance of ``cl``, one of the version's models."""


@attrs.frozen
class ApiVersion:
    """One API version the library speaks, and where what is its own lives."""

    name: str
    """As the service names it: the last segment of its base path, the ``version`` of
    its webhook events, ``--api-version``'s value."""
    package: str
    """The package of its client, endpoint table, models, inputs and converter."""
    base_path: str
    """Every endpoint of the version lives below this path of the service's origin."""
    limits: str
    """The name (``contract`` or ``public-docs``, as ``--limits`` takes it) of the limits its
    documentation publishes: what its client assumes given none, and what an emulator serving it
    first enforces given none."""

    def module(self, room: str = "") -> ModuleType:
        """The version's package, or one of its modules (``"_models"``), imported now."""
        return importlib.import_module(f"{self.package}.{room}" if room else self.package)

    def decoder(self) -> Decoder:
        """The version's JSON decoder (its ``_converter.CODEC``), its package imported now."""
        return cast("Decoder", self.module("_converter").CODEC)


V0_2B: Final = ApiVersion("v0.2b", "route_planning_async.v0_2b", "/public/v0.2b", "contract")
"""The version the library was founded on; the top-level package's."""
V1: Final = ApiVersion("v1", "route_planning_async.v1", "/public/v1", "public-docs")
"""The service's current version."""

VERSIONS: Final = (V0_2B, V1)
"""Every version the library speaks, oldest first."""
API_VERSIONS: Final = tuple(version.name for version in VERSIONS)
"""Their names (``("v0.2b", "v1")``)."""


def api_version(name: str) -> ApiVersion:
    """The registered version called ``name``.

    Raises:
        ValueError: No version of that name is registered; the message names the known ones.
    """
    for version in VERSIONS:
        if version.name == name:
            return version
    raise ValueError(f"unknown API version {name!r}; the library speaks {', '.join(API_VERSIONS)}")
