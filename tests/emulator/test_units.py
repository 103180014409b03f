"""The emulator's pure parts: optimizer, geocoder, limiter, log, configuration, fault arguments."""

from __future__ import annotations

import datetime

import pytest

from route_planning_async import Category, RateLimits, Rule
from route_planning_async.emulator import (
    CustomStopPropertyConfig,
    DepotConfig,
    EmulatorConfig,
    Fault,
    FaultKind,
    RequestLog,
    RequestRecord,
    TeamConfig,
)
from route_planning_async.emulator._routing._geo import geocode, haversine_m
from route_planning_async.emulator._routing._optimizer import OptDriver, OptStop, optimize
from route_planning_async.emulator._traffic._limits import SlidingWindowLimiter, retry_after_header

DEPOT = (51.5, 0.0)


# ----------------------------------------------------------------- optimizer


def ring(count: int, radius: float = 0.02) -> list[OptStop]:
    import math

    return [
        OptStop(
            f"s{i:02}",
            DEPOT[0] + radius * math.sin(2 * math.pi * i / count),
            DEPOT[1] + radius * math.cos(2 * math.pi * i / count),
        )
        for i in range(count)
    ]


def test_stops_are_split_by_angle_into_sectors() -> None:
    drivers = [OptDriver("drivers/a", 9 * 3600), OptDriver("drivers/b", 9 * 3600)]
    outcome = optimize(DEPOT, drivers, ring(8), 10.0)
    assert outcome.skipped == []
    a = {v.stop_id for v in outcome.routes["drivers/a"]}
    b = {v.stop_id for v in outcome.routes["drivers/b"]}
    assert len(a) == len(b) == 4
    # Bearings 0..157.5 degrees go to the first sector, the rest to the second.
    assert a == {"s00", "s01", "s02", "s03"}
    assert b == {"s04", "s05", "s06", "s07"}


def test_route_order_is_nearest_neighbour_from_the_depot() -> None:
    stops = [OptStop("far", 51.5, 0.05), OptStop("near", 51.5, 0.01), OptStop("mid", 51.5, 0.03)]
    outcome = optimize(DEPOT, [OptDriver("drivers/a", 0)], stops, 10.0)
    assert [v.stop_id for v in outcome.routes["drivers/a"]] == ["near", "mid", "far"]
    assert [v.position for v in outcome.routes["drivers/a"]] == [1, 2, 3]
    first = outcome.routes["drivers/a"][0]
    assert first.travel_meters == pytest.approx(haversine_m(*DEPOT, 51.5, 0.01), abs=0.1)
    assert first.travel_seconds == pytest.approx(first.travel_meters / 10.0, abs=0.1)


def test_first_and_last_groups() -> None:
    stops = [
        OptStop("near-last", 51.5, 0.01, order="last"),
        OptStop("far-first", 51.5, 0.05, order="first"),
        OptStop("mid", 51.5, 0.03),
    ]
    outcome = optimize(DEPOT, [OptDriver("drivers/a", 0)], stops, 10.0)
    assert [v.stop_id for v in outcome.routes["drivers/a"]] == ["far-first", "mid", "near-last"]


def test_time_windows_wait_or_skip() -> None:
    stops = [
        OptStop("late", 51.5, 0.01, latest=8 * 3600),
        OptStop("waits", 51.5, 0.02, earliest=12 * 3600, duration=60),
        OptStop("after", 51.5, 0.03),
    ]
    outcome = optimize(DEPOT, [OptDriver("drivers/a", 9 * 3600)], stops, 10.0)
    assert outcome.skipped == [("late", "impossible_time_window")]
    waits, after = outcome.routes["drivers/a"]
    assert waits.arrival_seconds == 12 * 3600
    assert after.arrival_seconds == pytest.approx(12 * 3600 + 60 + after.travel_seconds)
    # The skipped stop is not driven to: travel counts from the depot.
    assert waits.travel_meters == pytest.approx(haversine_m(*DEPOT, 51.5, 0.02), abs=0.1)


def test_capacity_and_allowed_drivers() -> None:
    drivers = [OptDriver("drivers/a", 0, max_stops=2), OptDriver("drivers/b", 0)]
    stops = [
        *ring(4),
        OptStop("only-b", 51.51, 0.0, allowed=frozenset({"drivers/b"})),
        OptStop("nobody", 51.49, 0.0, allowed=frozenset({"drivers/z"})),
    ]
    outcome = optimize(DEPOT, drivers, stops, 10.0)
    assert len(outcome.routes["drivers/a"]) == 2
    assert "only-b" in {v.stop_id for v in outcome.routes["drivers/b"]}
    assert ("nobody", "no_allowed_driver") in outcome.skipped
    full = optimize(DEPOT, [OptDriver("drivers/a", 0, max_stops=1)], ring(3), 10.0)
    assert [reason for _, reason in full.skipped] == ["impossible_number_of_stops"] * 2


def test_pinned_stops_keep_their_driver() -> None:
    drivers = [OptDriver("drivers/a", 0), OptDriver("drivers/b", 0)]
    stops = [OptStop(s.id, s.latitude, s.longitude, pinned="drivers/b") for s in ring(4)]
    outcome = optimize(DEPOT, drivers, stops, 10.0)
    assert list(outcome.routes) == ["drivers/b"]


def test_optimizer_is_deterministic_and_needs_a_driver() -> None:
    drivers = [OptDriver("drivers/a", 0), OptDriver("drivers/b", 0), OptDriver("drivers/c", 0)]
    assert optimize(DEPOT, drivers, ring(30), 8.0) == optimize(DEPOT, drivers, list(reversed(ring(30))), 8.0)
    with pytest.raises(ValueError, match="driver"):
        optimize(DEPOT, [], ring(2), 8.0)


# ----------------------------------------------------------------- geocoder


def test_geocoding_is_deterministic_and_near_the_depot() -> None:
    # A town the geocoder does not know: placed around the depot.
    address = {"addressLineOne": "10 High Street", "city": "Little Snoring"}
    first = geocode(address, DEPOT, "UNGEOCODABLE")
    assert first is not None
    same = {"city": "Little Snoring", "addressLineOne": "10 high street".title()}
    assert first == geocode(same, DEPOT, "X")
    assert first.address == "10 High Street, Little Snoring"
    assert 500 <= haversine_m(*DEPOT, first.latitude, first.longitude) <= 15_001
    other = geocode({"addressLineOne": "11 High Street", "city": "Little Snoring"}, DEPOT, "UNGEOCODABLE")
    assert other is not None
    assert (other.latitude, other.longitude) != (first.latitude, first.longitude)


def test_geocoding_rules() -> None:
    assert geocode({"city": "Ungeocodable Falls"}, DEPOT, "UNGEOCODABLE") is None
    assert geocode({"addressName": "Home only"}, DEPOT, "UNGEOCODABLE") is None
    coordinates = geocode({"latitude": 1.5, "longitude": 2.5}, DEPOT, "UNGEOCODABLE")
    assert coordinates is not None
    assert (coordinates.latitude, coordinates.longitude, coordinates.address) == (1.5, 2.5, "")
    # Coordinates override the text, even text the geocoder would refuse.
    both = geocode({"city": "UNGEOCODABLE", "latitude": 1.0, "longitude": 1.0}, DEPOT, "UNGEOCODABLE")
    assert both is not None
    assert both.address == "UNGEOCODABLE"
    assert geocode({"city": "anything"}, DEPOT, "") is not None


# ----------------------------------------------------------------- limiter


def test_limiter_sliding_window_and_retry_after() -> None:
    limiter = SlidingWindowLimiter(RateLimits({"write": [Rule(2, 1.0)]}), count_rejected=False)
    assert limiter.check("k", Category.WRITE, 1, 0.0).admitted
    assert limiter.check("k", Category.WRITE, 1, 0.4).admitted
    rejected = limiter.check("k", Category.WRITE, 1, 0.5)
    assert not rejected.admitted
    assert rejected.retry_after == pytest.approx(0.5)
    assert rejected.rule == Rule(2, 1.0)
    assert limiter.check("k", Category.WRITE, 1, 1.0).admitted
    # Unlimited categories always pass.
    assert all(limiter.check("k", Category.READ, 1, 0.0).admitted for _ in range(100))


def test_limiter_weight_rules_and_keys() -> None:
    limits = RateLimits({"batch_import": [Rule(10, 60.0), Rule(150, 60.0, per="weight")]})
    limiter = SlidingWindowLimiter(limits, count_rejected=False)
    assert limiter.check("k", Category.BATCH_IMPORT, 100, 0.0).admitted
    assert not limiter.check("k", Category.BATCH_IMPORT, 51, 1.0).admitted
    assert limiter.check("k", Category.BATCH_IMPORT, 50, 2.0).admitted
    assert limiter.check("other", Category.BATCH_IMPORT, 100, 2.0).admitted


def test_retry_after_header_format() -> None:
    assert retry_after_header(0.2, 1.0) == "1"
    assert retry_after_header(29.01, 1.0) == "30"
    assert retry_after_header(0.0123, 100.0) == "0.013"
    assert retry_after_header(0.0, 100.0) == "0.001"


# ----------------------------------------------------------------- request log


def record(seq: int, time: float, weight: int = 1, admitted: bool = True) -> RequestRecord:
    return RequestRecord(
        seq, time, "POST", "/x", "stops.import_batch", Category.BATCH_IMPORT, weight, 200, "ok", admitted
    )


def test_max_in_window_uses_half_open_windows() -> None:
    log = RequestLog()
    for seq, (time, weight) in enumerate([(0.0, 100), (0.5, 100), (1.0, 100), (1.2, 100), (5.0, 7)]):
        log.append(record(seq, time, weight))
    log.append(record(9, 1.1, 500, admitted=False))
    assert log.max_in_window("batch_import", 1.0) == 3  # (0.2, 1.2] holds 0.5, 1.0 and 1.2
    assert log.max_in_window("batch_import", 1.0, per="weight") == 300
    assert log.max_in_window("batch_import", 10.0) == 5
    assert log.max_in_window("read", 1.0) == 0
    assert log.utilization("batch_import", 3, 1.0) == pytest.approx(5 / (3 * 6))


def test_occupancy_averages_how_full_the_window_was() -> None:
    log = RequestLog()
    for seq, time in enumerate([0.0, 0.5, 1.0, 1.5]):
        log.append(record(seq, time, 10))
    log.append(record(9, 1.6, 10, admitted=False))
    # Each admission fills one second of windows; over [1, 2] the window holds 2 of 2.
    assert log.occupancy("batch_import", 2, 1.0, 1.0, 2.0) == pytest.approx(1.0)
    # Over [0, 2]: 3.5 request-seconds of the 4 a full window of 2 would give.
    assert log.occupancy("batch_import", 2, 1.0, 0.0, 2.0) == pytest.approx(3.5 / 4)
    assert log.occupancy("batch_import", 40, 1.0, 0.0, 2.0, per="weight") == pytest.approx(35 / 80)


# ----------------------------------------------------------------- configuration


def test_configuration_rules() -> None:
    with pytest.raises(ValueError, match="loopback"):
        EmulatorConfig(host="0.0.0.0")
    assert EmulatorConfig(host="::1").host == "::1"
    with pytest.raises(ValueError, match="speedup"):
        EmulatorConfig(speedup=0)
    # The keys a client can send, no other (the clients' own rule, _checks/_keys.py).
    with pytest.raises(ValueError, match=r"^api_key must be a non-blank string: a client could not send it$"):
        EmulatorConfig(api_key=" ")
    with pytest.raises(ValueError, match=r"^each of extra_api_keys must not start or end with whitespace"):
        EmulatorConfig(extra_api_keys=("second", "third "))
    with pytest.raises(ValueError, match="at most 3"):
        TeamConfig(custom_stop_properties=[CustomStopPropertyConfig(str(i), f"p{i}") for i in range(4)])
    with pytest.raises(ValueError, match="at least one depot"):
        TeamConfig(depots=[])
    with pytest.raises(ValueError, match="letters"):
        DepotConfig("bad id", "x", 0.0, 0.0)
    config = EmulatorConfig(speedup=60)
    assert config.scaled(60.0) == 1.0
    assert config.server_limits.for_category(Category.OPTIMIZE) == (Rule(3, 1.0),)
    assert config.team.main_depot.id == "main"
    assert config.stop_collections_since == datetime.date(2023, 4, 1)


def test_fault_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="nth or probability"):
        Fault("error", nth=1, probability=0.5)
    with pytest.raises(ValueError, match="probability"):
        Fault("error", probability=1.5)
    with pytest.raises(ValueError, match="nth"):
        Fault("error", nth=0)
    with pytest.raises(ValueError, match="not_a_kind"):
        Fault("not_a_kind")
    assert Fault("drop", category="write").category is Category.WRITE
    assert Fault("drop", method="get").method == "GET"
    assert FaultKind("error_after_commit").commits
    assert not FaultKind("drop").commits


def test_large_groups_are_swept_in_bearing_order() -> None:
    import time

    stops = [
        OptStop(f"s{i:05}", DEPOT[0] + 0.001 * (i % 37) * ((-1) ** i), DEPOT[1] + 0.0013 * (i % 53))
        for i in range(5000)
    ]
    started = time.perf_counter()
    outcome = optimize(DEPOT, [OptDriver("drivers/a", 0)], stops, 10.0)
    assert time.perf_counter() - started < 5.0
    visits = outcome.routes["drivers/a"]
    assert [v.position for v in visits] == list(range(1, 5001))
    assert {v.stop_id for v in visits} == {s.id for s in stops}
