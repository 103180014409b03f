"""The base class of every namespace (``client.plans`` and the rest), what a
namespace needs of its client, and the checks every version's methods share.

A namespace (:class:`Namespace`) sends through its client (:class:`ClientCalls`)
and decodes the answer with its version's converter: a version's namespace names
its :class:`VersionTable` (endpoint table and converter) as ``_table``, and the
types it reads and writes as the shared namespace's type parameters, once. (A
version's namespaces live in its ``resources/`` package, one module each.)
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

import attrs

from route_planning_async._checks import _ids
from route_planning_async._checks._validators import a_or_an
from route_planning_async._converter import camel_case
from route_planning_async._core import AttemptHooks, Endpoint, Request, Response, decode
from route_planning_async._errors import DecodeError, ValidationError
from route_planning_async._pagination import FilterCheck, FilterValue, Paginator, list_query
from route_planning_async._rate_limits._limits import RateLimits
from route_planning_async._scheduler import Clock

__all__ = [
    "NOT_UPDATABLE",
    "ClientCalls",
    "Namespace",
    "SerializedIdCalls",
    "VersionTable",
    "by_serialized_id",
    "checked",
    "plan_path",
    "stop_path",
    "update_body",
]

M = TypeVar("M")
WaitOptionsT = TypeVar("WaitOptionsT", bound=Mapping[str, object])
U = TypeVar("U")


class ClientCalls(Protocol):
    """What a namespace needs of the client that owns it (every version's client is one)."""

    @property
    def base_url(self) -> str: ...
    @property
    def rate_limits(self) -> RateLimits: ...
    @property
    def _clock(self) -> Clock: ...
    def _with_polling(self, options: WaitOptionsT) -> WaitOptionsT: ...
    async def _execute(self, request: Request, *, on_sent: AttemptHooks | None = None) -> Any: ...
    def _send(
        self, request: Request, *, on_sent: AttemptHooks | None = None
    ) -> Coroutine[Any, Any, Response]: ...


ClientT = TypeVar("ClientT", bound=ClientCalls)


NOT_UPDATABLE: Final = {
    "address": "a stop's location cannot be updated; delete the stop and create a new one",
    "client_id": "cannot be updated (it is set on create and import only)",
}
"""Fields no update of any version can carry, and why (a version's table adds its own)."""


@attrs.frozen
class VersionTable:
    """What a version's namespaces send through and decode with."""

    endpoints: Mapping[str, Endpoint]
    """The version's endpoint table, by ``namespace.method`` name."""
    structure: Callable[[Mapping[str, Any], type[Any]], Any]
    """The version's converter: a JSON object as a model (raises :class:`DecodeError`)."""
    structure_list: Callable[[Any, type[Any]], list[Any]]
    """The version's converter: a JSON array as a list of a model (raises :class:`DecodeError`)."""
    unstructure: Callable[[Any], Any]
    """The version's converter: an input as its JSON body."""
    not_updatable: Mapping[str, str] = attrs.field(default=NOT_UPDATABLE, kw_only=True)
    """Fields no update of the version can carry, and why (the message)."""

    def update(self, cls: type[U], update: U | None, fields: Mapping[str, Any]) -> U:
        """The update object from either an instance of ``cls`` or its fields as keywords
        (:func:`update_body` with the version's :attr:`not_updatable`)."""
        return update_body(cls, update, fields, self.not_updatable)


class Namespace(Generic[ClientT]):
    """A namespace bound to one client, sending through its version's :class:`VersionTable`.

    A version's namespace sets ``_table``. A shared namespace that reads or
    writes a version's own types (its models, inputs) takes them as type
    parameters after the client and names, in ``_typed``, the class attribute
    each fills: ``class Stops(StopsNamespace[Client, Stop, StopInput, LiveChange])``
    sets ``_model``, ``_input`` and ``_live_change``, so a version names each
    type once. Filter names are taken in ``snake_case`` or ``camelCase`` and
    sent in ``camelCase``.
    """

    __slots__ = ("_client",)

    _table: ClassVar[VersionTable]
    _typed: ClassVar[tuple[str, ...]] = ()

    def __init__(self, client: ClientT) -> None:
        self._client = client

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            names: tuple[str, ...] = getattr(typing.get_origin(base), "_typed", ())
            if not names:
                continue
            _client, *types = typing.get_args(base)
            for name, given in zip(names, types, strict=True):
                if isinstance(given, type):  # a type variable: a shared subclass, still generic
                    setattr(cls, name, given)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"

    def _endpoint(self, name: str) -> Endpoint:
        """The version's endpoint ``name`` (``"drivers.get"``)."""
        return self._table.endpoints[name]

    def _structure(self, data: Mapping[str, Any], model: type[M]) -> M:
        """``data`` as ``model``; raises :class:`DecodeError`."""
        decoded: M = self._table.structure(data, model)
        return decoded

    def _structure_list(self, data: Any, model: type[M]) -> list[M]:
        """``data``, a JSON array, as a list of ``model``; raises :class:`DecodeError`."""
        return self._table.structure_list(data, model)

    async def _execute_object(
        self, request: Request, on_sent: AttemptHooks | None = None
    ) -> Mapping[str, Any]:
        """Send ``request``; its answer, which must be a JSON object (``on_sent``: see ``_execute``)."""
        return self._object(request, await self._client._execute(request, on_sent=on_sent))

    async def _fetch(self, request: Request, model: type[M], on_sent: AttemptHooks | None = None) -> M:
        """Send ``request`` and decode its answer as ``model`` (``on_sent``: see ``_execute``)."""
        # The scheduler's coroutine is awaited here rather than through the client's
        # _execute (and _execute_object): two coroutines fewer on the path of every read.
        client = self._client
        response = await client._send(request, on_sent=on_sent)
        data = self._object(request, decode(request, response, base_url=client.base_url))
        try:
            return self._structure(data, model)
        except DecodeError as error:
            raise self._named(error, request) from error.__cause__

    def _object(self, request: Request, data: Any) -> Mapping[str, Any]:
        """``data``, the answer to ``request``, which must be a JSON object."""
        if not isinstance(data, dict):
            # Every response body is a JSON object (contract, General conventions).
            raise DecodeError(
                "",
                data,
                f"expected a JSON object, got {type(data).__name__}",
                method=request.method,
                request_url=request.url(self._client.base_url),
            )
        return data

    def _named(self, error: DecodeError, request: Request) -> DecodeError:
        """``error``, naming the request whose answer it is about (unless it already names one)."""
        if error.method is not None:
            return error
        return error.for_request(request.method, request.url(self._client.base_url))

    def _paginate(
        self,
        endpoint: str,
        model: type[M],
        key: str,
        *,
        path: Mapping[str, str] | None = None,
        filter: Mapping[str, FilterValue] | None = None,
        filters: Mapping[str, FilterCheck] | None = None,
        max_page_size: int | None = None,
        page_token: str | None = None,
    ) -> Paginator[M]:
        """The lazy pages of the list ``endpoint``, each item decoded as ``model``, found under
        ``key``; ``filters``: the filters the list takes (see :func:`list_query`)."""
        listed = self._endpoint(endpoint)
        query = list_query(
            listed, filter_name=camel_case, filter=filter, max_page_size=max_page_size, filters=filters
        )

        def decode_page(data: Any, item_type: type[M]) -> list[M]:
            try:
                return self._structure_list(data, item_type)
            except DecodeError as error:
                # Every page is a request to the same URL (only its query differs).
                raise self._named(error, listed.request(path)) from error.__cause__

        return Paginator(
            self._execute_object,
            listed,
            model,
            key,
            decode=decode_page,
            path=path,
            query=query,
            page_token=page_token,
        )


def checked(value: object, cls: type[M], field: str) -> M:
    """``value``, when it is a ``cls`` (an input object); else a :class:`ValidationError` naming ``field``."""
    if not isinstance(value, cls):
        raise ValidationError(field, f"must be {a_or_an(cls.__name__)}, got {type(value).__name__}")
    return value


def update_body(
    cls: type[U], update: U | None, fields: Mapping[str, Any], not_updatable: Mapping[str, str]
) -> U:
    """The update object from either an instance of ``cls`` or its fields as keywords.

    Args:
        cls: The update's input class (its fields carry the rules).
        update: An instance given positionally, or None.
        fields: The fields given as keywords.
        not_updatable: Names an update can never carry, and why (the message).

    Returns:
        The checked update.

    Raises:
        ValidationError: Both or a wrong type given, or a field the update does not have.
    """
    if update is not None:
        if fields:
            raise ValidationError("update", f"give a {cls.__name__} or keyword fields, not both")
        if not isinstance(update, cls):
            raise ValidationError("update", f"must be {a_or_an(cls.__name__)}, got {type(update).__name__}")
        return update
    known = attrs.fields_dict(cls)  # type: ignore[arg-type]
    for name in fields:
        if name not in known:
            raise ValidationError(name, not_updatable.get(name, f"is not a field of {cls.__name__}"))
    return cls(**fields)


def plan_path(plan_id: str) -> dict[str, str]:
    """The path values ``{plan}`` of a plan id (``plans/<id>`` or ``<id>``)."""
    return {"plan": _ids.plan_id(plan_id)}


def stop_path(stop_id: str) -> dict[str, str]:
    """The path values ``{plan, stop}`` of a serialized stop id ``plans/<planId>/stops/<stopId>``."""
    plan, stop = _ids.stop_ref(stop_id)
    return {"plan": plan, "stop": stop}


class _Gets(Protocol):
    async def get(self, serialized_id: str, /) -> Any: ...


class SerializedIdCalls(Protocol):
    """The namespaces :func:`by_serialized_id` reads through (every version's client has them)."""

    @property
    def plans(self) -> _Gets: ...
    @property
    def stops(self) -> _Gets: ...
    @property
    def unassigned_stops(self) -> _Gets: ...
    @property
    def operations(self) -> _Gets: ...
    @property
    def depots(self) -> _Gets: ...
    @property
    def routes(self) -> _Gets: ...
    @property
    def drivers(self) -> _Gets: ...


_SERIALIZED_ID_RULE: Final = (
    "must be plans/<id>, plans/<id>/stops/<id>, unassignedStops/<id>, operations/<id>, depots/<id>, "
    "routes/<id> or drivers/<id>"
)


async def by_serialized_id(client: SerializedIdCalls, serialized_id: str) -> Any:
    """Fetch any resource by its serialized id, through the namespace of its kind
    (General conventions: GET ``{base_url}/<serialized id>``); the version's client
    types the answer.

    Raises:
        ValidationError: For a string that is no serialized id.
    """
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
