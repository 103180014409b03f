"""``route-planning emulator``: a lasting emulator whose ``export`` lines the other commands use,
and the banner of ``python -m route_planning_async.emulator``."""

from __future__ import annotations

import base64
import concurrent.futures
import json
import re
import shlex
import signal
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from route_planning_async._cli._app import cli

STARTUP = 60.0
"""Real seconds a process may take to start on a loaded machine (a limit, never waited out)."""


def _start(args: Sequence[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "route_planning_async", "emulator", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _read_to_end(process: subprocess.Popen[str]) -> str:
    """Stdout until it is closed (``--print-env`` closes it after the export lines)."""
    assert process.stdout is not None
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(process.stdout.read).result(timeout=STARTUP)


def _exports(text: str) -> dict[str, str | None]:
    """``export NAME=value`` lines as NAME -> value; ``unset NAME`` as NAME -> None."""
    found: dict[str, str | None] = {}
    for line in text.splitlines():
        words = shlex.split(line)
        if words[0] == "export":
            name, _, value = words[1].partition("=")
            found[name] = value
        else:
            assert words[0] == "unset", line
            found[words[1]] = None
    return found


def _stop(process: subprocess.Popen[str]) -> str:
    """SIGTERM, then its stderr; it must exit cleanly."""
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=STARTUP)
    assert process.returncode == 0, stderr
    return stderr


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=STARTUP)


def _run(env: dict[str, str | None], *args: str | Path) -> Result:
    return CliRunner().invoke(
        cli, [str(arg) for arg in args], env=env, prog_name="route-planning", catch_exceptions=False
    )


def test_print_env_lines_point_the_other_commands_at_a_lasting_emulator(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    process = _start(["--speedup", "120", "--print-env"])
    started.append(process)
    env = _exports(_read_to_end(process))  # returns: stdout was closed, the emulator runs on

    assert set(env) == {
        "ROUTE_PLANNING_BASE_URL",
        "ROUTE_PLANNING_API_VERSION",
        "ROUTE_PLANNING_API_KEY",
        "ROUTE_PLANNING_CA_FILE",
        "ROUTE_PLANNING_LIMITS",
    }
    assert re.fullmatch(r"https://127\.0\.0\.1:\d+/public/v0\.2b", env["ROUTE_PLANNING_BASE_URL"] or "")
    assert env["ROUTE_PLANNING_API_VERSION"] == "v0.2b"
    ca_file = Path(env["ROUTE_PLANNING_CA_FILE"] or "")
    limits_file = Path(env["ROUTE_PLANNING_LIMITS"] or "")
    assert ca_file.read_text(encoding="ascii").startswith("-----BEGIN CERTIFICATE-----")
    # The exported limits are the emulator's, sped up as much.
    assert json.loads(limits_file.read_text(encoding="utf-8"))["optimize"] == [
        {"amount": 3, "period": 0.5, "per": "request"}
    ]

    # A session: create, import, optimize, wait, all against the same emulator.
    created = _run(
        env,
        "plans",
        "create",
        "--title",
        "Monday",
        "--starts",
        "2026-03-02",
        "--driver",
        "drivers/driver-ana",
    )
    assert created.exit_code == 0, created.stderr
    plan = created.stdout.strip()
    sample = tmp_path / "stops.csv"
    assert _run(env, "stops", "sample", "--count", "40", "-o", sample).exit_code == 0
    imported = _run(env, "stops", "import", plan, sample)
    assert imported.exit_code == 0, imported.stderr
    optimized = _run(env, "optimize", plan)
    assert optimized.exit_code == 0, optimized.stderr
    waited = _run(env, "operations", "wait", optimized.stdout.strip())
    assert waited.exit_code == 0, waited.stderr
    assert "optimized 40 stops" in waited.stdout
    listed = _run(env, "plans", "list")
    assert plan in listed.stdout

    stderr = _stop(process)
    for expected in (
        "drivers/driver-ana",
        "drivers/driver-ben",
        "drivers/driver-paused: Pat (paused)",
        "depots/main",
    ):
        assert expected in stderr
    assert f"kill {process.pid}" in stderr
    # Its temporary directory is gone with it.
    assert not ca_file.exists()
    assert not limits_file.exists()
    assert not limits_file.parent.exists()

    # The exports left behind do not stop a new emulator (nor any --help); a command that
    # would use them says which file is gone.
    assert _run(env, "emulator", "--help").exit_code == 0
    stale_limits = _run(env, "plans", "list")
    assert stale_limits.exit_code == 2
    message = f"--limits {limits_file}: neither contract, public-docs nor an existing file"
    assert message in stale_limits.stderr
    env.pop("ROUTE_PLANNING_LIMITS")
    stale = _run(env, "plans", "list")
    assert stale.exit_code == 2
    assert f"--ca-file {ca_file} does not exist" in " ".join(stale.stderr.split())


def test_ca_file_option_http_and_limits(started: list[subprocess.Popen[str]], tmp_path: Path) -> None:
    ca_file = tmp_path / "emulator-ca.pem"
    process = _start(["--ca-file", str(ca_file), "--limits", "public-docs", "--print-env"])
    started.append(process)
    env = _exports(_read_to_end(process))
    assert env["ROUTE_PLANNING_CA_FILE"] == str(ca_file)
    limits = json.loads(Path(env["ROUTE_PLANNING_LIMITS"] or "").read_text(encoding="utf-8"))
    assert limits["optimize"] == [
        {"amount": 100, "period": 600.0, "per": "request"},
        {"amount": 30, "period": 60.0, "per": "request"},
    ]
    assert _run(env, "drivers", "list").exit_code == 0
    _stop(process)
    assert ca_file.exists()  # the user's file is kept

    plain = _start(["--http", "--no-limits", "--print-env"])
    started.append(plain)
    env = _exports(_read_to_end(plain))
    assert (env["ROUTE_PLANNING_BASE_URL"] or "").startswith("http://127.0.0.1:")
    assert env["ROUTE_PLANNING_CA_FILE"] is None
    limits = json.loads(Path(env["ROUTE_PLANNING_LIMITS"] or "").read_text(encoding="utf-8"))
    assert all(rules == [] for rules in limits.values())
    env.pop("ROUTE_PLANNING_CA_FILE")
    listed = _run(env, "drivers", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    assert "drivers/driver-ana" in [driver["id"] for driver in json.loads(listed.stdout)]
    _stop(plain)


def test_emulator_options_are_checked() -> None:
    both = _run({}, "emulator", "--limits", "contract", "--no-limits")
    assert both.exit_code == 2
    assert "not both" in both.stderr
    bad = _run({}, "emulator", "--limits", "no-such-file.toml")
    assert bad.exit_code == 2
    assert "neither contract, public-docs nor an existing file" in bad.stderr
    # A --ca-file given on the command line is checked at once.
    missing = _run({}, "--ca-file", "no-such-ca.pem", "plans", "list")
    assert missing.exit_code == 2
    assert "no-such-ca.pem does not exist or is not a file" in missing.stderr


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "example.com"])
def test_emulator_refuses_a_host_beyond_loopback_with_a_usage_line(host: str) -> None:
    refused = _run({}, "emulator", "--http", "--host", host)
    assert refused.exit_code == 2
    assert refused.stdout == ""
    error = refused.stderr.strip().splitlines()[-1]
    assert error.startswith(f"Error: Invalid value for '--host': {host!r}: the emulator binds loopback only")
    assert "no other machine" in error  # and why
    assert "Traceback" not in refused.stderr


def test_emulator_serves_on_the_loopback_host_it_is_given(started: list[subprocess.Popen[str]]) -> None:
    process = _start(["--http", "--print-env", "--host", "127.0.0.1"])
    started.append(process)
    env = _exports(_read_to_end(process))
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/public/v0\.2b", env["ROUTE_PLANNING_BASE_URL"] or "")
    _stop(process)


def test_help_says_emulator_is_one_shot_and_how_to_get_a_lasting_one() -> None:
    shown = " ".join(_run({}, "plans", "list", "--help").stdout.split())
    assert "One-shot: run this one command against a fresh, empty embedded emulator" in shown
    assert "route-planning emulator" in shown
    emulator_help = _run({}, "emulator", "--help").stdout
    assert "export ROUTE_PLANNING_CA_FILE" in emulator_help
    assert 'eval "$(route-planning emulator --print-env &)"' in emulator_help


@pytest.mark.parametrize(
    ("args", "trust"),
    [
        (["--ca-file", "CA"], "trust: export ROUTE_PLANNING_CA_FILE={ca}"),
        ([], "start with --ca-file FILE to write it"),
        (["--http"], "trust: plain HTTP, no certificate to trust"),
    ],
)
def test_the_emulator_process_banner_says_how_to_trust_it_and_its_driver_ids(
    tmp_path: Path, args: list[str], trust: str
) -> None:
    ca_file = str(tmp_path / "ca.pem")
    command = [
        sys.executable,
        "-m",
        "route_planning_async.emulator",
        *(ca_file if a == "CA" else a for a in args),
    ]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        try:
            assert process.stdout is not None
            lines: list[str] = []
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                while not lines or not lines[-1].startswith("depots: "):
                    line = pool.submit(process.stdout.readline).result(timeout=STARTUP)
                    assert line, "the emulator ended before its banner"
                    lines.append(line.rstrip("\n"))
        finally:
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=STARTUP)
    text = "\n".join(lines)
    assert trust.format(ca=ca_file) in text
    assert (
        "drivers: drivers/driver-ana, drivers/driver-ben, drivers/driver-cleo, drivers/driver-dan, "
        "drivers/driver-paused (paused)"
    ) in lines
    assert "depots: depots/main, depots/north" in lines


@pytest.mark.parametrize("module", [["route_planning_async", "emulator"], ["route_planning_async.emulator"]])
def test_both_emulator_commands_mask_the_webhook_urls_credentials_and_query(module: list[str]) -> None:
    url = "http://hook-user:hook-pass@127.0.0.1:9/hook?token=query-secret"
    command = [
        sys.executable,
        "-m",
        *module,
        "--http",
        "--webhook-url",
        url,
        "--webhook-secret",
        "team-secret",
    ]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            # Serving. The rest of the banner is written before the signal can be handled.
            first = pool.submit(process.stdout.readline).result(timeout=STARTUP)
            process.send_signal(signal.SIGTERM)
            # Read through the same file objects: readline may have buffered the whole banner,
            # which communicate() (reading the pipes' descriptors) would never see.
            rest, errors = pool.submit(process.stdout.read), pool.submit(process.stderr.read)
            banner = first + rest.result(timeout=STARTUP) + errors.result(timeout=STARTUP)
        process.wait(timeout=STARTUP)
    assert "events to http://***@127.0.0.1:9/hook?***" in banner, banner
    for secret in ("hook-user", "hook-pass", "query-secret", "team-secret"):
        assert secret not in banner


# ------------------------------------------------------------------ team file

_TEAM_TOML = """\
timezone = "America/Los_Angeles"

[[depots]]
id = "sea"
name = "Seattle depot"
latitude = 47.6062
longitude = -122.3321
address_line_one = "400 Broad St"
city = "Seattle"
state = "WA"
zip = "98109"
country = "US"
place_id = "place-sea"

[[drivers]]
id = "driver-sam"
name = "Sam"
email = "sam@example.com"
phone = "+12065550100"
depots = ["sea"]

[[drivers]]
id = "driver-kim"
name = "Kim"
email = "kim@example.com"
phone = "+12065550101"

[[drivers]]
id = "driver-nocontact"
name = "No Contact"

[[custom_stop_properties]]
id = "0b7c6a52-1f3e-4c55-9a1e-000000000001"
name = "Dock door"

[limits]
optimize = []
"""

_SEATTLE_LINE = "Seattle depot, 400 Broad St, Seattle, WA, 98109, US"


class _Http:
    """Plain HTTP calls with urllib, as a third-party client written in any language makes them."""

    def __init__(self, env: dict[str, str | None]) -> None:
        self.base = env["ROUTE_PLANNING_BASE_URL"] or ""
        key = env["ROUTE_PLANNING_API_KEY"] or ""
        self.auth = "Basic " + base64.b64encode(f"{key}:".encode()).decode()

    def __call__(self, method: str, path: str, body: object = None, **query: str) -> Any:
        url = self.base + path + ("?" + urllib.parse.urlencode(query) if query else "")
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method, headers={"Authorization": self.auth})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=STARTUP) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def pages(self, path: str, key: str) -> list[Any]:
        found: list[Any] = []
        token = ""
        while True:
            page = self("GET", path, **({"pageToken": token} if token else {}))
            found.extend(page[key])
            token = page.get("nextPageToken") or ""
            if not token:
                return found


def _with_team(started: list[subprocess.Popen[str]], team: Path, *more: str) -> _Http:
    process = _start(["--team", str(team), "--http", "--speedup", "1000", "--print-env", *more])
    started.append(process)
    return _Http(_exports(_read_to_end(process)))


def test_a_team_file_round_trips_through_plain_http(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    team = tmp_path / "team.toml"
    team.write_text(_TEAM_TOML, encoding="utf-8")
    http = _with_team(started, team)
    assert http("GET", "/depots")["depots"] == [{"id": "depots/sea", "name": "Seattle depot"}]
    drivers = {d["id"]: d for d in http("GET", "/drivers")["drivers"]}
    assert list(drivers) == ["drivers/driver-sam", "drivers/driver-kim", "drivers/driver-nocontact"]
    assert (drivers["drivers/driver-sam"]["email"], drivers["drivers/driver-sam"]["phone"]) == (
        "sam@example.com",
        "+12065550100",
    )
    assert drivers["drivers/driver-sam"]["depots"] == ["depots/sea"]
    assert (drivers["drivers/driver-nocontact"]["email"], drivers["drivers/driver-nocontact"]["phone"]) == (
        None,
        None,
    )
    properties = http("GET", "/team/customStopProperties")["customStopProperties"]
    assert [(p["id"], p["name"]) for p in properties] == [
        ("0b7c6a52-1f3e-4c55-9a1e-000000000001", "Dock door")
    ]
    # The same file as JSON, read by its extension.
    as_json = tmp_path / "team.json"
    as_json.write_text(json.dumps(tomllib.loads(_TEAM_TOML)), encoding="utf-8")
    again = _with_team(started, as_json)
    assert again("GET", "/depots")["depots"] == [{"id": "depots/sea", "name": "Seattle depot"}]


def test_a_third_party_workflow_over_plain_http_against_the_one_command(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    team = tmp_path / "team.toml"
    team.write_text(_TEAM_TOML, encoding="utf-8")
    http = _with_team(started, team)
    dock = "0b7c6a52-1f3e-4c55-9a1e-000000000001"
    plan = http(
        "POST",
        "/plans",
        {
            "title": "Tuesday",
            "starts": {"day": 3, "month": 6, "year": 2025},
            "depot": "depots/sea",
            "drivers": ["drivers/driver-sam", "drivers/driver-kim"],
        },
    )
    stops = [
        {
            "address": {"addressLineOne": f"{100 + i} Pine St", "city": "Seattle", "state": "WA"},
            "recipient": {"name": f"Customer {i}"},
            "customProperties": {dock: f"D{i}"},
        }
        for i in range(30)
    ]
    imported = http("POST", f"/{plan['id']}/stops:import", stops)
    assert (len(imported["success"]), imported["failed"]) == (30, [])
    operation = http("POST", f"/{plan['id']}:optimize")
    deadline = time.monotonic() + STARTUP
    while not operation["done"]:  # 30 stops: optimized in the background; poll the operation
        assert time.monotonic() < deadline, operation
        time.sleep(0.01)
        operation = http("GET", "/" + operation["id"])
    assert operation["result"]["numOptimizedStops"] == 30
    distributed = http("POST", f"/{plan['id']}:distribute")
    assert distributed["distributed"] is True
    listed = http.pages(f"/{plan['id']}/stops", "stops")
    routes = http("GET", f"/{plan['id']}")["routes"]
    assert routes
    for route_id in routes:
        own = sorted((s for s in listed if s["route"]["id"] == route_id), key=lambda s: s["stopPosition"])
        assert (own[0]["type"], own[-1]["type"]) == ("start", "end")
        for depot_stop in (own[0], own[-1]):
            address = depot_stop["address"]
            assert address["address"] == _SEATTLE_LINE
            assert address["address"].split(",")[1] == " 400 Broad St"
            assert (address["addressLineOne"], address["addressLineTwo"]) == (
                "400 Broad St",
                "Seattle, WA, 98109, US",
            )
            assert (address["placeId"], address["latitude"], address["longitude"]) == (
                "place-sea",
                47.6062,
                -122.3321,
            )
        for stop in own[1:-1]:
            # Seattle addresses land near Seattle, not near London.
            assert abs(stop["address"]["latitude"] - 47.6062) < 0.2
            assert abs(stop["address"]["longitude"] + 122.3321) < 0.3
            assert stop["customProperties"][dock].startswith("D")
    assert sum(1 for s in listed if s["type"] == "stop") == 30
    http("DELETE", "/" + plan["id"])
    with pytest.raises(urllib.error.HTTPError) as gone:
        http("GET", "/" + plan["id"])
    assert gone.value.code == 404
    gone.value.close()


def test_both_emulator_commands_take_the_same_options() -> None:
    from route_planning_async.emulator.__main__ import parse_args

    command = _run({}, "emulator", "--help").stdout
    module = subprocess.run(
        [sys.executable, "-m", "route_planning_async.emulator", "--help"],
        capture_output=True,
        text=True,
        check=True,
        timeout=STARTUP,
    ).stdout
    flags = set(re.findall(r"(--[a-z][a-z-]+)", command)) & set(re.findall(r"(--[a-z][a-z-]+)", module))
    for flag in (
        "--team",
        "--limits",
        "--print-env",
        "--route-title",
        "--capacity-unit",
        "--api-key",
        "--latency",
        "--lockout",
        "--webhook-url",
        "--webhook-secret",
        "--webhook-version",
    ):
        assert flag in flags
        assert flag in command
        assert flag in module
    args = parse_args(["--limits", "public-docs", "--route-title", "driver", "--capacity-unit", "pound"])
    assert args.config.route_title == "driver"
    assert args.config.team.capacity_unit == "pound"


def test_a_broken_team_file_is_a_usage_error_naming_the_file_and_the_key(tmp_path: Path) -> None:
    team = tmp_path / "team.toml"
    team.write_text('[[drivers]]\nid = "driver-x"\nmax_stops = "many"\n', encoding="utf-8")
    refused = _run({}, "emulator", "--http", "--team", team)
    assert refused.exit_code == 2
    error = " ".join(refused.stderr.split())
    assert f"{team}: drivers[0].max_stops: expected an integer, got 'many'" in error
    assert "Traceback" not in refused.stderr


def test_the_module_takes_print_env_and_closes_stdout_after_its_banner(
    started: list[subprocess.Popen[str]], tmp_path: Path
) -> None:
    team = tmp_path / "team.toml"
    team.write_text(_TEAM_TOML, encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "route_planning_async.emulator",
        "--http",
        "--print-env",
        "--team",
        str(team),
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started.append(process)
    lines = _read_to_end(process).splitlines()
    assert lines[0].startswith("base_url: http://127.0.0.1:")
    assert lines[-2:] == [
        "drivers: drivers/driver-sam, drivers/driver-kim, drivers/driver-nocontact",
        "depots: depots/sea",
    ]
    assert process.poll() is None  # still serving, its stdout closed


def test_print_env_exports_the_chosen_versions_address(started: list[subprocess.Popen[str]]) -> None:
    process = _start(["--speedup", "120", "--api-version", "v1", "--print-env"])
    started.append(process)
    env = _exports(_read_to_end(process))
    assert re.fullmatch(r"https://127\.0\.0\.1:\d+/public/v1", env["ROUTE_PLANNING_BASE_URL"] or "")
    assert env["ROUTE_PLANNING_API_VERSION"] == "v1"
    # The other commands speak v1 to it from the exported lines alone.
    listed = _run(env, "depots", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    assert all("route_overrides" in depot for depot in json.loads(listed.stdout))
    assert "serving https://127.0.0.1:" in _stop(process)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (
            "[[custom_stop_properties]]\nid = 'p'\nname = 'A'\n"
            "[[custom_stop_properties]]\nid = 'p'\nname = 'B'\n",
            "custom_stop_properties: id(s) p given more than once",
        ),
        ("timezone = 'Mars/Olympus_Mons'\n", "timezone: expected an IANA time zone"),
        ("[[depots]]\nid = 'x'\nname = 'X'\nlatitude = 1000\nlongitude = 0\n", "depots[0].latitude:"),
        ("[[depots]]\nid = 'x'\nname = 'X'\nlatitude = nan\nlongitude = 0\n", "depots[0].latitude:"),
    ],
)
def test_a_team_file_value_the_team_cannot_take_is_a_usage_line_naming_file_key_and_value(
    tmp_path: Path, text: str, where: str
) -> None:
    team = tmp_path / "team.toml"
    team.write_text(text, encoding="utf-8")
    # A subprocess with a timeout: a team file let through would start an emulator that runs on.
    refused = subprocess.run(
        [sys.executable, "-m", "route_planning_async", "emulator", "--team", str(team), "--http"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert refused.returncode == 2, refused.stderr
    assert refused.stdout == ""
    assert "Traceback" not in refused.stderr
    error = refused.stderr.strip().splitlines()[-1]
    assert error.startswith(f"Error: {team}: {where}")
    value = re.search(r"'Mars/Olympus_Mons'|\b1000\b|\bnan\b|\bp\b", text)
    assert value is not None
    assert value.group(0) in error


def _usage_lines_of_both_emulator_commands(*args: str) -> list[str]:
    """The last line ``route-planning emulator`` and ``python -m route_planning_async.emulator``
    print for ``args``, each checked to be a usage error (exit 2) without a traceback. A subprocess
    with a timeout: a value let through would start an emulator that runs on."""
    lines = []
    for command in (["route_planning_async", "emulator"], ["route_planning_async.emulator"]):
        refused = subprocess.run(
            [sys.executable, "-m", *command, *args], capture_output=True, text=True, timeout=60, check=False
        )
        assert refused.returncode == 2, refused.stderr
        assert "Traceback" not in refused.stderr
        lines.append(refused.stderr.strip().splitlines()[-1])
    return lines


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ("--latency", "nan"),
            "Invalid value for '--latency': must be a finite number, not negative, got nan",
        ),
        (
            ("--optimization-delay", "nan"),
            "Invalid value for '--optimization-delay': must be a finite number",
        ),
        (
            ("--webhook-url", "ftp://example.com/hook"),
            "Invalid value for '--webhook-url': webhook_url must be",
        ),
        (("--webhook-url", ""), "Invalid value for '--webhook-url': webhook_url must be an absolute"),
        (("--webhook-url", "example.com/hook"), "Invalid value for '--webhook-url': webhook_url must be"),
        (("--webhook-url", "https://xn--/hook"), "Invalid value for '--webhook-url': webhook_url's host has"),
        (
            ("--api-key", ""),
            "Invalid value for '--api-key': must be a non-blank string: a client could not send it",
        ),
    ],
)
def test_emulator_values_it_cannot_use_are_refused_at_start(args: tuple[str, ...], error: str) -> None:
    for last in _usage_lines_of_both_emulator_commands("--http", *args):
        assert error.split(": ", 1)[1] in last


def test_a_team_file_nested_too_deep_is_a_usage_line(tmp_path: Path) -> None:
    team = tmp_path / "team.json"
    team.write_text("[" * 5000 + "]" * 5000, encoding="utf-8")
    refused = _run({}, "emulator", "--http", "--team", team)
    assert refused.exit_code == 2
    assert (
        refused.stderr.strip().splitlines()[-1]
        == f"Error: {team}: it nests too deep (more than 256 levels of arrays or objects)"
    )


def test_the_emulator_module_on_a_port_in_use_says_so_in_one_line() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for line in _usage_lines_of_both_emulator_commands("--http", "--port", port):
            assert "address already in use (give another --port, or --port 0 for a free one)" in line
