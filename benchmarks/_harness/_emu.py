"""The emulator as the benchmarks use it: a separate process, driven by ``_emuserver.py``.

Running the emulator in its own process keeps its CPU time out of the client's
event loop and out of the client process's CPU and RSS figures. Its request log
comes back over a pipe and is replayed into the emulator's own
:class:`~route_planning_async.emulator.RequestLog`, whose sliding-window
arithmetic the figures use.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from benchmarks._harness._emuserver import limits_from, limits_spec
from benchmarks._results._figures import rounded
from route_planning_async import Category, RateLimits
from route_planning_async.emulator import LimitTimeline, PunishSustained, RequestLog, RequestRecord

REPO = Path(__file__).resolve().parents[2]


class EmulatorServer:
    """``python -m benchmarks._harness._emuserver`` in a child process.

    :param limits: the server's limits at contract speed (divided by ``speedup``).
    :param limit_schedule: ``(contract seconds, limits)`` changes of the server's limits, counted
        from the start (or from :meth:`restart_limit_schedule`).
    :param punish_sustained: the penalty for sustained traffic near the limit.
    :param settings: other :class:`~route_planning_async.emulator.EmulatorConfig` fields, in JSON:
        ``limiter`` (``"sliding_window"`` or ``"token_bucket"``), ``burst``, ``count_rejected``,
        ``latency``, ``latency_jitter`` (real seconds, not sped up), ``seed``, ``tls`` ...
    """

    def __init__(
        self,
        *,
        limits: RateLimits | None = None,
        speedup: float = 1.0,
        limit_schedule: Sequence[tuple[float, RateLimits]] = (),
        punish_sustained: PunishSustained | None = None,
        **settings: Any,
    ) -> None:
        self.limits = limits if limits is not None else RateLimits.default()
        self.speedup = speedup
        self.settings = {"limits": limits_spec(self.limits), "speedup": speedup, **settings}
        if limit_schedule:
            self.settings["limit_schedule"] = [[offset, limits_spec(lim)] for offset, lim in limit_schedule]
        if punish_sustained is not None:
            self.settings["punish_sustained"] = [punish_sustained.threshold, punish_sustained.after]
        self.base_url = ""
        self.api_key = ""
        self.ssl_context: ssl.SSLContext | None = None
        self._proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> EmulatorServer:
        proc = self._proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks._harness._emuserver", json.dumps(self.settings)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the emulator process exited with {proc.wait()}")
            key, _, value = line.strip().partition(": ")
            if key == "base_url":
                self.base_url = value
            elif key == "api_key":
                self.api_key = value
            elif key == "ca_file":
                self.ssl_context = ssl.create_default_context(cafile=value)
            elif key == "ready":
                return self
            if time.monotonic() > deadline:
                raise RuntimeError("the emulator process did not start")

    def __exit__(self, *exc: object) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None
        assert proc.stdout is not None
        with contextlib.suppress(OSError):
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()

    def _ask(self, command: str) -> Any:
        proc = self._proc
        assert proc is not None
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write(command + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    def reset(self) -> None:
        """Forget the log and the rate-limit windows (call it after the setup traffic)."""
        self._ask("reset")

    def restart_limit_schedule(self) -> None:
        """The server's limits back to ``limits``, the ``limit_schedule`` counted from now."""
        self._ask("schedule")

    def set_rate_limits(self, limits: RateLimits) -> None:
        """Enforce ``limits`` (contract seconds) from now until the next scheduled change."""
        self._ask("limits " + json.dumps(limits_spec(limits)))

    def log(self) -> RequestLog:
        """The server's request log so far, with the limits in force when (``log.limits_at``)."""
        answer = self._ask("log")
        changes = answer["limits"]
        timeline = LimitTimeline(limits_from(changes[0][1]), self.speedup, since=changes[0][0])
        for t, spec in changes[1:]:
            timeline.set(t, limits_from(spec))
        log = RequestLog(timeline)
        for seq, (t, category, weight, admitted, outcome, status, route, path, reason) in enumerate(
            answer["records"], 1
        ):
            log.append(
                RequestRecord(
                    seq,
                    t,
                    "",
                    path,
                    route,
                    Category(category) if category else None,
                    weight,
                    status,
                    outcome,
                    admitted,
                    reason=reason,
                )
            )
        return log

    def randomize_deadlines(self, seed: int, low: float, high: float) -> dict[str, float]:
        """Unfinished operations complete uniformly in [low, high] contract seconds from now."""
        answer: dict[str, float] = self._ask(f"deadlines {seed} {low} {high}")
        return answer

    def internal_errors(self) -> list[str]:
        """Exceptions the emulator's handlers raised; empty when all is well."""
        errors: list[str] = self._ask("errors")
        return errors

    @property
    def pid(self) -> int:
        """The child's process id."""
        assert self._proc is not None
        return self._proc.pid

    def cpu_seconds(self) -> float:
        """User + system CPU seconds the emulator process has used so far."""
        return process_cpu_seconds(self.pid)

    def base_url_for(self, version: str) -> str:
        """The address of an API version the server serves (``base_url`` is v0.2b's)."""
        return self.base_url.rsplit("/public/", 1)[0] + "/public/" + version

    def client_kwargs(self, api: ModuleType | None = None) -> dict[str, Any]:
        """base_url, ssl and rate_limits (the server's, sped up) for the RoutePlanningClient of
        ``api`` (the package of an API version, whose DEFAULT_BASE_URL ends in its version; None:
        v0.2b's)."""
        version = "v0.2b" if api is None else api.DEFAULT_BASE_URL.rsplit("/", 1)[1]
        return {
            "base_url": self.base_url_for(version),
            "ssl": self.ssl_context,
            "rate_limits": self.limits.scaled(self.speedup),
        }


def process_cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc (Linux); NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def cpu_meter(server: EmulatorServer) -> Iterator[dict[str, float]]:
    """Wall time, this process's CPU time and the emulator process's CPU time of a block."""
    out: dict[str, float] = {}
    wall, cpu, emu = time.perf_counter(), time.process_time(), server.cpu_seconds()
    try:
        yield out
    finally:
        out["wall"] = time.perf_counter() - wall
        out["cpu"] = time.process_time() - cpu
        out["emulator_cpu"] = server.cpu_seconds() - emu


def category_figures(
    log: RequestLog, limits: RateLimits, speedup: float, category: str, *, weighted: bool = False
) -> dict[str, Any]:
    """What the server's log says of one category: admitted, 429s, max in a window, utilization.

    Two utilization figures: the emulator's own, admitted / (amount x (floor(span/period) + 1)),
    and the one the bars use, admitted / (amount x (span/period + 1)): the same without rounding
    the span down to whole windows, so a client that is a little late in every window is not
    forgiven it (it is never larger than the emulator's).
    """
    per: Literal["request", "weight"] = "weight" if weighted else "request"
    rule = max((r for r in limits.for_category(Category(category)) if r.per == per), key=lambda r: r.period)
    period = rule.period / speedup
    admitted = sorted((r for r in log.select(category) if r.admitted), key=lambda r: r.time)
    served = sum(r.weight if weighted else 1 for r in admitted)
    span = admitted[-1].time - admitted[0].time if admitted else math.nan
    return {
        "admitted": served,
        "rejected_429": len(log.rejected(category)),
        "max_in_window": log.max_in_window(category, period, per=per),
        "limit": rule.amount,
        "period_s": rounded(period, 4),
        "span_s": rounded(span, 3),
        "utilization": rounded(served / (rule.amount * (span / period + 1)), 4) if admitted else None,
        "utilization_emulator": rounded(log.utilization(category, rule.amount, period, per=per), 4)
        if admitted
        else None,
    }
