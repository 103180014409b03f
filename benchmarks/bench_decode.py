"""3. Decoding: structuring a page of full Stop JSON into models, beside ``json.loads``.

Two pages: a page of 10 stops with every field of the contract filled in (routes,
ETAs, delivery info, photos), and the page the emulator serves for 10 stops
imported with every optional field and then optimized. The second is what the
client really fetched in the same run, so model decoding's share of the client's
CPU per request is computed on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from benchmarks._harness._emu import EmulatorServer
from benchmarks._harness._gets import raw_headers
from benchmarks._harness._load import measure, med
from benchmarks._harness._payloads import full_stop_page, rich_stop_body
from benchmarks._results._figures import check, result, rounded, table
from route_planning_async import RateLimits, RoutePlanningClient, Stop
from route_planning_async.v0_2b._converter import structure_list

SHARE_BAR = 0.25
"""Acceptance: model decoding < 25% of the client's CPU per request."""
CONCURRENCY = 16
PAGE = 10
PLAN_DATE = datetime.date(2030, 1, 7)


def _sizes(quick: bool) -> tuple[float, int, int]:
    """(seconds per timing, GETs per round, rounds)."""
    return (0.02, 100, 1) if quick else (0.5, 500, 5)


def per_call(func: Callable[[], object], seconds: float, repeats: int = 5) -> float:
    """CPU seconds of one call: the best of ``repeats`` timings of as many calls as fill ``seconds``."""
    loops = 1
    while True:
        started = time.process_time()
        for _ in range(loops):
            func()
        spent = time.process_time() - started
        if spent >= seconds / 5:
            break
        loops *= 2
    best = spent / loops
    for _ in range(repeats - 1):
        started = time.process_time()
        for _ in range(loops):
            func()
        best = min(best, (time.process_time() - started) / loops)
    return best


def decode_figures(body: bytes, seconds: float) -> dict[str, float]:
    """Seconds per page of json.loads, of structuring the parsed page, and of both."""
    data = json.loads(body)
    stops = data["stops"]
    structure_list(stops, Stop)  # the converter builds its hooks on first use

    return {
        "json": per_call(lambda: json.loads(body), seconds),
        "structure": per_call(lambda: structure_list(stops, Stop), seconds),
        "both": per_call(lambda: structure_list(json.loads(body)["stops"], Stop), seconds),
        "objects": len(stops),
        "bytes": len(body),
    }


async def _emulator_page(server: EmulatorServer, n: int, rounds: int, seconds: float) -> dict[str, Any]:
    async with RoutePlanningClient(
        server.api_key, base_url=server.base_url, rate_limits=RateLimits.unlimited()
    ) as client:
        plan = await client.plans.create(
            title="bench decode", starts=PLAN_DATE, drivers=["drivers/driver-ana", "drivers/driver-ben"]
        )
        bare = plan.id.split("/", 1)[1]
        url = f"{server.base_url}/plans/{bare}/stops"
        headers = raw_headers(server.api_key)
        async with aiohttp.ClientSession() as session:
            body = json.dumps([rich_stop_body(i) for i in range(PAGE)]).encode()
            async with session.post(
                f"{url}:import", data=body, headers={**headers, "Content-Type": "application/json"}
            ) as resp:
                if resp.status != 200:
                    raise RuntimeError(f"import answered {resp.status}: {await resp.text()}")
            await client.plans.optimize(plan.id)
            async with session.get(url, params={"maxPageSize": str(PAGE)}, headers=headers) as resp:
                page = await resp.read()

        async def client_page() -> Any:
            # One page only: close the page iterator (an async generator) right after it.
            pages: Any = client.stops.list(plan.id, max_page_size=PAGE).pages()
            async with contextlib.aclosing(pages):
                return await anext(pages)

        first = await client_page()
        if len(first.items) != PAGE:
            raise RuntimeError(f"expected a page of {PAGE} stops, got {len(first.items)}")
        stops = json.loads(page)["stops"]
        runs = []
        # The request rounds and the decoding timings alternate, so that a change in the load of
        # the machine (shared, 2 cores) weighs on both sides of each share alike.
        for _ in range(rounds):
            run = await measure(server, client_page, n, CONCURRENCY)
            run["structure"] = per_call(lambda: structure_list(stops, Stop), seconds)
            run["share"] = run["structure"] / run["cpu_per_request"]
            runs.append(run)
    return {"page": page, "runs": runs}


def run(quick: bool = False) -> dict[str, Any]:
    """Objects per second of model decoding and of json.loads; decoding's share of a request's CPU."""
    seconds, n, rounds = _sizes(quick)
    full_body = json.dumps(full_stop_page(PAGE)).encode()
    full = decode_figures(full_body, seconds)
    with EmulatorServer(limits=RateLimits.unlimited(), tls=False) as server:
        fetched = asyncio.run(_emulator_page(server, n, rounds, seconds))
    served = decode_figures(fetched["page"], seconds)
    cpu_per_request = med(fetched["runs"], "cpu_per_request")
    share = med(fetched["runs"], "share")

    def rate(fig: dict[str, float], key: str) -> float | None:
        return rounded(fig["objects"] / fig[key], 0)

    rows = [
        [
            label,
            int(fig["bytes"]),
            rate(fig, "json"),
            rate(fig, "structure"),
            rate(fig, "both"),
            rounded(fig["json"] / fig["structure"], 3),
            rounded(fig["json"] / fig["both"], 3),
        ]
        for label, fig in (("every field filled in", full), ("as the emulator serves it", served))
    ]
    return result(
        "Decoding a page of full Stop JSON into models",
        settings={
            "page": f"{PAGE} stops (the stop list's largest page)",
            "converter": "route_planning_async.v0_2b._converter.structure_list(data, Stop)",
            "timing": "process CPU time, best of 5 runs of as many calls as fill the time",
            "client requests for the share": f"{rounds} rounds of {n} GET stops pages, concurrency "
            f"{CONCURRENCY}, plain HTTP, emulator in its own process, limits off",
        },
        figures={
            "full page: structure objects/s": rate(full, "structure"),
            "full page: json.loads objects/s": rate(full, "json"),
            "full page: ratio structure / json.loads (objects/s)": rounded(
                full["json"] / full["structure"], 4
            ),
            "full page: ratio json.loads + structure / json.loads alone (objects/s)": rounded(
                full["json"] / full["both"], 4
            ),
            "served page: structure per page (us)": rounded(served["structure"] * 1e6, 1),
            "served page: json.loads per page (us)": rounded(served["json"] * 1e6, 1),
            "client CPU per stops-page request (us)": rounded(cpu_per_request * 1e6, 1),
            "model decoding share of the client's CPU per request (median of the rounds)": rounded(share, 4),
            "json.loads share of the client's CPU per request": rounded(served["json"] / cpu_per_request, 4),
        },
        checks=[check("model decoding share of CPU per request", rounded(share, 4), "<", SHARE_BAR)],
        tables=[
            table(
                "Rounds: client requests for the served page, then decoding of that page",
                ["Round", "client CPU per request (us)", "structure per page (us)", "share"],
                [
                    [
                        i + 1,
                        rounded(r["cpu_per_request"] * 1e6, 1),
                        rounded(r["structure"] * 1e6, 1),
                        rounded(r["share"], 4),
                    ]
                    for i, r in enumerate(fetched["runs"])
                ],
            ),
            table(
                "Objects per second (one object = one Stop)",
                [
                    "Page",
                    "bytes",
                    "json.loads",
                    "structure",
                    "json.loads + structure",
                    "ratio structure",
                    "ratio both",
                ],
                rows,
            ),
        ],
        notes=[
            "ratio structure = structure objects/s / json.loads objects/s on the same bytes; ratio both = "
            "(json.loads + structure) objects/s / json.loads objects/s.",
            "The share divides the CPU time of structuring the served page by the client process's CPU time "
            "per request for that same page (GET, scheduler, transport, json.loads, structure), both "
            "measured in each round, one right after the other; the median of the rounds is held to the bar.",
        ],
    )
