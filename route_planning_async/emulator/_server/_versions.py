"""The API versions the emulator serves, each below its own base path, from one store.

It serves every version of the library's registry (``route_planning_async/_versions.py``,
which gives each its name and base path). To serve another version, give it a
package beside ``v0_2b/`` (its route table, request rules, views and handlers, as
an :class:`ApiVersion`) and list it here; ``tests/unit/test_versions.py`` fails
while a registered version is not served.
"""

from __future__ import annotations

from typing import Final

from route_planning_async import ConfigurationError
from route_planning_async._versions import API_VERSIONS
from route_planning_async.emulator._wire._api import ApiVersion
from route_planning_async.emulator.v0_2b import V0_2B
from route_planning_async.emulator.v1 import V1

__all__ = ["DEFAULT_VERSION", "VERSIONS", "api_version"]

VERSIONS: Final = (V0_2B, V1)
"""Every version served."""
DEFAULT_VERSION: Final = V0_2B
"""The version of ``Emulator.base_url``, the client's and the webhook events'."""


def api_version(name: str) -> ApiVersion:
    """The served version called ``name`` (``v0.2b``, ``v1``).

    Raises:
        ConfigurationError: The emulator serves no version of that name; the message
            names the served ones (and the library's, if they differ).
    """
    for version in VERSIONS:
        if version.name == name:
            return version
    served = ", ".join(version.name for version in VERSIONS)
    known = "" if served == ", ".join(API_VERSIONS) else f" (the library speaks {', '.join(API_VERSIONS)})"
    raise ConfigurationError(f"the emulator serves no API version {name!r}; it serves {served}{known}")
