"""``route-planning demo``: the whole workflow, through the public client API, against the emulator.

The emulated team has one depot (the demo area's centre) and as many drivers as
asked for. The emulator enforces the contract's limits divided by the speed-up,
and the client's scheduler uses the same limits, so the run shows that a
thousand stops go through at the contract's pace without a single 429.
"""

from __future__ import annotations

import collections
import datetime
import time
from pathlib import Path
from typing import Any

import click

from route_planning_async import OptimizationSuccess, Stop, StopType
from route_planning_async._cli._emulated import demo_config
from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._files._sample_stops import DEFAULT_DEPOT, generate_stops
from route_planning_async._cli._options import (
    JSON_OPTION,
    NEW_FILE,
    Command,
    runs,
    seed_option,
    speedup_option,
)
from route_planning_async._cli._output._map import write_map
from route_planning_async._cli._output._render import Output, routes_table, skipped_table, stats_table
from route_planning_async._cli._output._summary import summarize_routes
from route_planning_async._cli._progress import import_with_progress, stats_rows, wait_with_status
from route_planning_async._cli._run import Settings, dump_json, open_client
from route_planning_async._cli._versions import as_v0_2b

__all__ = ["demo", "run_demo"]


class _Phases:
    """How long each step took, noted as it ends."""

    def __init__(self, output: Output) -> None:
        self._output = output
        self._last = time.monotonic()
        self.seconds: dict[str, float] = {}

    def done(self, name: str, message: str) -> None:
        now = time.monotonic()
        self.seconds[name] = round(now - self._last, 2)
        self._last = now
        self._output.note(f"{message} in {self.seconds[name]:.1f} s")


_SKIPPED_SHOWN = 15


def _label(stop: Stop | None) -> str:
    if stop is None:
        return "—"
    who = stop.recipient.external_id or stop.recipient.name or ""
    where = stop.address.address_line_one or stop.address.address
    window = ""
    timing = stop.timing
    if timing.earliest_attempt_time is not None and timing.latest_attempt_time is not None:
        window = f" [{timing.earliest_attempt_time:%H:%M}-{timing.latest_attempt_time:%H:%M}]"
    return f"{who} {where}{window}".strip()


async def run_demo(
    output: Output,
    *,
    stop_count: int,
    driver_count: int,
    speedup: float,
    seed: int,
    map_path: Path | None,
) -> dict[str, Any]:
    """Run the workflow, print its tables, and return the facts for ``--json``."""
    area = DEFAULT_DEPOT
    config = demo_config(area, driver_count=driver_count, speedup=speedup, seed=seed)
    stops = generate_stops(stop_count, seed=seed, area=area)
    async with open_client(Settings(), emulator_config=config) as opened:
        client = as_v0_2b(opened, "demo")  # the demo's workflow is written for v0.2b
        output.note(
            f"emulator at {client.base_url} (HTTPS), speed-up {speedup:g}: "
            f"{stop_count} stops, {driver_count} drivers, seed {seed}"
        )
        starts = datetime.datetime.now(datetime.UTC).date()
        plan = await client.plans.create(
            title=f"Demo {starts:%a %d %b}: {stop_count} stops",
            starts=starts,
            drivers=[f"drivers/{driver.id}" for driver in config.team.drivers],
        )
        output.note(f"created {plan.id} with {len(plan.drivers)} drivers")

        phases = _Phases(output)
        outcomes = await import_with_progress(client, output, plan.id, stops)
        imported = sum(1 for stop_id, _ in outcomes if stop_id is not None)
        import_errors = collections.Counter(error for stop_id, error in outcomes if stop_id is None)
        phases.done("import", f"imported {imported} stops")

        operation = await client.plans.optimize(plan.id)
        if not operation.done:
            # Reads are cheap (10 per second); a steady poll each contract second
            # ends the wait soon after the optimization ends.
            operation = await wait_with_status(client, output, operation, None, poll_every=1.0 / speedup)
        result = operation.result
        skipped = result.skipped_stops if isinstance(result, OptimizationSuccess) else []
        phases.done("optimize", f"optimized {operation.id}")
        distributed = await client.plans.distribute(plan.id)
        phases.done("distribute", f"distributed {len(distributed.routes)} routes")

        # Stops come 10 per page at 10 reads per second: the longest step at speed-up 1.
        plan_stops = await client.stops.list(plan.id, max_page_size=10).collect()
        # An optimized route also lists its start and end stops (at the depot); only
        # deliveries count as stops here (contract, Stop: type).
        deliveries = sum(1 for stop in plan_stops if stop.type == StopType.STOP)
        phases.done("list", f"read back {deliveries} stops")
        routes = summarize_routes(distributed, plan_stops)
        by_id = {stop.id: stop for stop in plan_stops}
        stats = stats_rows(client)

    reasons = collections.Counter(item.reason for item in skipped)
    if not output.json:
        output.out.print(routes_table(routes))
        if skipped:
            rows = [
                (item.id.rpartition("/")[2], _label(by_id.get(item.id)), item.reason)
                for item in skipped[:_SKIPPED_SHOWN]
            ]
            table = skipped_table(rows)
            counts = ", ".join(f"{count} {reason}" for reason, count in reasons.most_common())
            table.caption = f"{len(skipped)} skipped: {counts}" + (
                f" (first {_SKIPPED_SHOWN} shown)" if len(skipped) > _SKIPPED_SHOWN else ""
            )
            output.out.print(table)
        else:
            output.out.print("No stop was skipped.")
        if import_errors:
            output.warn(f"{len(outcomes) - imported} stops were not imported: {dict(import_errors)}")
        output.out.print(stats_table(stats))
    if map_path is not None:
        unrouted = [
            (stop.address.latitude, stop.address.longitude)
            for stop in (by_id.get(item.id) for item in skipped)
            if stop is not None and stop.address.latitude is not None and stop.address.longitude is not None
        ]
        write_map(
            map_path,
            routes,
            depot=(area.latitude, area.longitude),
            title=f"{distributed.title} ({len(routes)} routes)",
            unrouted=unrouted,
        )
        output.note(f"map written to {map_path}")
    return {
        "plan": distributed.id,
        "stops": stop_count,
        "imported": imported,
        "optimized": result.num_optimized_stops if isinstance(result, OptimizationSuccess) else 0,
        "routes": [route.to_json() for route in routes],
        "skipped": [{"id": item.id, "reason": item.reason} for item in skipped],
        "skipped_by_reason": dict(reasons),
        "stats": stats,
        "seconds": phases.seconds,
    }


@click.command(cls=Command)
@click.option("--stops", "stop_count", type=click.IntRange(1, 100_000), default=1000, show_default=True)
@click.option("--drivers", "driver_count", type=click.IntRange(1, 50), default=5, show_default=True)
@speedup_option("Run the emulator (and the client's limits) this many times faster than the contract.")
@seed_option("Seed of the generated stops.")
@click.option("--map", "map_path", type=NEW_FILE, help="Also draw the routes into this HTML file.")
@JSON_OPTION
@runs
async def demo(
    settings: Settings,
    *,
    stop_count: int,
    driver_count: int,
    speedup: float,
    seed: int,
    map_path: Path | None,
) -> int:
    """Run the whole workflow against an embedded emulator over HTTPS.

    Creates a plan with drivers, imports realistic stops around the depot,
    optimizes, distributes, and prints the routes, the skipped stops and the
    requests per rate-limit category. At --speedup 1 the emulator enforces the
    contract's limits as they are.
    """
    started = time.monotonic()
    output = Output(json=settings.json)
    summary = await run_demo(
        output,
        stop_count=stop_count,
        driver_count=driver_count,
        speedup=speedup,
        seed=seed,
        map_path=map_path,
    )
    elapsed = time.monotonic() - started
    if output.json:
        dump_json({**summary, "elapsed_s": round(elapsed, 2)})
    else:
        output.note(f"demo finished in {elapsed:.1f} s")
    return ExitCode.OK
