"""Ways to run the emulator: in process (HTTPS or HTTP), as a process, as a pytest plugin."""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import signal
import socket
import ssl
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from route_planning_async import RateLimits, RoutePlanningClient
from route_planning_async.emulator import Emulator, EmulatorConfig, Fault, _server
from route_planning_async.emulator.__main__ import parse_args

from .conftest import basic, open_api


@pytest.mark.asyncio
async def test_https_with_the_throwaway_ca_and_verification_on() -> None:
    async with Emulator() as emu:
        assert emu.base_url.startswith("https://127.0.0.1:")
        assert isinstance(emu.ssl_context, ssl.SSLContext)
        assert emu.ssl_context.verify_mode is ssl.CERT_REQUIRED
        async with aiohttp.ClientSession() as session:
            # Without the CA the certificate is refused: nothing turns verification off.
            with pytest.raises(aiohttp.ClientConnectorCertificateError):
                await session.get(emu.base_url + "/depots")
            async with session.get(
                emu.base_url + "/depots", ssl=emu.ssl_context, headers={"Authorization": basic(emu.api_key)}
            ) as response:
                assert response.status == 200
        assert repr(emu).startswith("<Emulator https://127.0.0.1:")
    assert repr(Emulator()) == "<Emulator not running>"


@pytest.mark.asyncio
async def test_plain_http_on_loopback() -> None:
    async with Emulator(tls=False) as emu, open_api(emu) as api:
        assert emu.base_url.startswith("http://127.0.0.1:")
        assert emu.ssl_context is None
        assert emu.ca_pem is None
        assert (await api.call("GET", "/depots")).status == 200
        with pytest.raises(RuntimeError, match="plain HTTP"):
            emu.write_ca("/nonexistent/ca.pem")


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.asyncio
@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback on this machine")
async def test_ipv6_loopback() -> None:
    async with Emulator(host="::1") as emu, open_api(emu) as api:
        assert emu.base_url.startswith("https://[::1]:")
        assert (await api.call("GET", "/depots")).status == 200


@pytest.mark.asyncio
async def test_binds_to_loopback_only_and_a_chosen_port() -> None:
    async with Emulator() as first:
        port = first.port
    async with Emulator(port=port) as emu:
        assert emu.port == port
        assert emu._runner is not None
        assert all(address[0] == "127.0.0.1" for address in emu._runner.addresses)
    with pytest.raises(RuntimeError, match="not running"):
        _ = Emulator().port


@pytest.mark.asyncio
async def test_start_twice_is_an_error_and_stop_keeps_the_state() -> None:
    emu = Emulator()
    await emu.start()
    try:
        with pytest.raises(RuntimeError, match="already running"):
            await emu.start()
        async with open_api(emu) as api:
            await api.plan()
    finally:
        await emu.stop()
    assert len(emu.state.plans) == 1
    await emu.stop()


@pytest.mark.asyncio
async def test_stop_drops_a_request_in_flight_within_a_fraction_of_a_second() -> None:
    # The runner waits SHUTDOWN_TIMEOUT for a handler still answering, then as long again for
    # it to end once cancelled: 2 s each before, which held the process seconds after SIGTERM.
    assert _server.SHUTDOWN_TIMEOUT <= 0.5
    emu = await Emulator(tls=False).start()
    emu.faults.add(Fault("hang", route="plans.list", delay=60))
    held = asyncio.Event()
    pick = emu.faults.pick

    def picked(*args: Any, **kwargs: Any) -> Fault | None:
        held.set()  # the request is in: its handler holds it from here
        return pick(*args, **kwargs)

    emu.faults.pick = picked  # type: ignore[method-assign]
    async with aiohttp.ClientSession() as session:
        pending = asyncio.ensure_future(
            session.get(emu.base_url + "/plans", headers={"Authorization": basic(emu.api_key)})
        )
        await held.wait()
        started = time.monotonic()
        await emu.stop()
        took = time.monotonic() - started
        with pytest.raises(aiohttp.ClientError):
            await pending
    # Twice the timeout and the cancelled handler's end: well under the 4 s it could take before.
    assert took < 1.5, took


@pytest.mark.asyncio
async def test_the_ca_file_lets_another_client_trust_it(tmp_path: Path) -> None:
    async with Emulator() as emu:
        path = emu.write_ca(tmp_path / "ca.pem")
        assert path.read_bytes().startswith(b"-----BEGIN CERTIFICATE-----")
        context = ssl.create_default_context(cafile=str(path))
        async with (
            aiohttp.ClientSession() as session,
            session.get(
                emu.base_url + "/depots", ssl=context, headers={"Authorization": f"Bearer {emu.api_key}"}
            ) as response,
        ):
            assert response.status == 200


@pytest.mark.asyncio
async def test_client_convenience_talks_to_the_emulator() -> None:
    async with Emulator(speedup=100) as emu:
        client = emu.client()
        assert isinstance(client, RoutePlanningClient)
        assert client.base_url == emu.base_url
        assert client.rate_limits == RateLimits.default().scaled(100)
        async with client:
            depots = await client.depots.list().collect()
        assert [d.id for d in depots] == ["depots/main", "depots/north"]
        assert [r.route for r in emu.log] == ["depots.list"]


def test_command_line_arguments() -> None:
    args = parse_args(
        ["--port", "8443", "--http", "--speedup", "60", "--api-key", "k", "--ca-file", "/tmp/x"]
    )
    assert (args.port, args.http, args.speedup, args.api_key, args.ca_file) == (
        8443,
        True,
        60.0,
        "k",
        "/tmp/x",
    )
    defaults = parse_args([])
    assert (defaults.port, defaults.http, defaults.host, defaults.api_key) == (
        0,
        False,
        "127.0.0.1",
        EmulatorConfig().api_key,
    )


def test_runs_as_a_process_and_writes_the_ca(tmp_path: Path) -> None:
    ca_file = tmp_path / "ca.pem"
    command = [
        sys.executable,
        "-m",
        "route_planning_async.emulator",
        "--ca-file",
        str(ca_file),
        "--api-key",
        "k1",
    ]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        try:
            assert process.stdout is not None
            lines = [process.stdout.readline().strip() for _ in range(3)]
            assert lines[0].startswith("base_url: https://127.0.0.1:")
            assert lines[1] == "api_key: k1"
            assert lines[2] == f"ca_file: {ca_file}"
            base_url = lines[0].removeprefix("base_url: ")
            request = urllib.request.Request(base_url + "/depots", headers={"Authorization": basic("k1")})
            context = ssl.create_default_context(cafile=str(ca_file))
            with urllib.request.urlopen(request, context=context, timeout=10) as response:
                assert json.load(response)["depots"][0]["id"] == "depots/main"
        finally:
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=15) == 0


PLUGIN_TEST = textwrap.dedent(
    """
    import pytest

    pytestmark = pytest.mark.asyncio


    async def test_defaults(route_planning_emulator, route_planning_client):
        assert route_planning_emulator.config.speedup == 1.0
        assert route_planning_client.base_url == route_planning_emulator.base_url
        page = await route_planning_client.depots.list().collect()
        assert page[0].id == "depots/main"


    @pytest.mark.route_planning_emulator(speedup=50, keep_stops=False)
    async def test_marker(route_planning_emulator):
        assert route_planning_emulator.config.speedup == 50
        assert route_planning_emulator.config.keep_stops is False


    class TestOverride:
        @pytest.fixture
        def route_planning_emulator_config(self):
            from route_planning_async.emulator import EmulatorConfig
            return EmulatorConfig(api_key="overridden")

        async def test_override(self, route_planning_emulator):
            assert route_planning_emulator.api_key == "overridden"
    """
)


def test_pytest_plugin(tmp_path: Path) -> None:
    (tmp_path / "test_uses_plugin.py").write_text(PLUGIN_TEST)
    # The pytest11 entry point loads the plugin once the package is installed; a source
    # checkout without that metadata names it on the command line.
    registered = any(
        entry.value == "route_planning_async.emulator.pytest_plugin"
        for entry in importlib.metadata.entry_points(group="pytest11")
    )
    load = [] if registered else ["-p", "route_planning_async.emulator.pytest_plugin"]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *load,
            "-p",
            "no:cacheprovider",
            "--strict-markers",
            "-o",
            "asyncio_default_fixture_loop_scope=function",
            "-W",
            "error",
            "-q",
            "--rootdir",
            str(tmp_path),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed" in result.stdout


def test_the_plugin_and_the_package_import_cheaply() -> None:
    code = (
        "import sys, route_planning_async.emulator.pytest_plugin\n"
        "names = ('aiohttp.web', 'trustme', 'route_planning_async.emulator._server')\n"
        "heavy = [m for m in names if m in sys.modules]\n"
        "print(heavy)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5"])
def test_the_module_refuses_a_host_beyond_loopback_with_a_usage_line(
    host: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args(["--host", host])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.splitlines()[-1].endswith(
        f"error: argument --host: {host!r}: the emulator binds loopback only (127.0.0.1, ::1 or localhost): "
        "it takes any caller with its well-known API key, so no other machine may reach it"
    )
    assert "Traceback" not in error
