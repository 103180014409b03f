"""``--api-version``: which version of the service the commands speak, and its client.

The versions are the library's registry (``route_planning_async/_versions.py``):
this room finds a version's client class (and so its namespaces, models and
inputs) in the package the registry names; the rest of the tool asks this room.
A version's package is imported only when a command uses it.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, TypeAlias, cast

import attrs

from route_planning_async._cli._errors import InputError
from route_planning_async._client import BASE_URL_ENV
from route_planning_async._versions import API_VERSIONS, V0_2B, ApiVersion, api_version

if TYPE_CHECKING:
    from route_planning_async import RoutePlanningClient as V0_2bClient
    from route_planning_async.v1 import RoutePlanningClient as V1Client

    AnyClient: TypeAlias = V0_2bClient | V1Client

__all__ = [
    "API_VERSIONS",
    "API_VERSION_ENV",
    "DEFAULT_API_VERSION",
    "StopInputs",
    "as_v0_2b",
    "as_v1",
    "check_base_url",
    "client_class",
    "require_version",
    "stop_inputs",
]

API_VERSION_ENV: Final = "ROUTE_PLANNING_API_VERSION"
"""The environment variable ``--api-version`` reads."""
DEFAULT_API_VERSION: Final = V0_2B.name
"""The version the commands speak unless told otherwise."""


def client_class(version: str) -> type[AnyClient]:
    """The client class of ``version`` (``v0.2b`` or ``v1``), its package imported now.

    Raises:
        InputError: No such version is registered.
    """
    client: type[AnyClient] = _registered(version).module().RoutePlanningClient
    return client


def _registered(version: str) -> ApiVersion:
    try:
        return api_version(version)
    except ValueError as exc:
        raise InputError(f"--api-version: {exc}") from None


def require_version(version: str, needed: str, what: str) -> None:
    """Refuse a command that only ``needed`` has, run with another ``--api-version``.

    Raises:
        InputError: ``version`` is not ``needed``.
    """
    if version != needed:
        raise InputError(
            f"{what} needs --api-version {needed} (or {API_VERSION_ENV}={needed}); "
            f"the {version} API has no such call"
        )


def as_v1(client: AnyClient, what: str) -> V1Client:
    """``client`` as the v1 client it must be for ``what`` (a command only v1 has).

    Raises:
        InputError: The client speaks another version.
    """
    return cast("V1Client", _of_version(client, "v1", what))


def as_v0_2b(client: AnyClient, what: str) -> V0_2bClient:
    """``client`` as the v0.2b client it must be for ``what`` (a workflow written for v0.2b).

    Raises:
        InputError: The client speaks another version.
    """
    return cast("V0_2bClient", _of_version(client, "v0.2b", what))


def _of_version(client: AnyClient, version: str, what: str) -> AnyClient:
    if not isinstance(client, client_class(version)):
        raise InputError(f"{what} needs --api-version {version} (or {API_VERSION_ENV}={version})")
    return client


@attrs.frozen
class StopInputs:
    """An API version's ``StopInput`` and ``OrderInfoInput``, that a CSV row's stop is built
    of (``_csv.build_stop``; the other nested inputs are shared by the versions)."""

    stop: Callable[..., Any]
    """The version's ``StopInput``."""
    order_info: Callable[..., Any]
    """The version's ``OrderInfoInput``."""


def stop_inputs(version: str) -> StopInputs:
    """The stop input classes of ``version``, its package imported now.

    Raises:
        InputError: No such version is registered.
    """
    inputs = _registered(version).module()
    return StopInputs(inputs.StopInput, inputs.OrderInfoInput)


def check_base_url(base_url: str | None, version: str) -> None:
    """Refuse a service address that names another version than ``--api-version``.

    A base URL whose last path segment is a version (``…/public/v0.2b``) must be
    the chosen one's: a v1 client sent to the v0.2b service would fail on every
    call that changed between them, far from the cause.

    Raises:
        InputError: the address ends with another version's name, or is no URL.
    """
    if base_url is None:
        return
    try:
        path = urllib.parse.urlsplit(base_url).path
    except ValueError as exc:
        raise InputError(f"--base-url {base_url}: not a URL ({exc})") from None
    last = path.rstrip("/").rpartition("/")[2]
    if last in API_VERSIONS and last != version:
        # Either may come from the environment (an emulator's --print-env exports both).
        raise InputError(
            f"the service address {base_url} (--base-url or ${BASE_URL_ENV}) is the {last} "
            f"service, but the API version is {version} (--api-version or ${API_VERSION_ENV}): "
            f"give the {version} address, or --api-version {last}"
        )
