"""Every version's package shows the same face: its ``RoutePlanningClient``, inputs and models.

The rule the export lists are held to: **two versions' packages export the same
names, except a name that only one version has** -- one the other version's
package defines nowhere (not in its client, models, inputs, namespaces, import
targets or live edit block). A name both versions have must be exported by
both. The top-level package stays v0.2b's: each of its names that v0.2b's
package exports is the same object.
"""

from __future__ import annotations

import inspect
import itertools
import types
import typing

import pytest

import route_planning_async as rp
from route_planning_async._client import Namespace
from route_planning_async._versions import API_VERSIONS, V0_2B, VERSIONS, ApiVersion

ROOMS = ("_client", "_models", "_inputs", "resources", "_import_targets", "_live_edit")
"""A version package's modules that define what it exports."""

PAIRS = [pytest.param(a, b, id=f"{a.name}-{b.name}") for a, b in itertools.combinations(VERSIONS, 2)]


def _defines(version: ApiVersion, name: str) -> bool:
    return any(hasattr(version.module(room), name) for room in ROOMS)


def _exports(package: types.ModuleType) -> list[str]:
    names: list[str] = package.__all__
    return names


@pytest.mark.parametrize("version", VERSIONS, ids=API_VERSIONS)
def test_each_version_exports_its_client_inputs_and_models(version: ApiVersion) -> None:
    package = version.module()
    names = _exports(package)
    assert names == sorted(names, key=lambda name: (not name.isupper(), name))
    assert all(hasattr(package, name) for name in names)
    assert package.RoutePlanningClient is version.module("_client").RoutePlanningClient
    for room in ("_models", "_inputs"):
        public = [name for name in version.module(room).__all__ if name[0].isupper()]
        assert set(public) <= set(names), room


@pytest.mark.parametrize(("one", "other"), PAIRS)
def test_two_versions_export_the_same_names_but_what_only_one_has(one: ApiVersion, other: ApiVersion) -> None:
    for this, that in ((one, other), (other, one)):
        only_here = set(_exports(this.module())) - set(_exports(that.module()))
        shared_but_unexported = {name for name in only_here if _defines(that, name)}
        assert not shared_but_unexported, (
            f"{that.name} has but does not export {sorted(shared_but_unexported)}"
        )


def test_the_top_level_stays_v0_2b() -> None:
    package = V0_2B.module()
    for name in set(rp.__all__) & set(_exports(package)):
        assert getattr(rp, name) is getattr(package, name), name
    own = {name for name in rp.__all__ if _defines(V0_2B, name)}
    assert own <= set(_exports(package))


@pytest.mark.parametrize("version", VERSIONS, ids=API_VERSIONS)
def test_each_versions_namespaces_name_their_types_once_as_type_parameters(version: ApiVersion) -> None:
    resources = version.module("resources")
    typed = [
        cls
        for cls in vars(resources).values()
        if isinstance(cls, type) and issubclass(cls, Namespace) and cls.__module__.startswith(version.package)
    ]
    assert len(typed) >= 9, [cls.__name__ for cls in typed]
    for cls in typed:
        given = [arg for base in cls.__dict__.get("__orig_bases__", ()) for arg in typing.get_args(base)[1:]]  # type: ignore[attr-defined]
        assert [getattr(cls, name) for name in cls._typed] == given, cls.__name__
        source = inspect.getsource(cls)
        assert not any(f"    {name} = " in source for name in cls._typed), cls.__name__
