"""Any endpoint, answered undecoded (``client.raw`` of every version).

A version's ``client.raw`` is a :class:`RawNamespace` with the version's
:class:`~route_planning_async._client.VersionTable`, whose endpoint table gives
the category of a known method and path.
"""

from __future__ import annotations

import math
import re
from collections.abc import (
    Iterable,
    Mapping,
    Sequence,
)
from typing import Any, ClassVar

from route_planning_async._checks._validators import UNSET, UnsetType
from route_planning_async._client._namespace import ClientCalls, Namespace
from route_planning_async._core import Endpoint, Request, Response, encode_body, json_problem
from route_planning_async._errors import ValidationError
from route_planning_async._rate_limits._limits import Category

__all__ = ["Query", "RawNamespace"]


class RawNamespace(Namespace[ClientCalls]):
    """Any endpoint, answered as the HTTP response itself (``client.raw``).

    For what the models do not show: the status and headers of an answer, a
    field this version does not model, an endpoint newer than the library.
    Requests still pass the scheduler (limits, queues, retries of 429s, 5xx
    and lost connections), in the category of the endpoint table that matches
    the method and path; a path the table does not know needs ``category=``.
    The answer is returned whatever its status: nothing is raised for an
    error status or decoded.

    Everything is checked before the scheduler admits the request, so a
    refused one is neither counted nor sent: the path (no ``.`` or ``..``
    segment, which would be resolved to another endpoint than the one its
    category was chosen for), the query and the JSON body.
    """

    __slots__ = ()

    _patterns: ClassVar[list[tuple[re.Pattern[str], Endpoint]]] = []

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_table" in vars(cls):
            cls._patterns = _endpoint_patterns(cls._table.endpoints.values())

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Query = (),
        json: object = UNSET,
        category: Category | str | None = None,
        weight: int | None = None,
    ) -> Response:
        """Send one request and return the service's final answer.

        Args:
            method: ``GET``, ``POST``, ``PATCH`` or ``DELETE``.
            path: Below the base URL, e.g. ``/plans/p1`` or a serialized id
                (``plans/p1/stops/s1``); the scheduler's category is looked up from it.
                Letters, digits, ``-``, ``_``, ``:``, ``.`` and ``/``, without ``.`` or
                ``..`` segments.
            query: Query parameters, as a mapping or a sequence of ``(name, value)``
                pairs; names are ``str``, values ``str``, ``int`` or finite ``float``
                (a ``bool`` is refused: spell it as the endpoint wants, ``"true"``).
            json: A JSON body: ``dict`` (``str`` keys), ``list``, ``str``, finite
                numbers, ``bool`` and ``None``; none when not given.
            category: The rate-limit category, for a path the endpoint table
                does not know (it must agree with the table's otherwise).
            weight: The request's weight for weighted rules: by default the number of
                items of a batch import's body (its list, or the list it holds), else 1.

        Returns:
            The :class:`Response`, whatever its status.

        Raises:
            ValidationError: For a bad method, path, query, body, category or weight
                (nothing was admitted or sent).
        """
        given: object = method
        verb = given.upper() if isinstance(given, str) else given
        if verb not in ("GET", "POST", "PATCH", "DELETE"):
            raise ValidationError("method", f"must be GET, POST, PATCH or DELETE, got {method!r}")
        relative = _raw_path(path)
        known = _category_of(self._patterns, verb, relative)
        chosen = known
        if category is not None:
            try:
                chosen = Category(category)
            except ValueError:
                raise ValidationError("category", f"is not a rate-limit category: {category!r}") from None
            if known is not None and chosen is not known:
                where = f"{verb} {relative} is in {known.value!r}"
                raise ValidationError("category", f"{where}, not {chosen.value!r}")
        if chosen is None:
            unknown = f"{verb} {relative} is not in the endpoint table"
            raise ValidationError("category", f"{unknown}: give category=")
        amount: object = weight if weight is not None else _weight_of(json, chosen)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise ValidationError("weight", f"must be a positive int, got {weight!r}")
        pairs = _query_pairs(query)
        body = None if isinstance(json, UnsetType) else _json_body(json)
        return await self._client._send(Request(verb, relative, chosen, pairs, body, amount))

    async def get(self, path: str, *, query: Query = ()) -> Response:
        """``request("GET", path, query=query)``: e.g. the headers of ``plans/p1``.

        Args:
            path: Below the base URL, e.g. ``/plans/p1`` or a serialized id.
            query: Query parameters, as :meth:`request` takes them.

        Returns:
            The :class:`Response`, whatever its status.
        """
        return await self.request("GET", path, query=query)


def _weight_of(body: object, category: Category) -> int:
    """A raw request's weight: the items of a batch import (``[...]`` or ``{"unassignedStops": [...]}``)."""
    if category is not Category.BATCH_IMPORT:
        return 1
    if isinstance(body, list):
        return max(len(body), 1)
    if isinstance(body, dict):
        lists = [value for value in body.values() if isinstance(value, list)]
        if len(lists) == 1:
            return max(len(lists[0]), 1)
    return 1


_RAW_PATH = re.compile(r"/?[A-Za-z0-9_:./-]+")

_PATH_RULE = "must be a path below the base URL (letters, digits, '-', '_', ':', '.', '/')"


def _raw_path(path: object) -> str:
    """``path`` as a path below the base URL, starting with ``/``; nothing that leaves it."""
    if not isinstance(path, str) or not _RAW_PATH.fullmatch(path) or "//" in path:
        raise ValidationError("path", f"{_PATH_RULE}, got {path!r}")
    if any(segment in (".", "..") for segment in path.split("/")) or ".." in path:
        # The URL library resolves dot segments before sending: plans/./p1:optimize
        # would reach another endpoint than the one its category was chosen for.
        raise ValidationError("path", f"{_PATH_RULE}, without a '.' or '..' segment, got {path!r}")
    return path if path.startswith("/") else f"/{path}"


Query = Mapping[str, str | int | float] | Sequence[tuple[str, str | int | float]]
"""Query parameters of a raw request: a mapping, or ``(name, value)`` pairs."""

_QUERY_RULE = "must be a mapping or a sequence of (name, value) pairs"


def _query_pairs(query: object) -> tuple[tuple[str, str], ...]:
    """``query`` as ``(name, value)`` pairs of ``str``; each one checked before anything is admitted."""
    if isinstance(query, Mapping):
        items = list(query.items())
        fields = [f"query.{name}" if isinstance(name, str) else "query" for name, _ in items]
    elif isinstance(query, Sequence) and not isinstance(query, str | bytes | bytearray):
        items = []
        fields = [f"query[{index}]" for index in range(len(query))]
        for field, pair in zip(fields, query, strict=True):
            if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise ValidationError(field, f"must be a (name, value) pair, got {pair!r}")
            items.append((pair[0], pair[1]))
    else:
        raise ValidationError("query", f"{_QUERY_RULE}, got {type(query).__name__}")
    return tuple(_query_pair(field, name, value) for field, (name, value) in zip(fields, items, strict=True))


def _query_pair(field: str, name: object, value: object) -> tuple[str, str]:
    """One checked query parameter, its value spelt as it is sent."""
    if not isinstance(name, str) or not name:
        raise ValidationError(field, f"a parameter's name must be a non-empty str, got {name!r}")
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        rule = "must be a str, int or float (spell a bool as the endpoint wants it)"
        raise ValidationError(field, f"{rule}, got {type(value).__name__} {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError(field, f"must be a finite number, got {value!r}")
    text = value if isinstance(value, str) else str(value)
    if json_problem(name) or json_problem(text):
        raise ValidationError(field, "cannot be encoded as UTF-8")
    return (name, text)


def _json_body(body: object) -> bytes:
    """``body`` encoded, when it is JSON all through (else the field that is not)."""
    problem = json_problem(body, "json")
    if problem is not None:
        raise ValidationError(*problem)
    return encode_body(body)


def _category_of(
    patterns: Iterable[tuple[re.Pattern[str], Endpoint]], method: str, path: str
) -> Category | None:
    """The category of the endpoint of the table that ``method path`` is, if any."""
    for pattern, endpoint in patterns:
        if endpoint.method == method and pattern.fullmatch(path):
            return endpoint.category
    return None


def _endpoint_patterns(endpoints: Iterable[Endpoint]) -> list[tuple[re.Pattern[str], Endpoint]]:
    """Each endpoint of a table with the pattern of the paths it answers."""
    return [
        (re.compile(re.sub(r"\\\{\w+\\\}", "[A-Za-z0-9_-]+", re.escape(endpoint.template))), endpoint)
        for endpoint in endpoints
    ]
