"""The emulator in its own process, driven over stdin by the benchmark runner.

``python -m benchmarks._harness._emuserver '<json settings>'`` starts an
:class:`~route_planning_async.emulator.Emulator`, prints ``base_url``,
``api_key`` and ``ca_file`` lines, then answers one command per stdin line with
one JSON line on stdout:

``log``
    ``{"records": [...], "limits": [...]}``: every request record so far (time on
    the shared monotonic clock, category, weight, admitted, outcome, status, route,
    path, reason) and every change of the limits in force (``[time, spec]``,
    contract seconds; see :func:`limits_spec`);
``reset``
    forget the log and every rate-limit window (after the setup traffic);
``schedule``
    restart the limit schedule from now: ``limits`` in force, each
    ``limit_schedule`` offset counted from now (after the setup traffic);
``limits <json spec>``
    enforce these limits (contract seconds) from now until the next scheduled
    change;
``deadlines <seed> <low> <high>``
    give every unfinished operation a completion time drawn uniformly from
    ``[low, high]`` contract seconds from now (divided by the speed-up); answers
    ``{operation id: monotonic deadline}``;
``quit``
    stop.

The process mode of the emulator package cannot hand its log back, and running
the emulator on the client's event loop would let the two steal CPU time from
each other; this keeps them apart and still shares one clock (``time.monotonic``
is system-wide).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from route_planning_async import Category, RateLimits, Rule
from route_planning_async.emulator import Emulator, EmulatorConfig, PunishSustained


def limits_from(spec: Any) -> RateLimits:
    """``"default"``, ``"unlimited"``, or ``{category: [[amount, period, per], ...]}``."""
    if spec == "default":
        return RateLimits.default()
    if spec == "unlimited":
        return RateLimits.unlimited()
    return RateLimits({Category(c): [Rule(a, p, per) for a, p, per in rules] for c, rules in spec.items()})


def limits_spec(limits: RateLimits) -> dict[str, list[list[Any]]]:
    """The inverse of :func:`limits_from`."""
    return {str(c): [[r.amount, r.period, r.per] for r in rules] for c, rules in limits.rules.items()}


def _config(settings: dict[str, Any]) -> EmulatorConfig:
    """EmulatorConfig fields in JSON: ``limits`` (a :func:`limits_from` spec) for ``rate_limits``,
    ``limit_schedule`` as ``[[seconds, spec], ...]``, ``punish_sustained`` as ``[threshold, after]``;
    the others (``limiter``, ``burst``, ``count_rejected``, ``latency``, ``latency_jitter``, ...)
    as they are."""
    fields = dict(settings)
    fields["rate_limits"] = limits_from(fields.pop("limits", "default"))
    if "limit_schedule" in fields:
        fields["limit_schedule"] = tuple(
            (float(offset), limits_from(spec)) for offset, spec in fields["limit_schedule"]
        )
    if fields.get("punish_sustained") is not None:
        threshold, after = fields["punish_sustained"]
        fields["punish_sustained"] = PunishSustained(threshold, after)
    return EmulatorConfig(**fields)


def _record(r: Any) -> list[Any]:
    return [
        r.time,
        str(r.category) if r.category else None,
        r.weight,
        r.admitted,
        r.outcome,
        r.status,
        r.route,
        r.path,
        r.reason,
    ]


@contextlib.asynccontextmanager
async def _scratch() -> AsyncIterator[Path]:
    with tempfile.TemporaryDirectory(prefix="bench-emulator-") as path:
        yield Path(path)


async def serve(settings: dict[str, Any]) -> None:
    """Serve and answer commands until ``quit`` or the end of stdin."""
    loop = asyncio.get_running_loop()
    async with Emulator(_config(settings)) as emu, _scratch() as scratch:
        print(f"base_url: {emu.base_url}", flush=True)
        print(f"api_key: {emu.api_key}", flush=True)
        if emu.ca_pem is not None:
            ca_file = emu.write_ca(scratch / "ca.pem")
            print(f"ca_file: {ca_file}", flush=True)
        print("ready", flush=True)
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            command = line.split()
            if not command or command[0] == "quit":
                break
            answer: Any
            if command[0] == "log":
                answer = {
                    "records": [_record(r) for r in emu.log.records],
                    "limits": [[c.time, limits_spec(c.limits)] for c in emu.log.limit_changes],
                }
            elif command[0] == "reset":
                emu.log.clear()
                emu.reset_limits()
                answer = "ok"
            elif command[0] == "schedule":
                emu.restart_limit_schedule()
                answer = "ok"
            elif command[0] == "limits":
                emu.set_rate_limits(limits_from(json.loads(line.split(None, 1)[1])))
                answer = "ok"
            elif command[0] == "deadlines":
                rng = random.Random(int(command[1]))
                low, high = float(command[2]), float(command[3])
                now = emu.config.clock()
                answer = {}
                for op_id in sorted(emu.state.operations):
                    operation = emu.state.operations[op_id]
                    if not operation.done:
                        operation.deadline = now + emu.config.scaled(rng.uniform(low, high))
                        answer[f"operations/{op_id}"] = operation.deadline
            elif command[0] == "errors":
                answer = [repr(e) for e in emu.internal_errors]
            else:
                answer = {"error": f"unknown command {command[0]!r}"}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


def main() -> None:
    """Entry point: one JSON argument with EmulatorConfig fields (see :func:`_config`)."""
    asyncio.run(serve(json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}))


if __name__ == "__main__":
    main()
