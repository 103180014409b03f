"""The command line on v1: ``--api-version`` (and ``ROUTE_PLANNING_API_VERSION``),
``depots list|import``, ``members import`` and ``stops search``, against the emulator's
``/public/v1`` (the same store its v0.2b serves)."""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner, Result

from route_planning_async._cli._app import cli
from route_planning_async.v1 import AddressInput, RecipientInput, RoutePlanningClient, StopInput

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

DEPOTS = """\
name,address,city,latitude,longitude,start_time,end_time,max_stops,round_trip
East,1 East St,London,51.5,-0.05,07:30,18:00,40,true
No start,2 West St,London,,,,,,
Bad time,3 South St,London,51.4,-0.1,25:00,,,
"""

MEMBERS = """\
email,name,role,depots
dora@example.com,Dora,dispatcher,main
ray@example.com,Ray,read-only,
bad@example.com,Bad,overlord,
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


class V1Cli:
    """Runs commands with ``--api-version v1`` against the served emulator's v1 address."""

    def __init__(self, served: ServedEmulator) -> None:
        self.served = served
        self.base_url = served.emulator.base_url_for("v1")

    def __call__(self, *args: str | Path, env: dict[str, str] | None = None, version: bool = True) -> Result:
        argv = ["--base-url", self.base_url, "--ca-file", str(self.served.ca_file)]
        argv += ["--api-version", "v1"] if version else []
        variables = {"ROUTE_PLANNING_API_KEY": self.served.emulator.api_key, **(env or {})}
        return CliRunner().invoke(
            cli, [*argv, *map(str, args)], env=variables, prog_name="route-planning", catch_exceptions=False
        )

    def json(self, *args: str | Path, expect: int = 0) -> Any:
        result = self(*args, "--json")
        assert result.exit_code == expect, (result.stdout, result.stderr)
        return json.loads(result.stdout)


@pytest.fixture
def v1(served_emulator: ServedEmulator) -> V1Cli:
    return V1Cli(served_emulator)


def test_plans_speak_v1(v1: V1Cli) -> None:
    plan = v1.json("plans", "create", "--title", "Monday", "--starts", "2026-03-02", "--driver", "driver-ana")
    assert plan["drivers"] == ["drivers/driver-ana"]  # v1 plans hold driver ids
    assert [found["id"] for found in v1.json("plans", "list")] == [plan["id"]]
    shown = v1("plans", "get", plan["id"])
    assert shown.exit_code == 0, shown.stderr
    assert "drivers/driver-ana" in shown.stdout


def test_the_version_comes_from_the_environment_too(v1: V1Cli) -> None:
    listed = v1("depots", "list", "--json", version=False, env={"ROUTE_PLANNING_API_VERSION": "v1"})
    assert listed.exit_code == 0, listed.stderr
    assert [depot["id"] for depot in json.loads(listed.stdout)] == ["depots/main", "depots/north"]
    assert all("route_overrides" in depot for depot in json.loads(listed.stdout))


def test_a_base_url_of_the_other_version_is_refused(run: Cli) -> None:
    result = run("--api-version", "v1", "depots", "list")  # run's --base-url is the v0.2b address
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].endswith(
        "(--base-url or $ROUTE_PLANNING_BASE_URL) is the v0.2b service, but the API version is v1 "
        "(--api-version or $ROUTE_PLANNING_API_VERSION): give the v1 address, or --api-version v0.2b"
    )


def test_an_unknown_version_is_a_usage_error(run: Cli) -> None:
    result = run("--api-version", "v2", "depots", "list")
    assert result.exit_code == 2
    assert "'v2' is not one of 'v0.2b', 'v1'" in result.stderr


def test_depots_list_on_either_version(run: Cli, v1: V1Cli) -> None:
    older = run.json("depots", "list")
    assert [depot["id"] for depot in older] == ["depots/main", "depots/north"]
    assert all("route_overrides" not in depot for depot in older)
    table = v1("depots", "list")
    assert table.exit_code == 0, table.stderr
    assert "Start address" in table.stdout
    assert "North depot" in table.stdout
    assert len(v1.json("depots", "list", "--limit", "1")) == 1


def test_depots_import_reports_failures_and_is_idempotent(v1: V1Cli, tmp_path: Path) -> None:
    source = _write(tmp_path / "depots.csv", DEPOTS)
    failures = tmp_path / "failed.csv"
    report = v1.json("depots", "import", source, "--failures", failures, expect=3)
    assert (report["rows"], report["imported"], report["failed"]) == (3, 1, 2)
    [created] = report["depots"]
    assert created["line"] == 2
    errors = {failure["line"]: failure["error"] for failure in report["failures"]}
    assert set(errors) == {3, 4}
    assert "start" in errors[3]
    assert errors[4] == "column 'start_time': not a time of day (HH:MM): '25:00'"
    with failures.open(encoding="utf-8", newline="") as stream:
        assert [row["name"] for row in csv.DictReader(stream)] == ["No start", "Bad time"]
    listed = {depot["name"]: depot for depot in v1.json("depots", "list")}
    overrides = listed["East"]["route_overrides"]
    assert overrides["start_time"] == "07:30:00"
    assert (overrides["max_stops"], overrides["round_trip"]) == (40, True)
    assert overrides["start_address"]["latitude"] == 51.5
    # The name is the natural key: the same file again, skipping the depots there, adds no second East.
    again = v1.json("depots", "import", source, "--skip-existing", expect=3)
    assert (again["imported"], again["skipped"], again["failed"]) == (0, 1, 2)
    assert [depot["name"] for depot in v1.json("depots", "list")].count("East") == 1


def test_depots_import_reads_json(v1: V1Cli, tmp_path: Path) -> None:
    rows = [
        {
            "name": "West",
            "address": "9 West St",
            "lat": 51.5,
            "lng": -0.2,
            "start": "08:00",
            "round_trip": False,
        }
    ]
    report = v1.json("depots", "import", _write(tmp_path / "depots.json", json.dumps(rows)))
    assert (report["imported"], report["failed"]) == (1, 0)
    bad = v1("depots", "import", _write(tmp_path / "bad.json", '{"name": "x"}'))
    assert bad.exit_code == 2
    assert "array of objects" in bad.stderr


def test_depots_import_needs_a_name_column(v1: V1Cli, tmp_path: Path) -> None:
    result = v1("depots", "import", _write(tmp_path / "d.csv", "address\n1 Main St\n"))
    assert result.exit_code == 2
    assert "'name' column" in result.stderr


@pytest.mark.parametrize(
    ("command", "name"),
    [(("depots", "import"), "depots import"), (("members", "import"), "members import")],
)
def test_v1_only_commands_refuse_v0_2b(run: Cli, tmp_path: Path, command: tuple[str, str], name: str) -> None:
    result = run(*command, _write(tmp_path / "rows.csv", "name,email,role\nx,x@example.com,admin\n"))
    assert result.exit_code == 2
    assert f"{name} needs --api-version v1" in result.stderr


def test_stops_search_refuses_v0_2b(run: Cli) -> None:
    result = run("stops", "search", "london")
    assert result.exit_code == 2
    assert "stops search needs --api-version v1" in result.stderr


def test_members_import_reports_failures_and_skips_known_emails(
    v1: V1Cli, served_emulator: ServedEmulator, tmp_path: Path
) -> None:
    source = _write(tmp_path / "members.csv", MEMBERS)
    report = v1.json("members", "import", source, expect=3)
    assert (report["rows"], report["imported"], report["failed"]) == (3, 2, 1)
    assert [member["line"] for member in report["members"]] == [2, 3]
    [failure] = report["failures"]
    assert failure["line"] == 4
    assert "role" in failure["error"]
    stored = {record.email: record for record in served_emulator.emulator.state.members.values()}
    assert set(stored) == {"dora@example.com", "ray@example.com"}
    assert stored["dora@example.com"].depots == ["main"]
    # The service refuses a second member with the same e-mail.
    again = v1.json("members", "import", source, expect=3)
    assert (again["imported"], again["failed"]) == (0, 3)
    assert len(served_emulator.emulator.state.members) == 2


def test_members_import_needs_email_and_role_columns(v1: V1Cli, tmp_path: Path) -> None:
    result = v1("members", "import", _write(tmp_path / "m.csv", "email\nx@example.com\n"))
    assert result.exit_code == 2
    assert "'role' column" in result.stderr


def _make_stops(served: ServedEmulator, plan_id: str) -> list[str]:
    async def make() -> list[str]:
        emulator = served.emulator
        async with RoutePlanningClient(
            emulator.api_key,
            base_url=emulator.base_url_for("v1"),
            ssl=emulator.ssl_context,
            rate_limits=emulator.config.server_limits,
        ) as client:
            made: list[str] = []
            for number, (city, notes) in enumerate(
                [("London", "gate code 12"), ("Berlin", None), ("London", None)]
            ):
                stop = await client.stops.create(
                    plan_id,
                    StopInput(
                        address=AddressInput(address_line_one=f"{number + 1} High St", city=city),
                        recipient=RecipientInput(external_id=f"order-{number + 1}"),
                        notes=notes,
                        package_count=number + 1,
                    ),
                )
                made.append(stop.id)
            return made

    return asyncio.run(make())


def test_stops_search_lists_what_the_keyword_and_filter_select(
    v1: V1Cli, served_emulator: ServedEmulator
) -> None:
    plan = v1.json("plans", "create", "--title", "Monday", "--starts", "2026-03-02")["id"]
    first, _, third = _make_stops(served_emulator, plan)
    london = v1.json("stops", "search", "London", "--sort-field", "packageCount", "--sort-order", "desc")
    assert [stop["id"] for stop in london] == [third, first]
    gate = v1.json("stops", "search", "--filter", 'notes ~= "gate"')
    assert [stop["id"] for stop in gate] == [first]
    assert len(v1.json("stops", "search", "--limit", "2")) == 2
    table = v1("stops", "search", "London")
    assert table.exit_code == 0, table.stderr
    assert "order-1" in table.stdout
    assert "2 stop(s)" in table.stderr
    bad = v1("stops", "search", "--filter", 'nosuchfield = "x"')
    assert bad.exit_code == 1
    assert "400" in bad.stderr
    bad_sort = v1("stops", "search", "--sort-field", "notes")
    assert bad_sort.exit_code == 2


def test_the_plan_workflow_on_v1(v1: V1Cli, served_emulator: ServedEmulator, tmp_path: Path) -> None:
    plan = v1.json(
        "plans",
        "create",
        "--title",
        "Monday",
        "--starts",
        "2026-03-02",
        "--driver",
        "driver-ana",
        "--driver",
        "driver-ben",
    )["id"]
    stops = ["address,lat,lng,external_id,client_id"] + [
        f"{n} Essex Road,{51.54 + n / 1000:.3f},-0.09,order-{n},client-{n}" for n in range(6)
    ]
    source = _write(tmp_path / "stops.csv", "\n".join(stops) + "\n")
    imported = v1.json("stops", "import", plan, source)
    assert (imported["imported"], imported["failed"]) == (6, 0)
    assert len(served_emulator.plan_stops(plan)) == 6
    listed = v1.json("stops", "list", plan)
    assert sorted(stop["recipient"]["external_id"] for stop in listed) == [f"order-{n}" for n in range(6)]
    assert sorted(stop["client_id"] for stop in listed) == [f"client-{n}" for n in range(6)]
    operation = v1("optimize", plan, "--wait")
    assert operation.exit_code == 0, operation.stderr
    assert v1.json("operations", "wait", operation.stdout.strip())[0]["done"] is True
    distributed = v1.json("distribute", plan)
    routes = v1.json("routes", "get", *distributed["routes"])
    assert sum(route["stop_count"] for route in routes) >= 6
    exported = tmp_path / "export.csv"
    assert v1.json("stops", "export", plan, exported)["stops"] == 6
    with exported.open(encoding="utf-8", newline="") as stream:
        assert sorted(row["client_id"] for row in csv.DictReader(stream)) == [f"client-{n}" for n in range(6)]


def test_the_demo_speaks_v0_2b_whatever_the_version(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["--api-version", "v1", "demo", "--stops", "5", "--drivers", "1", "--speedup", "500", "--json"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.stderr


def test_a_one_shot_emulator_serves_the_chosen_version() -> None:
    result = CliRunner().invoke(
        cli, ["--emulator", "--api-version", "v1", "depots", "list", "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.stderr
    assert all("route_overrides" in depot for depot in json.loads(result.stdout))


@pytest.mark.parametrize("where", ["before the command", "after the command"])
def test_flags_win_over_the_environment_wherever_they_are_written(
    served_emulator: ServedEmulator, where: str
) -> None:
    emulator = served_emulator.emulator
    # What 'route-planning emulator --print-env' exports: the v0.2b version and address.
    env = {
        "ROUTE_PLANNING_API_KEY": emulator.api_key,
        "ROUTE_PLANNING_API_VERSION": "v0.2b",
        "ROUTE_PLANNING_BASE_URL": emulator.base_url_for("v0.2b"),
        "ROUTE_PLANNING_CA_FILE": str(served_emulator.ca_file),
    }
    flags = ["--api-version", "v1", "--base-url", emulator.base_url_for("v1"), "--json"]
    command = ["stops", "search", "gate"]
    argv = [*flags, *command] if where == "before the command" else [*command, *flags]
    result = CliRunner().invoke(cli, argv, env=env, prog_name="route-planning", catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == []
