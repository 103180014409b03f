"""schemathesis over an official file, against a live emulator whose objects were seeded first.

:func:`running_emulator` starts ``python -m route_planning_async.emulator`` (plain HTTP, no rate
limits, sped up); :func:`seed` makes plans (writable, optimized, distributed), stops,
drivers, depots, members, unassigned stops and operations through the API, so the
generated requests reach the 2xx paths; :func:`run_schemathesis` writes a
``schemathesis.toml`` binding each path parameter to the seeded ids (drawn 9 times in 10)
and runs ``schemathesis run`` with every check and a fixed seed. The failures the
reviewed list (``known.py``) holds are dropped by the ``filter_failure`` hook (``hooks.py``)
and tallied; any other fails the run.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

SPEC_DIR = Path(__file__).resolve().parents[1] / "emulator" / "data"
"""Where the official files are (``public-openapi-v0.2b.json``, ``public-openapi-v1.json``; v0.2b's
without its descriptions and examples)."""

SPEC_FILES = {"v0.2b": "public-openapi-v0.2b.json", "v1": "public-openapi-v1.json"}

SEED = 20261128
"""The fixed seed of every run."""

EXAMPLES_ENV = "ROUTE_PLANNING_FUZZ_EXAMPLES"
"""Examples per operation: ``nox -s fuzz`` sets 300; the bounded pass of ``nox -s matrix`` takes 3."""

TALLY_ENV = "ROUTE_PLANNING_FUZZ_TALLY"
"""The file the hook appends the id of each known failure it dropped to."""

_TESTS = SPEC_DIR.parents[1]
_KEY = "emulator-api-key"
_STARTS = {"day": 2, "month": 6, "year": 2026}


def examples() -> int:
    """The examples per operation of this run."""
    return int(os.environ.get(EXAMPLES_ENV, "3"))


@contextlib.contextmanager
def running_emulator() -> Iterator[str]:
    """The origin (``http://127.0.0.1:<port>``) of an emulator process, stopped on exit."""
    command = [sys.executable, "-m", "route_planning_async.emulator", "--http", "--no-limits"]
    command += ["--speedup", "1000", "--seed", "7"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        if not first.startswith("base_url: "):
            raise RuntimeError(f"the emulator did not start: {first!r}")
        yield first.removeprefix("base_url: ").strip().removesuffix("/public/v0.2b")
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()


class _Api:
    """JSON calls to one version of the emulator."""

    def __init__(self, origin: str, version: str) -> None:
        self.base = f"{origin}/public/{version}"

    def __call__(self, method: str, path: str, body: Any = None) -> Any:
        auth = base64.b64encode(f"{_KEY}:".encode()).decode()
        headers = {"Authorization": f"Basic {auth}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
        return json.loads(raw) if raw else None


def _bare(resource_id: str) -> str:
    return resource_id.rsplit("/", 1)[-1]


def seed(origin: str) -> dict[str, list[str]]:
    """Objects of every kind, made through the API; the bare ids of each path parameter."""
    v0, v1 = _Api(origin, "v0.2b"), _Api(origin, "v1")
    ids: dict[str, list[str]] = collections.defaultdict(list)
    drivers = ["drivers/driver-ana", "drivers/driver-ben"]
    for state in ("writable", "writable", "writable", "optimized", "optimized", "distributed"):
        plan = v0("POST", "/plans", {"title": f"Fuzz {state}", "starts": _STARTS, "drivers": drivers})
        stops = [{"address": {"addressLineOne": f"{n} Fuzz Street", "city": "London"}} for n in range(4)]
        imported = v0("POST", f"/{plan['id']}/stops:import", stops)
        ids["planId"].append(_bare(plan["id"]))
        ids["stopId"] += [_bare(stop) for stop in imported["success"]]
        if state == "writable":
            continue
        operation = v0("POST", f"/{plan['id']}:optimize")
        ids["operationId"].append(_bare(operation["id"]))
        ids["routeId"] += [_bare(route) for route in v0("GET", f"/{plan['id']}")["routes"]]
        if state == "distributed":
            v0("POST", f"/{plan['id']}:distribute")
    for n in range(3):
        driver = v0("POST", "/drivers", {"name": f"Fuzz {n}", "email": f"fuzz{n}@example.com"})
        ids["driverId"].append(_bare(driver["id"]))
        stop = v0(
            "POST", "/unassignedStops", {"address": {"addressLineOne": f"{n} Pool Lane", "city": "London"}}
        )
        ids["unassignedStopId"].append(_bare(stop["id"]))
    ids["driverId"] += [_bare(driver) for driver in drivers]
    overrides = {
        "startAddress": {"addressLineOne": "9 Depot Road", "city": "London"},
        "startTime": {"hour": 8, "minute": 0},
    }
    depot = v1("POST", "/depots", {"name": "Fuzz depot", "routeOverrides": overrides})
    ids["depotId"] += [_bare(depot["id"]), "north"]
    for n in range(2):
        member = v1(
            "POST",
            "/members",
            {"name": f"Member {n}", "email": f"member{n}@example.com", "role": "dispatcher"},
        )
        ids["memberId"].append(_bare(member["id"]))
    properties = v0("GET", "/team/customStopProperties")["customStopProperties"]
    ids["customStopPropertyId"] += [prop["id"] for prop in properties]
    return dict(ids)


def _toml(value: Any) -> str:
    return json.dumps(value)


def config_text(ids: dict[str, list[str]]) -> str:
    """The ``schemathesis.toml`` binding each path parameter to its seeded ids."""
    lines: list[str] = []
    for name, values in sorted(ids.items()):
        lines += [f"[dictionaries.{name}]", f"values = {_toml(values)}", ""]
    lines.append("[parameters]")
    for name in sorted(ids):
        lines.append(f'"path.{name}" = {{ dictionary = "{name}", probability = 0.9 }}')
    return "\n".join(lines) + "\n"


@attrs.frozen
class Outcome:
    """What one run gave."""

    exit_code: int
    report: dict[str, Any]
    known: collections.Counter[str]
    output: str

    @property
    def generated(self) -> int:
        """The test cases generated."""
        return int(self.report["test_cases"]["generated"])


def run_schemathesis(version: str, origin: str, ids: dict[str, list[str]], workdir: Path) -> Outcome:
    """``schemathesis run`` over ``version``'s official file, every check, the fixed seed."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "schemathesis.toml"
    config.write_text(config_text(ids))
    tally = workdir / "known.txt"
    tally.write_text("")
    report = workdir / "report.json"
    auth = base64.b64encode(f"{_KEY}:".encode()).decode()
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
        str(SPEC_DIR / SPEC_FILES[version]), "--url", f"{origin}/public/{version}",
        "-H", f"Authorization: Basic {auth}", "--checks", "all", "--seed", str(SEED),
        "--max-examples", str(examples()), "--workers", "1",
        "--report", "json", "--report-json-path", str(report), "--warnings", "off",
    ]  # fmt: skip
    pythonpath = os.pathsep.join([str(_TESTS), str(_TESTS.parent), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "fuzz.hooks", TALLY_ENV: str(tally), "PYTHONPATH": pythonpath}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False, cwd=workdir)
    known = collections.Counter(line for line in tally.read_text().splitlines() if line)
    data = json.loads(report.read_text()) if report.exists() else {}
    (workdir / "output.txt").write_text(done.stdout)
    (workdir / "stderr.txt").write_text(done.stderr)
    return Outcome(done.returncode, data, known, done.stdout)
