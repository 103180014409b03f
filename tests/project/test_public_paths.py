"""Every public import path imports, wherever its module lives inside the package.

The package's rooms may be cut and moved (ARCHITECTURE.md); what a user imports may
not. The public paths are the names of each public package's ``__all__``,
``route_planning_async.redis.RedisBackend``, ``python -m route_planning_async.emulator``,
and the entry points ``pyproject.toml`` declares (the ``route-planning`` command and
the pytest plugin), as the installed package's metadata declares them too.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import pathlib
import tomllib

import pytest

PYPROJECT = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"
PUBLIC_PACKAGES = (
    "route_planning_async",
    "route_planning_async.v0_2b",
    "route_planning_async.v1",
    "route_planning_async.emulator",
    "route_planning_async.redis",
    "route_planning_async.webhooks",
)
"""The packages whose ``__all__`` is public."""


def _exported() -> list[tuple[str, str]]:
    return [
        (package, name) for package in PUBLIC_PACKAGES for name in importlib.import_module(package).__all__
    ]


def _declared_entry_points() -> dict[tuple[str, str], str]:
    """``(group, name)`` to ``module:attribute`` (or ``module``), as ``pyproject.toml`` declares them."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    declared = {("console_scripts", name): value for name, value in project.get("scripts", {}).items()}
    for group, entries in project.get("entry-points", {}).items():
        declared.update({(group, name): value for name, value in entries.items()})
    return declared


def test_the_walk_finds_the_public_paths() -> None:
    exported = _exported()
    assert ("route_planning_async.emulator", "Emulator") in exported
    assert ("route_planning_async.redis", "RedisBackend") in exported
    assert ("route_planning_async.v1", "RoutePlanningClient") in exported
    assert len(exported) > 200
    assert _declared_entry_points()[("pytest11", "route_planning_async")] == (
        "route_planning_async.emulator.pytest_plugin"
    )


@pytest.mark.parametrize(("package", "name"), _exported(), ids=lambda value: value)
def test_each_name_of_a_public_all_imports(package: str, name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from {package} import {name}", namespace)  # as a user writes it
    assert namespace[name] is getattr(importlib.import_module(package), name)


def test_the_emulator_runs_as_a_module() -> None:
    assert importlib.util.find_spec("route_planning_async.emulator.__main__") is not None
    main = importlib.import_module("route_planning_async.emulator.__main__")
    assert callable(main.main)


@pytest.mark.parametrize(("group", "name"), list(_declared_entry_points()), ids=lambda value: value)
def test_each_declared_entry_point_loads(group: str, name: str) -> None:
    value = _declared_entry_points()[(group, name)]
    module, _, attribute = value.partition(":")
    loaded = importlib.import_module(module)
    if attribute:
        assert callable(getattr(loaded, attribute))
    installed = [entry.value for entry in importlib.metadata.entry_points(group=group, name=name)]
    assert installed in ([], [value]), f"the installed metadata declares {installed}, pyproject.toml {value}"
