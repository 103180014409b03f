"""Any endpoint, answered undecoded (``client.raw``)."""

from __future__ import annotations

import re
from collections.abc import (
    Mapping,
    Sequence,
)

from route_planning_async._core import Request, Response, encode_body
from route_planning_async._errors import ValidationError
from route_planning_async._limits import Category
from route_planning_async._validators import UNSET, UnsetType
from route_planning_async.v0_2b._endpoints import ENDPOINTS
from route_planning_async.v0_2b.resources._common import _Resource


class Raw(_Resource):
    """Any endpoint, answered as the HTTP response itself (``client.raw``).

    For what the models do not show: the status and headers of an answer, a
    field this version does not model, an endpoint newer than the library.
    Requests still pass the scheduler (limits, queues, retries of 429s, 5xx
    and lost connections), in the category of the endpoint table that matches
    the method and path; a path the table does not know needs ``category=``.
    The answer is returned whatever its status: nothing is raised for an
    error status or decoded.
    """

    __slots__ = ()

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, str] | Sequence[tuple[str, str]] = (),
        json: object = UNSET,
        category: Category | str | None = None,
        weight: int | None = None,
    ) -> Response:
        """Send one request and return the service's final answer.

        Args:
            method: ``GET``, ``POST``, ``PATCH`` or ``DELETE``.
            path: Below the base URL, e.g. ``/plans/p1`` or a serialized id
                (``plans/p1/stops/s1``); the scheduler's category is looked up from it.
            query: Query parameters, as a mapping or pairs.
            json: A JSON body (any JSON-encodable value); none when not given.
            category: The rate-limit category, for a path the endpoint table
                does not know (it must agree with the table's otherwise).
            weight: The request's weight for weighted rules: by default the number of
                items of a batch import's body (its list, or the list it holds), else 1.

        Returns:
            The :class:`Response`, whatever its status.

        Raises:
            ValidationError: For a bad method, path, category or weight.
        """
        given: object = method
        verb = given.upper() if isinstance(given, str) else given
        if verb not in ("GET", "POST", "PATCH", "DELETE"):
            raise ValidationError("method", f"must be GET, POST, PATCH or DELETE, got {method!r}")
        relative = _raw_path(path)
        known = _category_of(verb, relative)
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
        pairs = tuple(query.items()) if isinstance(query, Mapping) else tuple(query)
        body = None if isinstance(json, UnsetType) else encode_body(json)
        return await self._client._send(Request(verb, relative, chosen, pairs, body, amount))

    async def get(self, path: str, *, query: Mapping[str, str] | Sequence[tuple[str, str]] = ()) -> Response:
        """``request("GET", path, query=query)``: e.g. the headers of ``plans/p1``.

        Args:
            path: Below the base URL, e.g. ``/plans/p1`` or a serialized id.
            query: Query parameters, as a mapping or pairs.

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


def _raw_path(path: object) -> str:
    """``path`` as a path below the base URL, starting with ``/``; nothing that leaves it."""
    if not isinstance(path, str) or not _RAW_PATH.fullmatch(path) or ".." in path or "//" in path:
        raise ValidationError(
            "path", f"must be a path below the base URL (letters, digits, '-', '_', ':', '/'), got {path!r}"
        )
    return path if path.startswith("/") else f"/{path}"


def _category_of(method: str, path: str) -> Category | None:
    """The category of the endpoint of the table that ``method path`` is, if any."""
    for pattern, endpoint in _ENDPOINT_PATTERNS:
        if endpoint.method == method and pattern.fullmatch(path):
            return endpoint.category
    return None


_ENDPOINT_PATTERNS = [
    (re.compile(re.sub(r"\\\{\w+\\\}", "[A-Za-z0-9_-]+", re.escape(endpoint.template))), endpoint)
    for endpoint in ENDPOINTS.values()
]
