"""What every v0.2b namespace shares: the client protocol, the base class, id paths and update bodies."""

from __future__ import annotations

from collections.abc import (
    Callable,
    Mapping,
)
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

import attrs

from route_planning_async import _ids
from route_planning_async._core import Request, Response
from route_planning_async._errors import RoutePlanningError, ValidationError
from route_planning_async._limits import RateLimits
from route_planning_async._pagination import FilterValue, Paginator, list_query
from route_planning_async._scheduler import Clock
from route_planning_async._validators import a_or_an
from route_planning_async.v0_2b._converter import structure
from route_planning_async.v0_2b._models import (
    Depot,
    Driver,
    Operation,
    Plan,
    Route,
    Stop,
    UnassignedStop,
)

if TYPE_CHECKING:
    from route_planning_async.v0_2b.resources.depots import Depots
    from route_planning_async.v0_2b.resources.drivers import Drivers
    from route_planning_async.v0_2b.resources.operations import Operations
    from route_planning_async.v0_2b.resources.plans import Plans
    from route_planning_async.v0_2b.resources.routes import Routes
    from route_planning_async.v0_2b.resources.stops import Stops
    from route_planning_async.v0_2b.resources.unassigned_stops import UnassignedStops

M = TypeVar("M")
U = TypeVar("U")

# Fields an update can never carry, and why (contract, Stops rule 2 and the
# unassigned stop update table).
_NOT_UPDATABLE: Final = {
    "address": "a stop's location cannot be updated; delete the stop and create a new one",
    "client_id": "cannot be updated (it is set on create and import only)",
    "service_client_id": "cannot be updated (it is set on create and import only)",
}


def _update_body(cls: type[U], update: U | None, fields: Mapping[str, Any]) -> U:
    """The update object from either an instance of ``cls`` or its fields as keywords."""
    if update is not None:
        if fields:
            raise ValidationError("update", f"give a {cls.__name__} or keyword fields, not both")
        if not isinstance(update, cls):
            raise ValidationError("update", f"must be {a_or_an(cls.__name__)}, got {type(update).__name__}")
        return update
    known = attrs.fields_dict(cls)  # type: ignore[arg-type]
    for name in fields:
        if name not in known:
            raise ValidationError(name, _NOT_UPDATABLE.get(name, f"is not a field of {cls.__name__}"))
    return cls(**fields)


class _Client(Protocol):
    """What a namespace needs of the client that owns it (``RoutePlanningClient`` is one)."""

    @property
    def plans(self) -> Plans: ...
    @property
    def stops(self) -> Stops: ...
    @property
    def unassigned_stops(self) -> UnassignedStops: ...
    @property
    def operations(self) -> Operations: ...
    @property
    def depots(self) -> Depots: ...
    @property
    def drivers(self) -> Drivers: ...
    @property
    def routes(self) -> Routes: ...
    @property
    def rate_limits(self) -> RateLimits: ...
    @property
    def _clock(self) -> Clock: ...
    async def _execute(self, request: Request, *, on_sent: Callable[[], None] | None = None) -> Any: ...
    async def _send(self, request: Request) -> Response: ...


class _Resource:
    """A namespace bound to one client."""

    __slots__ = ("_client",)

    def __init__(self, client: _Client) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"

    async def _fetch(self, request: Request, model: type[M], on_sent: Callable[[], None] | None = None) -> M:
        """Send ``request`` and decode its answer as ``model`` (``on_sent``: see ``_execute``)."""
        data = await self._client._execute(request, on_sent=on_sent)
        if not isinstance(data, dict):
            # Every response body is a JSON object (contract, General conventions).
            raise RoutePlanningError(
                f"{request.describe()}: expected a JSON object, got {type(data).__name__}"
            )
        try:
            return structure(data, model)
        except (KeyError, TypeError, ValueError) as exc:
            raise RoutePlanningError(
                f"{request.describe()}: the answer does not have the shape of {model.__name__}: {exc!r}"
            ) from exc

    def _paginate(
        self,
        endpoint: str,
        model: type[M],
        key: str,
        *,
        path: Mapping[str, str] | None = None,
        filter: Mapping[str, FilterValue] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[M]:
        query = list_query(endpoint, filter=filter, max_page_size=max_page_size)
        return Paginator(
            self._client._execute, endpoint, model, key, path=path, query=query, page_token=page_token
        )


def _stop_path(stop_id: str) -> dict[str, str]:
    plan, stop = _ids.stop_ref(stop_id)
    return {"plan": plan, "stop": stop}


def _checked(value: object, cls: type[M], field: str) -> M:
    if not isinstance(value, cls):
        raise ValidationError(field, f"must be {a_or_an(cls.__name__)}, got {type(value).__name__}")
    return value


_SERIALIZED_ID_RULE: Final = (
    "must be plans/<id>, plans/<id>/stops/<id>, unassignedStops/<id>, operations/<id>, depots/<id>, "
    "routes/<id> or drivers/<id>"
)


async def get_by_serialized_id(
    client: _Client, serialized_id: str
) -> Plan | Stop | UnassignedStop | Operation | Depot | Route | Driver:
    """Fetch any resource by its serialized id, as the matching model
    (contract, General conventions: GET ``{base_url}/<serialized id>``)."""
    given: object = serialized_id
    parts = given.split("/") if isinstance(given, str) else []
    match parts:
        case ["plans", _]:
            return await client.plans.get(serialized_id)
        case ["plans", _, "stops", _]:
            return await client.stops.get(serialized_id)
        case ["unassignedStops", _]:
            return await client.unassigned_stops.get(serialized_id)
        case ["operations", _]:
            return await client.operations.get(serialized_id)
        case ["depots", _]:
            return await client.depots.get(serialized_id)
        case ["routes", _]:
            return await client.routes.get(serialized_id)
        case ["drivers", _]:
            return await client.drivers.get(serialized_id)
    raise ValidationError("serialized_id", f"{_SERIALIZED_ID_RULE}, got {serialized_id!r}")
