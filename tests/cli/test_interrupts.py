"""Ctrl-C at any moment of a command ends it with exit code 130 and says what was done; with
``--progress json`` every line on stderr is a JSON object, errors included.

The early Ctrl-C is a real SIGINT to a real process, sent once the service (a server of this
test's that holds the request unanswered) has seen the command's first request: no sleep, no
timing, the moment is the same on any machine.
"""

from __future__ import annotations

import asyncio
import csv
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from aiohttp import web

from route_planning_async._cli import _progress

if TYPE_CHECKING:
    from tests.cli.conftest import Cli

STARTUP = 60.0
"""Real seconds a process may take to start on a loaded machine (a limit, never waited out)."""


class HeldService:
    """A service on a loopback port of its own thread that never answers: it notes each request's
    path and holds it, until the test ends."""

    def __init__(self) -> None:
        self.seen = threading.Event()
        self.paths: list[str] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._runner = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(STARTUP)

    async def _hold(self, request: web.Request) -> web.StreamResponse:
        self.paths.append(request.path)
        self.seen.set()
        await self._release.wait()
        return web.Response(status=503)

    async def _start(self) -> web.AppRunner:
        self._release = asyncio.Event()
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._hold)
        runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return runner

    @property
    def base_url(self) -> str:
        host, port = self._runner.addresses[0][:2]
        return f"http://{host}:{port}/public/v0.2b"

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._release.set)
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(STARTUP)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(STARTUP)
        self._loop.close()


@pytest.fixture
def held() -> Iterator[HeldService]:
    service = HeldService()
    yield service
    service.close()


def _interrupt_once_seen(
    held: HeldService, *args: str | Path, signum: signal.Signals = signal.SIGINT
) -> subprocess.CompletedProcess[str]:
    """Run ``route-planning ARGS`` against ``held``; ``signum`` once its first request arrived."""
    process = subprocess.Popen(
        [sys.executable, "-m", "route_planning_async", "--base-url", held.base_url, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**_environment(), "ROUTE_PLANNING_API_KEY": "test-key"},
    )
    try:
        assert held.seen.wait(STARTUP), "the command sent no request"
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=STARTUP)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=STARTUP)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def _environment() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if not name.startswith("ROUTE_PLANNING_")}


def _sample(run: Cli, path: Path, count: int) -> Path:
    assert run("stops", "sample", "--count", str(count), "-o", path, connect=False).exit_code == 0
    return path


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_early_ctrl_c_in_an_import_exits_130_with_every_row_accounted_for(
    held: HeldService, run: Cli, tmp_path: Path, signum: signal.Signals
) -> None:
    source = _sample(run, tmp_path / "stops.csv", 7)
    # Ctrl-C (or the SIGTERM of `timeout`, `kill`, docker, systemd) while the command reads
    # the plan, before the import's own handler exists.
    result = _interrupt_once_seen(held, "stops", "import", "plans/p1", source, signum=signum)
    assert held.paths == ["/public/v0.2b/plans/p1"]
    assert result.returncode == 130, result.stderr
    assert "Aborted!" not in result.stderr
    assert "Traceback" not in result.stderr
    remaining = tmp_path / "stops.remaining.csv"
    assert "imported 0 of 7 stops into plans/p1" in result.stderr
    assert f"7 row(s) not sent, written to {remaining}" in result.stderr
    with remaining.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 7
    assert all(row["error"].startswith("not sent") for row in rows)


def test_an_early_ctrl_c_with_json_progress_is_json_line_by_line(
    held: HeldService, run: Cli, tmp_path: Path
) -> None:
    source = _sample(run, tmp_path / "stops.csv", 3)
    result = _interrupt_once_seen(held, "stops", "import", "plans/p1", source, "--progress", "json")
    assert result.returncode == 130, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert [line["event"] for line in lines] == ["summary", "note"]
    summary = lines[0]
    assert (summary["rows"], summary["imported"], summary["not_sent"], summary["interrupted"]) == (
        3,
        0,
        3,
        True,
    )
    assert summary["failures_file"] == str(tmp_path / "stops.remaining.csv")


def test_ctrl_c_in_any_other_command_exits_130_and_says_so(held: HeldService) -> None:
    result = _interrupt_once_seen(held, "operations", "wait", "operations/o1")
    assert held.paths == ["/public/v0.2b/operations/o1"]
    assert result.returncode == 130, result.stderr
    assert result.stderr.strip() == (
        "interrupted (Ctrl-C or SIGTERM) before the command finished: a request in flight may still have "
        "taken effect; nothing else was sent"
    )


def test_an_error_with_json_progress_is_a_json_object(run: Cli, tmp_path: Path) -> None:
    source = _sample(run, tmp_path / "stops.csv", 3)
    result = run("stops", "import", "plans/missing", source, "--progress", "json")
    assert result.exit_code == 1
    [line] = [json.loads(line) for line in result.stderr.splitlines()]
    assert line["event"] == "error"
    assert line["exit_code"] == 1
    assert "plans/missing" in line["message"]


def test_the_librarys_warnings_are_json_objects_with_json_progress(
    run: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the scheduler logs when 429s cut a category's level (logging's last resort would
    # print it as a plain line), logged here once the first batch is done.
    def warn(progress: object) -> None:
        logging.getLogger("route_planning_async.scheduler").warning("batch_import: cut to %d", 5)

    monkeypatch.setattr(_progress, "on_progress_event", warn)
    plan = run.create_plan()
    result = run("stops", "import", plan, _sample(run, tmp_path / "stops.csv", 3), "--progress", "json")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert {
        "event": "warning",
        "message": "batch_import: cut to 5",
        "logger": "route_planning_async.scheduler",
    } in lines
    assert lines[-1]["event"] == "summary"


def test_ctrl_c_is_how_webhooks_listen_stops_exit_code_0(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("0123456789abcdef0123456789abcdef", encoding="utf-8")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "route_planning_async",
            "webhooks",
            "listen",
            "--port",
            "0",
            "--secret-file",
            str(secret),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        assert process.stderr.readline().startswith("Listening on http://127.0.0.1:")
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=STARTUP)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=STARTUP)
    assert process.returncode == 0, stderr
    assert stderr == ""
