"""The emulator's own limits, disagreeing with the client's: token buckets with a burst,
refused requests that count or not, limits that change mid-run, the penalty for
sustained traffic near the limit, and a link with latency and jitter.

Everything runs on a fake server clock (or checks lower bounds against the log's
arrival times), so no test waits through a window.
"""

from __future__ import annotations

import asyncio
import time
from typing import cast

import attrs
import pytest

from emulator.conftest import Api, FakeClock
from route_planning_async import Category, RateLimits, Rule
from route_planning_async.emulator import (
    Emulator,
    EmulatorConfig,
    LimitTimeline,
    PunishSustained,
    RateLimiter,
    RequestLog,
    RequestRecord,
)
from route_planning_async.emulator._traffic._link import Link
from route_planning_async.emulator._traffic._log import Outcome

READ = Category.READ
DEFAULT = RateLimits.default()
TEN = RateLimits({"read": [Rule(10, 1.0)]})
FOUR = RateLimits({"read": [Rule(4, 1.0)]})


def clock_of(emu: Emulator) -> FakeClock:
    return cast(FakeClock, emu.config.clock)


def admitted_at(limiter: RateLimiter, times: list[float], weight: int = 1) -> list[bool]:
    return [limiter.check("k", READ, weight, t).admitted for t in times]


# ------------------------------------------------------------- token bucket


def test_token_bucket_admits_a_burst_then_the_refill_rate() -> None:
    limiter = RateLimiter(TEN, kind="token_bucket", burst=2.0, count_rejected=False)
    # A full bucket of 2 x 10 tokens: twenty at once, not twenty-one.
    assert admitted_at(limiter, [0.0] * 21) == [True] * 20 + [False]
    rejected = limiter.check("k", READ, 1, 0.0)
    assert (rejected.reason, rejected.rule) == ("window", Rule(10, 1.0))
    assert rejected.retry_after == pytest.approx(0.1)  # one token at 10 a second
    # Then 10 a second, continuously: one every 0.1 s, never two.
    for step in range(1, 31):
        assert admitted_at(limiter, [0.1 * step + 1e-6] * 2) == [True, False]
    # After a pause the bucket holds the pause's refill, up to its capacity.
    assert sum(admitted_at(limiter, [3.0 + 0.5] * 30)) == 5
    assert sum(admitted_at(limiter, [3.5 + 10.0] * 30)) == 20


def test_token_bucket_with_burst_one_allows_amount_plus_the_refill() -> None:
    limiter = RateLimiter(TEN, kind="token_bucket", count_rejected=False)
    # Unlike a sliding window (10 in any second), a bucket of 10 refilled at 10/s admits 10 at
    # once and then one every 0.1 s: 19 in the first 0.9 s.
    times = [i * 0.01 for i in range(91)]
    assert sum(admitted_at(limiter, times)) == 19
    window = RateLimiter(TEN, count_rejected=False)
    assert sum(admitted_at(window, times)) == 10


def test_token_bucket_weight_rules_take_the_weight_in_tokens() -> None:
    limits = RateLimits({"batch_import": [Rule(10, 60.0), Rule(1000, 60.0, per="weight")]})
    limiter = RateLimiter(limits, kind="token_bucket", count_rejected=False)
    check = limiter.check
    assert check("k", Category.BATCH_IMPORT, 600, 0.0).admitted
    assert check("k", Category.BATCH_IMPORT, 400, 0.0).admitted
    refused = check("k", Category.BATCH_IMPORT, 100, 0.0)
    assert (refused.admitted, refused.rule) == (False, Rule(1000, 60.0, per="weight"))
    # 100 stops at 1,000 a minute: 6 seconds.
    assert refused.retry_after == pytest.approx(6.0)
    assert not check("k", Category.BATCH_IMPORT, 100, 5.9).admitted
    assert check("k", Category.BATCH_IMPORT, 100, 6.0).admitted
    # The request rule holds 10 tokens: 3 taken, 7 left plus the refill.
    assert check("other", Category.BATCH_IMPORT, 1, 0.0).admitted  # keys have their own buckets


def test_token_bucket_counting_refused_requests() -> None:
    counting = RateLimiter(TEN, kind="token_bucket", count_rejected=True)
    lenient = RateLimiter(TEN, kind="token_bucket", count_rejected=False)
    for limiter in (counting, lenient):
        assert all(admitted_at(limiter, [0.0] * 10))
    # Retrying 20 times a second (over the 10/s refill): a refused request still takes its
    # token, so the counting bucket never admits one; the lenient one admits every other.
    retries = [0.05 * step for step in range(1, 41)]
    assert not any(admitted_at(counting, retries))
    assert sum(admitted_at(lenient, retries)) == 20
    # Never into debt: slowing down to the refill rate gets through at once.
    refused = counting.check("k", READ, 1, 2.05)
    assert refused.retry_after == pytest.approx(0.1)
    assert counting.check("k", READ, 1, 2.15).admitted


def test_sliding_window_counting_refused_requests_keeps_a_retrying_client_out() -> None:
    counting = RateLimiter(TEN, count_rejected=True)
    lenient = RateLimiter(TEN, count_rejected=False)
    for limiter in (counting, lenient):
        assert all(admitted_at(limiter, [0.0] * 10))
    retries = [0.05 * step for step in range(1, 40)]  # until t=1.95
    assert not any(admitted_at(counting, retries))
    # The lenient window admits ten again once the first ten have left it at t=1.0.
    assert sum(admitted_at(lenient, retries)) == 10
    # Retrying once a window at most gets through again.
    assert counting.check("k", READ, 1, 4.0).admitted


# ---------------------------------------------------------------- schedule


def test_timeline_schedule_counts_from_its_start_in_contract_seconds() -> None:
    timeline = LimitTimeline(TEN, speedup=10.0)
    timeline.restart(100.0, TEN, [(40.0, TEN), (20.0, FOUR)])
    assert [c.time for c in timeline.changes] == [-float("inf"), 100.0, 102.0, 104.0]
    assert timeline.at(101.999).limits == TEN
    assert timeline.at(102.0).limits == FOUR
    assert timeline.at(102.0).server_limits == FOUR.scaled(10.0)
    assert timeline.at(104.0).limits == TEN
    # Restarting drops the changes still to come, keeps the past ones.
    timeline.restart(103.0, FOUR)
    assert [c.time for c in timeline.changes] == [-float("inf"), 100.0, 102.0, 103.0]
    assert timeline.at(1e9).limits == FOUR


def test_a_change_keeps_the_windows_history() -> None:
    timeline = LimitTimeline(TEN)
    limiter = RateLimiter(kind="sliding_window", timeline=timeline)
    assert all(admitted_at(limiter, [0.0] * 8))
    timeline.set(0.5, FOUR)
    # Eight requests are still in the window: a limit of four admits none until they leave.
    refused = limiter.check("k", READ, 1, 0.5)
    assert (refused.admitted, refused.reason) == (False, "window")
    # The refused one counted too; the eight leave at 1.0, it at 1.5.
    assert admitted_at(limiter, [1.0] * 4) == [True, True, True, False]
    timeline.set(2.0, TEN)
    # Back at ten: the 3 (+1 refused) of t=1.0 still count until t=2.0 ... which has come.
    assert sum(admitted_at(limiter, [2.0] * 12)) == 10


def test_a_change_keeps_what_a_bucket_has_given() -> None:
    timeline = LimitTimeline(TEN)
    limiter = RateLimiter(kind="token_bucket", count_rejected=False, timeline=timeline)
    assert all(admitted_at(limiter, [0.0] * 8))
    timeline.set(0.0, FOUR)
    # Eight taken: a bucket of four is empty (never in debt), refilled at 4 a second.
    assert admitted_at(limiter, [0.0, 0.25, 0.25]) == [False, True, False]
    timeline.set(1.0, TEN)
    # At t=1.0 the four-bucket had refilled 3 of its 4 tokens (1 taken at 0.25): 1 used of 10.
    assert sum(admitted_at(limiter, [1.0] * 20)) == 9


SCHEDULED = {
    "speedup": 1.0,
    "rate_limits": DEFAULT,
    "limit_schedule": ((20.0, DEFAULT.replace("read", Rule(4, 1.0))), (40.0, DEFAULT)),
}


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(**SCHEDULED, clock=FakeClock())
async def test_the_schedule_switches_the_limits_at_its_times(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    start = clock.now

    async def reads(count: int) -> list[int]:
        return [(await api.call("GET", "/depots")).status for _ in range(count)]

    clock.advance(19.5)
    assert await reads(11) == [200] * 10 + [429]
    clock.advance(0.5)  # t=20: four a second, and the last second's eleven still count
    assert emu.rate_limits.for_category(READ) == (Rule(4, 1.0),)
    assert await reads(1) == [429]
    clock.advance(1.0)
    assert await reads(5) == [200] * 4 + [429]
    clock.advance(19.0)  # t=40: ten a second again
    assert await reads(11) == [200] * 10 + [429]
    # The log tells which limit each request met.
    met = [(round(r.time - start, 3), emu.log.rule_at("read", r.time)) for r in emu.log.select("read")]
    assert {rule for t, rule in met if t < 20} == {Rule(10, 1.0)}
    assert {rule for t, rule in met if 20 <= t < 40} == {Rule(4, 1.0)}
    assert {rule for t, rule in met if t >= 40} == {Rule(10, 1.0)}
    assert [round(c.time - start, 3) for c in emu.log.limit_changes[-3:]] == [0.0, 20.0, 40.0]


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(speedup=10.0, rate_limits=DEFAULT, clock=FakeClock())
async def test_set_rate_limits_at_run_time(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    assert [(await api.call("GET", "/depots")).status for _ in range(3)] == [200] * 3
    emu.set_rate_limits(DEFAULT.replace("read", Rule(2, 1.0)))
    # Contract seconds, sped up like rate_limits: 2 per 0.1 s, and the three still count.
    answer = await api.call("GET", "/depots")
    assert answer.status == 429
    assert float(answer.headers["Retry-After"]) == pytest.approx(0.1, abs=0.0011)
    clock.advance(0.1)
    assert [(await api.call("GET", "/depots")).status for _ in range(3)] == [200, 200, 429]
    assert emu.log.limits_at(clock.now).for_category(READ) == (Rule(2, 0.1),)
    assert emu.rate_limits.for_category(READ) == (Rule(2, 1.0),)
    # Restarting the schedule brings back rate_limits (the windows stay).
    emu.restart_limit_schedule()
    assert emu.rate_limits == DEFAULT
    clock.advance(0.1)
    assert [(await api.call("GET", "/depots")).status for _ in range(11)] == [200] * 10 + [429]


# ----------------------------------------------------------------- penalty


def paced(limiter: RateLimiter, rate: float, start: float, seconds: float) -> list[tuple[float, str]]:
    """Requests at ``rate`` a second: (time, "" when admitted else the reason)."""
    out = []
    for i in range(round(rate * seconds)):
        t = start + i / rate
        decision = limiter.check("k", READ, 1, t)
        out.append((t, "" if decision.admitted else decision.reason))
    return out


@pytest.mark.parametrize("kind", ["sliding_window", "token_bucket"])
def test_sustained_traffic_near_the_limit_is_punished_with_either_limiter(kind: str) -> None:
    punish = PunishSustained(threshold=0.8, after=3.0)
    limiter = RateLimiter(TEN, kind=kind, punish_sustained=punish)  # type: ignore[arg-type]
    # 9 a second (90 % of the limit): admitted for three periods after it got near, then refused
    # as long as it goes on (the refused requests count, so the traffic stays near the limit).
    outcome = paced(limiter, 9.0, 0.0, 6.0)
    refused = [(t, reason) for t, reason in outcome if reason]
    assert refused
    assert {reason for _, reason in refused} == {"sustained"}
    first = refused[0][0]
    # Near from the 8th request of the first second (t = 7/9), punished from 3 s later.
    assert first == pytest.approx(7 / 9 + 3.0, abs=1 / 9 + 1e-9)
    assert all(reason for t, reason in outcome if t >= first)
    decision = limiter.check("k", READ, 1, 6.0)
    assert decision.retry_after == pytest.approx(1.0)  # the category's longest period
    # Dropping below the threshold for a period clears it.
    assert paced(limiter, 5.0, 7.5, 2.0) == [(7.5 + i / 5, "") for i in range(10)]


@pytest.mark.parametrize("kind", ["sliding_window", "token_bucket"])
def test_traffic_below_the_threshold_is_never_punished(kind: str) -> None:
    limiter = RateLimiter(
        TEN,
        kind=kind,  # type: ignore[arg-type]
        punish_sustained=PunishSustained(threshold=0.8, after=3.0),
    )
    assert all(reason == "" for _, reason in paced(limiter, 7.0, 0.0, 60.0))


def test_the_penalty_follows_the_limit_in_force() -> None:
    timeline = LimitTimeline(TEN)
    limiter = RateLimiter(
        kind="token_bucket",
        timeline=timeline,
        punish_sustained=PunishSustained(threshold=0.8, after=3.0),
    )
    timeline.set(10.0, RateLimits({"read": [Rule(5, 1.0)]}))
    # 4.5 a second is 45 % of ten (never punished) but 90 % of five (punished 3 s after the drop).
    outcome = paced(limiter, 4.5, 0.0, 20.0)
    assert all(reason == "" for t, reason in outcome if t < 13.0)
    assert {reason for t, reason in outcome if t >= 13.5} == {"sustained"}


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(
    speedup=1.0,
    rate_limits=DEFAULT,
    clock=FakeClock(),
    limiter="token_bucket",
    burst=2.0,
    punish_sustained=PunishSustained(threshold=0.8, after=3.0),
)
async def test_penalty_mode_over_http_with_a_token_bucket(api: Api, emu: Emulator) -> None:
    clock = clock_of(emu)
    # The burst: twenty at once.
    assert [(await api.call("GET", "/depots")).status for _ in range(21)] == [200] * 20 + [429]
    assert emu.log.records[-1].reason == "window"
    clock.advance(5.0)
    statuses = []
    for _ in range(60):
        statuses.append((await api.call("GET", "/depots")).status)
        clock.advance(1 / 9)
    assert statuses[:27] == [200] * 27
    assert 429 in statuses[27:]
    assert {r.reason for r in emu.log.rejected("read")[1:]} == {"sustained"}
    clock.advance(2.0)
    assert (await api.call("GET", "/depots")).status == 200


# ----------------------------------------------------------------- latency


@attrs.define
class AdvancingSleep:
    """A ``sleep`` that moves a fake clock instead of waiting, and remembers each delay."""

    clock: FakeClock = attrs.field(factory=FakeClock)
    delays: list[float] = attrs.field(factory=list)

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        self.clock.advance(seconds)


LINK = AdvancingSleep()
LINK_RULE = RateLimits({"read": [Rule(1, 1.0)]})


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(
    speedup=1.0, rate_limits=LINK_RULE, clock=LINK.clock, sleep=LINK, latency=0.3, latency_jitter=0.05
)
@pytest.mark.parametrize(
    "seed",
    # Seed 0 draws a longer second inbound delay than the first, seed 7 a shorter one.
    [pytest.param(seed, marks=pytest.mark.route_planning_emulator(seed=seed)) for seed in (0, 7)],
)
async def test_latency_delays_the_arrival_and_the_answer(api: Api, emu: Emulator, seed: int) -> None:
    assert emu.config.seed == seed
    clock, delays = LINK.clock, LINK.delays
    delays.clear()
    # The same seed draws the same delays: inbound, outbound, inbound, outbound.
    same = Link(0.3, 0.05, seed, LINK)
    d = [same.draw() for _ in range(4)]
    assert all(0.3 <= x <= 0.35 for x in d)
    assert d[0] != d[2]
    first_sent = clock.now
    assert (await api.call("GET", "/depots")).status == 200
    assert delays == d[:2]
    # The server saw the request after the inbound delay (the log's and the limiter's time),
    # and the answer left after the outbound one.
    first = emu.log.records[-1]
    assert first.time == pytest.approx(first_sent + d[0])
    assert clock.now == pytest.approx(first.time + d[1])
    # One a second, counted at arrival: send the second request so that the arrival gap and
    # the sending gap fall on different sides of one second.
    later = d[2] > d[0]
    gap = 1.0 - (d[2] - d[0]) / 2 if later else 1.0 + (d[0] - d[2]) / 2
    clock.advance(first_sent + gap - clock.now)
    second_sent = clock.now
    answer = await api.call("GET", "/depots")
    second = emu.log.records[-1]
    assert second.time == pytest.approx(second_sent + d[2])
    assert (second.time - first.time > 1.0) is later
    assert (second_sent - first_sent < 1.0) is later
    assert second.admitted is later
    assert answer.status == (200 if later else 429)
    assert delays == d


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(latency=0.02, latency_jitter=0.01)
async def test_latency_is_real_seconds_whatever_the_speedup(api: Api, emu: Emulator) -> None:
    assert emu.config.speedup == 1000.0

    async def one() -> tuple[float, float]:
        sent = time.monotonic()
        answer = await api.call("GET", "/depots")
        assert answer.status == 200
        return sent, time.monotonic()

    timings = await asyncio.gather(*(one() for _ in range(5)))
    records = sorted(emu.log.select("read"), key=lambda r: r.time)
    assert len(records) == 5
    # Lower bounds only: each request arrived at least 20 ms after the first was sent, and no
    # answer came back sooner than 20 ms after the last arrival it could be.
    first_sent = min(sent for sent, _ in timings)
    assert all(r.time - first_sent >= 0.02 for r in records)
    assert min(received for _, received in timings) - records[0].time >= 0.02


# ------------------------------------------------------------- request log


def read_record(seq: int, t: float, admitted: bool = True) -> RequestRecord:
    status = 200 if admitted else 429
    outcome: Outcome = "ok" if admitted else "rate_limited"
    return RequestRecord(seq, t, "GET", "/depots", "depots.list", READ, 1, status, outcome, admitted)


def test_the_log_measures_against_the_limit_in_force() -> None:
    timeline = LimitTimeline(TEN, since=0.0)
    timeline.set(10.0, FOUR)
    timeline.set(20.0, TEN)
    log = RequestLog(timeline)
    times = [i / 10 for i in range(100)]  # 10/s for 10 s
    times += [10 + i / 4 for i in range(40)]  # 4/s for 10 s
    times += [20 + i / 5 for i in range(10)]  # 5/s for 2 s, then 10/s
    times += [22 + i / 10 for i in range(80)]
    for seq, t in enumerate(times, 1):
        log.append(read_record(seq, t))
    log.append(read_record(999, 25.0, admitted=False))
    assert log.rule_at("read", 5.0) == Rule(10, 1.0)
    assert log.rule_at("read", 15.0) == Rule(4, 1.0)
    assert log.rule_at("read", 15.0, per="weight") is None
    assert log.limits_at(-5.0) == TEN
    # Saturating the limit in force in each phase; the plain occupancy measures against ten.
    assert log.occupancy_in_force("read", 1.0, 9.5) == pytest.approx(1.0)
    assert log.occupancy_in_force("read", 11.0, 19.5) == pytest.approx(1.0)
    assert log.occupancy("read", 10, 1.0, 11.0, 19.5) == pytest.approx(0.4)
    # Across the drop the windows still hold the last second at ten: a little over 1.0.
    assert log.occupancy_in_force("read", 5.0, 15.0) == pytest.approx(73 / 70, abs=0.01)
    # After the restoration at t=20 the client needs until t=22 + 0.9 to fill a window of ten.
    assert log.time_to_reach("read", 0.95, 20.0) == pytest.approx(2.9)
    assert log.time_to_reach("read", 0.95, 10.0) == pytest.approx(1.0)  # four after t=10 by t=11
    assert log.time_to_reach("read", 0.95, 30.0) is None
    log.clear()
    assert log.limit_changes == timeline.changes
    with pytest.raises(LookupError):
        RequestLog().limits_at(0.0)


# ---------------------------------------------------------- configuration


def test_configuration_of_the_new_fields() -> None:
    with pytest.raises(ValueError, match="limiter"):
        EmulatorConfig(limiter="leaky")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="burst"):
        EmulatorConfig(burst=0)
    with pytest.raises(ValueError, match="latency"):
        EmulatorConfig(latency=-0.1)
    with pytest.raises(ValueError, match="latency_jitter"):
        EmulatorConfig(latency_jitter=-0.1)
    with pytest.raises(ValueError, match="negative"):
        EmulatorConfig(limit_schedule=[(-1, TEN)])
    with pytest.raises(TypeError):
        EmulatorConfig(limit_schedule=[(1, "fast")])  # type: ignore[list-item]
    config = EmulatorConfig(limit_schedule=[(40, TEN), (20, FOUR)])
    assert config.limit_schedule == ((20.0, FOUR), (40.0, TEN))


def test_the_benchmark_harness_passes_every_setting() -> None:
    from benchmarks._harness._emuserver import _config, limits_spec

    config = _config(
        {
            "limits": limits_spec(TEN),
            "speedup": 10,
            "limiter": "token_bucket",
            "burst": 1.5,
            "count_rejected": False,
            "limit_schedule": [[20, limits_spec(FOUR)], [40, "default"]],
            "punish_sustained": [0.9, 3.0],
            "latency": 0.05,
            "latency_jitter": 0.01,
        }
    )
    assert config.rate_limits == TEN
    assert (config.limiter, config.burst, config.count_rejected) == ("token_bucket", 1.5, False)
    assert config.limit_schedule == ((20.0, FOUR), (40.0, DEFAULT))
    assert config.punish_sustained == PunishSustained(0.9, 3.0)
    assert (config.latency, config.latency_jitter) == (0.05, 0.01)
