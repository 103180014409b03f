"""Route tables: endpoints, their rate-limit categories and body rules, and path matching.

Each API version has a :class:`RouteTable` (its endpoints below its base path);
:meth:`RouteTable.match` finds the endpoint of a path (404 for no such path, 405
for a wrong method) and :meth:`RouteTable.checked_path_ids` checks the ids it
captured (400).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

import attrs

from route_planning_async._docs import described, fields_documented
from route_planning_async._limits import Category
from route_planning_async.emulator._problems import Problem
from route_planning_async.emulator._validation import ID_RE

__all__ = ["BodyMode", "MethodNotAllowed", "RouteSpec", "RouteTable"]

BodyMode = Literal["none", "required", "optional"]
_SEGMENT = r"[^/:]+"


@fields_documented(title="Attributes")
@attrs.frozen
class RouteSpec:
    """One endpoint of the emulator."""

    name: str = attrs.field(
        metadata=described("Endpoint name, the same as the client's endpoint table (``plans.optimize``).")
    )
    method: str = attrs.field(metadata=described("HTTP method the endpoint takes."))
    template: str = attrs.field(metadata=described("Path below the base path with ``{placeholders}``."))
    category: Category = attrs.field(metadata=described("Rate-limit category (contract, Limits)."))
    body: BodyMode = attrs.field(metadata=described("Whether a JSON body is required, optional or refused."))

    @property
    def pattern(self) -> re.Pattern[str]:
        """The template as an anchored regular expression."""
        regex = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>{_SEGMENT})", self.template)
        return re.compile(regex)


class MethodNotAllowed(Problem):
    """405 with the ``Allow`` header listing the methods the path takes."""

    def __init__(self, allowed: list[str]) -> None:
        super().__init__(
            405,
            f"Method not allowed; use {', '.join(allowed)}",
            "method_not_allowed",
            headers={"Allow": ", ".join(allowed)},
        )


class RouteTable:
    """The endpoints of one API version, in matching order.

    Args:
        routes: Every endpoint, in matching order.
        path_params: The name an error gives each captured id (``plan``: ``planId``).
    """

    def __init__(self, routes: tuple[RouteSpec, ...], path_params: Mapping[str, str]) -> None:
        self.routes = routes
        """Every endpoint, in matching order."""
        self._compiled = tuple((route, route.pattern) for route in routes)
        self._path_params = dict(path_params)

    def match(self, method: str, path: str) -> tuple[RouteSpec, dict[str, str]]:
        """The endpoint of ``path`` (below the base path) and the ids it captured."""
        allowed: list[str] = []
        for route, pattern in self._compiled:
            match = pattern.fullmatch(path)
            if match is None:
                continue
            if route.method == method:
                return route, match.groupdict()
            allowed.append(route.method)
        if allowed:
            raise MethodNotAllowed(allowed)
        raise Problem.not_found(f"No endpoint at {path}")

    def checked_path_ids(self, params: dict[str, str]) -> dict[str, str]:
        """The captured ids, once each is 1 to 50 of ``[A-Za-z0-9_-]`` (else 400)."""
        for name, value in params.items():
            if ID_RE.fullmatch(value) is None:
                raise Problem.invalid(
                    self._path_params.get(name, name), "must be 1 to 50 letters, digits, '-' or '_'"
                )
        return params
