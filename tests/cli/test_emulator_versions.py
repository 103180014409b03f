"""Both emulator commands as a v1 user meets them: webhook events of the version asked for, sent to
``route-planning webhooks listen``, and ``--api-version v1`` enforcing (and exporting) v1's limits."""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import json
import shlex
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from route_planning_async import Category, RateLimits
from route_planning_async._cli._app import cli
from route_planning_async._cli._commands._emulator import limits_as_data
from route_planning_async._cli._commands._webhooks import listen
from route_planning_async._cli._emulated import published_limits
from route_planning_async._cli._run import Settings, open_client
from route_planning_async.emulator.__main__ import parse_args
from route_planning_async.emulator._setup._options import config_from_options

STARTUP = 60.0
"""Real seconds a process may take to start on a loaded machine (a limit, never waited out)."""
SECRET = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=STARTUP)


def _first_lines(process: subprocess.Popen[str]) -> str:
    """Stdout until it is closed (``--print-env`` closes it after the first lines)."""
    assert process.stdout is not None
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(process.stdout.read).result(timeout=STARTUP)


def _environment(command: str, text: str) -> dict[str, str]:
    """The variables the other commands read, from what either emulator command printed."""
    if command == "route-planning emulator":
        words = [shlex.split(line) for line in text.splitlines()]
        return dict(w[1].split("=", 1) for w in words if w[0] == "export")
    values = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    return {
        "ROUTE_PLANNING_BASE_URL": values["v1"].split()[0],
        "ROUTE_PLANNING_API_KEY": values["api_key"],
        "ROUTE_PLANNING_API_VERSION": "v1",
    }


def _run(env: dict[str, str], *args: str | Path) -> Result:
    return CliRunner().invoke(
        cli, [str(arg) for arg in args], env=env, prog_name="route-planning", catch_exceptions=False
    )


class Receiver:
    """``route-planning webhooks listen``'s coroutine on a thread of its own, printing JSON lines."""

    def __init__(self, count: int) -> None:
        self.lines: list[str] = []
        self._bound = threading.Event()
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

        def started(url: str) -> None:
            self.url = url
            self._bound.set()

        work = listen(
            host="127.0.0.1",
            port=0,
            path="/",
            secret=SECRET,
            as_json=True,
            count=count,
            echo=self.lines.append,
            started=started,
        )
        self.done = asyncio.run_coroutine_threadsafe(work, self._loop)
        assert self._bound.wait(STARTUP)

    def close(self) -> None:
        self.done.cancel()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(STARTUP)
        self._loop.close()


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("route-planning emulator", ["-m", "route_planning_async", "emulator", "--api-version", "v1"]),
        ("python -m route_planning_async.emulator", ["-m", "route_planning_async.emulator"]),
    ],
)
def test_either_emulator_command_sends_v1_webhook_events_to_the_cli_receiver(
    started: list[subprocess.Popen[str]], tmp_path: Path, command: str, argv: Sequence[str]
) -> None:
    receiver = Receiver(count=3)  # three stops, each allocated once on distribution
    try:
        webhook = ["--webhook-url", receiver.url, "--webhook-secret", SECRET]
        # The module has no --api-version: it is told the events' version.
        version = [] if command == "route-planning emulator" else ["--webhook-version", "v1"]
        process = subprocess.Popen(
            [sys.executable, *argv, "--http", "--speedup", "120", "--print-env", *webhook, *version],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        printed = _first_lines(process)
        env = _environment(command, printed)
        plan = _run(
            env, "plans", "create", "--title", "Monday", "--starts", "2026-03-02", "--driver", "driver-ana"
        )
        assert plan.exit_code == 0, plan.stderr
        sample = tmp_path / "stops.csv"
        assert _run(env, "stops", "sample", "--count", "3", "-o", sample).exit_code == 0
        for args in (
            ("stops", "import", plan.stdout.strip(), sample),
            ("optimize", plan.stdout.strip(), "--wait"),
            ("distribute", plan.stdout.strip()),
        ):
            result = _run(env, *args)
            assert result.exit_code == 0, (args, result.stderr)
        receiver.done.result(timeout=STARTUP)  # listen returns once it printed 3 events
    finally:
        receiver.close()
    events = [json.loads(line) for line in receiver.lines]
    assert [(event["type"], event["version"]) for event in events] == [("stop.allocated", "v1")] * 3
    # Decoded as v1 stops (v1's Stop has allowed_drivers where v0.2b's has allowed_drivers_identifiers).
    assert all("allowed_drivers" in event["data"] for event in events)
    assert all(event["data"]["id"].startswith(plan.stdout.strip() + "/stops/") for event in events)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=STARTUP)
    assert f"v1 events to {receiver.url}" in printed + stderr  # the module's banner is on stdout


def test_the_module_reads_the_webhook_options_into_its_configuration() -> None:
    config = parse_args(["--webhook-url", "http://127.0.0.1:9/hook", "--webhook-secret", "s3cret"]).config
    assert (config.webhook_url, config.webhook_secret, config.webhook_version) == (
        "http://127.0.0.1:9/hook",
        "s3cret",
        "v0.2b",
    )
    assert parse_args(["--webhook-version", "v1"]).config.webhook_version == "v1"
    assert parse_args([]).config.webhook_url is None


def test_an_empty_webhook_secret_is_a_usage_error() -> None:
    refused = _run({}, "emulator", "--webhook-secret", "")
    assert refused.exit_code == 2
    assert "must not be empty" in refused.stderr


def _optimize_statuses(env: dict[str, str], count: int) -> list[int]:
    """The statuses of ``count`` optimize calls in a row, sent without a client's limits (on
    plans that do not exist: the rate limits are applied before the plan is looked up)."""
    auth = "Basic " + base64.b64encode(f"{env['ROUTE_PLANNING_API_KEY']}:".encode()).decode()
    statuses = []
    for n in range(count):
        url = f"{env['ROUTE_PLANNING_BASE_URL']}/plans/missing{n}:optimize"
        request = urllib.request.Request(url, data=b"", method="POST", headers={"Authorization": auth})
        try:
            with urllib.request.urlopen(request, timeout=STARTUP) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
            exc.close()
    return statuses


@pytest.mark.parametrize(
    ("version", "limits", "statuses"),
    [("v1", RateLimits.public_docs(), [404] * 5), ("v0.2b", RateLimits.default(), [404] * 3 + [429] * 2)],
)
def test_the_emulator_enforces_and_exports_the_published_limits_of_its_api_version(
    started: list[subprocess.Popen[str]], version: str, limits: RateLimits, statuses: list[int]
) -> None:
    # At real speed: the contract's 3 optimizations a minute cannot slip out of the window.
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "route_planning_async",
            "emulator",
            "--api-version",
            version,
            "--http",
            "--print-env",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    started.append(process)
    env = _environment("route-planning emulator", _first_lines(process))
    exported = json.loads(Path(env["ROUTE_PLANNING_LIMITS"]).read_text(encoding="utf-8"))
    assert exported == limits_as_data(limits)
    assert _optimize_statuses(env, 5) == statuses
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=STARTUP)


def test_limits_given_beat_the_versions_published_ones(tmp_path: Path) -> None:
    values = {"team": None, "limits": "contract", "api_version": "v1"}
    assert config_from_options(values).rate_limits == RateLimits.default()
    team = tmp_path / "team.toml"
    team.write_text("[[limits.optimize]]\namount = 7\nperiod = 60\n", encoding="utf-8")
    from_team = config_from_options({"team": team, "api_version": "v1"})
    assert [rule.amount for rule in from_team.rate_limits.rules[Category.OPTIMIZE]] == [7]
    unlimited = config_from_options({"no_limits": True, "api_version": "v1"})
    assert unlimited.rate_limits == RateLimits.unlimited()
    assert config_from_options({"api_version": "v1"}).rate_limits == published_limits("v1")
    assert published_limits("v1") == RateLimits.public_docs()
    assert config_from_options({}).rate_limits == RateLimits.default()


@pytest.mark.parametrize(
    ("version", "limits"), [("v1", RateLimits.public_docs()), ("v0.2b", RateLimits.default())]
)
def test_a_one_shot_emulator_enforces_its_versions_published_limits(version: str, limits: RateLimits) -> None:
    async def enforced() -> RateLimits:
        # The one-shot client takes the limits its emulator enforces (emulator.config.server_limits).
        async with open_client(Settings(api_version=version, emulator=True)) as client:
            return client.rate_limits

    assert asyncio.run(enforced()) == limits
