"""A client generated from the official v1 file, with its defaults, against ``route-planning emulator``.

openapi-python-client generates the client into ``tmp_path`` at test time (about 3 s of
CPU; the generated code is never committed), and a workflow runs through depots,
drivers, plans, stops import, optimize, operations, distribute, routes, route stops and
search: every call answers 2xx and its answer decodes to the generated model of its
200 (or is a 204).
"""

from __future__ import annotations

import importlib
import inspect
import re
import shlex
import shutil
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from emulator.openapi import V1

pytest.importorskip("openapi_python_client")

_PACKAGE = "route_planning_v1_generated"
_SPEED = "1000"


def _generate(into: Path) -> None:
    tool = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert tool is not None, "openapi-python-client is not installed beside this Python"
    spec = V1.path
    done = subprocess.run(
        [tool, "generate", "--path", str(spec), "--output-path", str(into / _PACKAGE), "--meta", "none"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert (into / _PACKAGE / "client.py").is_file(), done.stdout + done.stderr


@pytest.fixture
def generated(tmp_path: Path) -> Iterator[types.ModuleType]:
    """The generated package, importable for the test's duration."""
    _generate(tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(_PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == _PACKAGE]:
            del sys.modules[name]


@pytest.fixture
def served() -> Iterator[dict[str, str]]:
    """``route-planning emulator --api-version v1``: its exported address and key."""
    command = [sys.executable, "-m", "route_planning_async", "emulator", "--api-version", "v1"]
    command += ["--http", "--no-limits", "--speedup", _SPEED, "--print-env"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        exports = dict(
            shlex.split(line)[1].partition("=")[::2]
            for line in process.stdout.read().splitlines()
            if line.startswith("export ")
        )
        yield exports
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()


class _Calls:
    """Calls through the generated modules, each checked to answer 2xx and decode."""

    def __init__(self, package: types.ModuleType, client: Any) -> None:
        self.package = package
        self.client = client
        self.decoded: list[str] = []

    def __call__(self, name: str, *args: Any, body: Any = None, **kwargs: Any) -> Any:
        module = importlib.import_module(f"{self.package.__name__}.api.{name}")
        if body is not None:
            kwargs["body"] = self._body(module, body)
        response = module.sync_detailed(*args, client=self.client, **kwargs)
        status = int(response.status_code)
        assert 200 <= status < 300, (name, status, response.content[:500])
        if status == 204:
            return None
        parsed = response.parsed
        # The model the generated parser decodes a 200 into, read from its source.
        model = re.search(r"response_200 = (\w+)\.from_dict", inspect.getsource(module))
        assert model is not None, name
        assert type(parsed).__name__ == model.group(1), (name, type(parsed).__name__, response.content[:500])
        self.decoded.append(name)
        return parsed.to_dict()

    @staticmethod
    def _body(module: types.ModuleType, body: Any) -> Any:
        """``body`` (JSON) as the generated model the call's ``body`` parameter names."""
        annotation = typing.get_type_hints(module.sync_detailed)["body"]
        model = next((arg for arg in typing.get_args(annotation) if arg is not module.Unset), annotation)
        if typing.get_origin(model) is list:
            (item,) = typing.get_args(model)
            return [item.from_dict(entry) for entry in body]
        return model.from_dict(body)


def _bare(resource_id: str) -> str:
    return resource_id.rsplit("/", 1)[-1]


@pytest.mark.timeout(300)
def test_a_generated_client_runs_a_workflow_with_its_defaults(
    generated: types.ModuleType, served: dict[str, str]
) -> None:
    client = generated.AuthenticatedClient(
        base_url=served["ROUTE_PLANNING_BASE_URL"], token=served["ROUTE_PLANNING_API_KEY"]
    )
    call = _Calls(generated, client)
    with client:
        depots = call("depots.list_depots")["depots"]
        start = {"addressLineOne": "1 Depot Lane", "city": "London"}
        overrides = {"startAddress": start, "startTime": {"hour": 8, "minute": 0}}
        depot = call("depots.create_depot", body={"name": "Generated", "routeOverrides": overrides})
        call("depots.get_depot", _bare(depot["id"]))
        call("depots.update_depot", _bare(depot["id"]), body={"routeOverrides": {"maxStops": 20}})

        drivers = call("drivers.list_drivers")["drivers"]
        driver = call("drivers.create_driver", body={"name": "Gen", "email": "gen@example.com"})
        call("drivers.get_driver", _bare(driver["id"]))
        call("drivers.update_driver", _bare(driver["id"]), body={"displayName": "G"})

        main = depots[0]["id"]
        seeded = [d["id"] for d in drivers if d["active"] and main in (d["depots"] or [main])][:2]
        starts = {"day": 2, "month": 6, "year": 2026}
        plan = call("plans.create_plan", body={"title": "Generated", "starts": starts, "drivers": seeded})
        plan_id = _bare(plan["id"])
        call("plans.list_plans")
        stops = [
            {
                "address": {"addressLineOne": f"{n} High Street", "city": "London"},
                "recipient": {"externalId": f"g{n}"},
            }
            for n in range(6)
        ]
        imported = call("stops.import_stops", plan_id, body=stops)
        assert len(imported["success"]) == 6
        call("plans.list_plan_stops", plan_id)
        operation = call("plans.optimize_plan", plan_id)
        done = call("operations.get_operation", _bare(operation["id"]))
        assert done["done"] is True
        call("operations.list_operations")
        call("plans.distribute_plan", plan_id)
        routes = call("plans.get_plan", plan_id)["routes"]
        assert routes
        call("routes.list_routes")
        call("routes.get_route", _bare(routes[0]))
        route_stops = call("routes.list_route_stops", _bare(routes[0]))["stops"]
        stop_id = next(s["id"] for s in route_stops if s["type"] == "stop")
        call("stops.get_stop", plan_id, _bare(stop_id))
        found = call("stops.search_stops", keyword="High Street")["stops"]
        assert found
        call("unassigned_stops.list_unassigned_stops")
    assert len(call.decoded) >= 20, call.decoded
