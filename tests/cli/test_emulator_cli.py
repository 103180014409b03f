"""``route-planning emulator``: a lasting emulator whose ``export`` lines the other commands use,
and the banner of ``python -m route_planning_async.emulator``."""

from __future__ import annotations

import concurrent.futures
import json
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

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
        "ROUTE_PLANNING_API_KEY",
        "ROUTE_PLANNING_CA_FILE",
        "ROUTE_PLANNING_LIMITS",
    }
    assert re.fullmatch(r"https://127\.0\.0\.1:\d+/public/v0\.2b", env["ROUTE_PLANNING_BASE_URL"] or "")
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
