"""The client's defaults from outside: ``ROUTE_PLANNING_LIMITS`` read like the key, address and CA
file, and polling defaults (``poll_interval``, ``max_poll_interval``), which ``Emulator.client()``
scales with the emulator's speed-up. Waits run on the virtual-time loop: exact schedules."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from support.fake_transport import FakeService, answer
from support.fixtures import load
from support.virtual_time import run_virtual

from route_planning_async import (
    Category,
    ConfigurationError,
    Operation,
    RateLimits,
    RetryPolicy,
    RoutePlanningClient,
    Rule,
    ValidationError,
)
from route_planning_async import v1 as api_v1
from route_planning_async._cli._commands._emulator import limits_as_data
from route_planning_async.emulator import Emulator

BASE = "https://api.example.test/v0.2b"


def _operation(done: bool) -> dict[str, Any]:
    body: dict[str, Any] = load("operation_running.json")
    body.update(id="operations/o1", done=done)
    if done:
        body["result"] = {"numOptimizedStops": 3, "skippedStops": []}
    return body


class TimedService(FakeService):
    """A scripted service that notes the loop time of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    async def send(self, request: Any) -> Any:
        self.times.append(asyncio.get_running_loop().time())
        return await super().send(request)


def _poll_times(
    make: Callable[[TimedService], RoutePlanningClient],
    wait: Callable[[RoutePlanningClient], Awaitable[Operation]] = lambda c: c.operations.wait("o1"),
    running: int = 6,
) -> list[float]:
    """When ``wait`` polled an operation that finishes after ``running`` polls (virtual time)."""
    service = TimedService()
    service.on("GET", "/operations/o1", *[answer(_operation(False))] * running, answer(_operation(True)))

    async def main() -> None:
        async with make(service) as client:
            assert (await wait(client)).done

    run_virtual(main)
    service.assert_done()
    return service.times


# ROUTE_PLANNING_LIMITS -------------------------------------------------------------------


def test_the_client_reads_its_limits_from_route_planning_limits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    exported = RateLimits.public_docs().replace("read", Rule(4, 0.5))
    limits_file = tmp_path / "limits.json"
    limits_file.write_text(json.dumps(limits_as_data(exported)), encoding="utf-8")
    monkeypatch.setenv("ROUTE_PLANNING_API_KEY", "k")
    monkeypatch.setenv("ROUTE_PLANNING_LIMITS", str(limits_file))
    assert RoutePlanningClient().rate_limits == exported
    assert api_v1.RoutePlanningClient().rate_limits == exported
    # An explicit argument wins.
    assert RoutePlanningClient(rate_limits=RateLimits.unlimited()).rate_limits == RateLimits.unlimited()
    # The names --limits knows.
    monkeypatch.setenv("ROUTE_PLANNING_LIMITS", "public-docs")
    assert RoutePlanningClient().rate_limits == RateLimits.public_docs()
    monkeypatch.setenv("ROUTE_PLANNING_LIMITS", "contract")
    assert api_v1.RoutePlanningClient().rate_limits == RateLimits.default()
    # Unset: each version's own default.
    monkeypatch.delenv("ROUTE_PLANNING_LIMITS")
    assert RoutePlanningClient().rate_limits == RateLimits.default()
    assert api_v1.RoutePlanningClient().rate_limits == RateLimits.public_docs()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "ROUTE_PLANNING_LIMITS is empty"),
        ("/no/such/limits.json", "neither contract nor public-docs nor an existing file"),
        ("{file}", "ROUTE_PLANNING_LIMITS ({file}): unknown category 'reads'"),
    ],
)
def test_a_bad_route_planning_limits_is_a_configuration_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, message: str
) -> None:
    bad = tmp_path / "limits.json"
    bad.write_text('{"reads": []}', encoding="utf-8")
    monkeypatch.setenv("ROUTE_PLANNING_LIMITS", value.format(file=bad))
    with pytest.raises(
        ConfigurationError, match=message.format(file=bad).replace("(", r"\(").replace(")", r"\)")
    ):
        RoutePlanningClient("k")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, r"limits\): it nests too deep"),
        (
            '{"read": [{"amount": ' + "9" * 401 + ', "period": 1}]}',
            r"limits\): it holds a number of more than 64",
        ),
        ("[[read]]\namount = " + "9" * 401 + "\nperiod = 1\n", r"read\[0\]: Rule.amount must be at most"),
        ("[[read]]\namount = 1\nperiod = " + "9" * 401 + "\n", r"read\[0\]: Rule.period must be a positive"),
        ("[[read]]\namount = " + "9" * 5000 + "\nperiod = 1\n", "it holds a number of more than 64"),
        ("a = " + "[" * 5000 + "]" * 5000, "it nests too deep"),
        ('{"read": [{"amount": 5, "period": 1}], "read": []}', r"limits\): it names the key 'read' twice"),
    ],
)
def test_limits_too_deep_too_large_or_written_twice_are_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str, message: str
) -> None:
    limits_file = tmp_path / "limits"
    limits_file.write_text(text, encoding="utf-8")
    monkeypatch.setenv("ROUTE_PLANNING_LIMITS", str(limits_file))
    with pytest.raises(ConfigurationError, match=message):
        RoutePlanningClient("k")


def test_a_limits_value_too_long_for_a_file_name_is_a_configuration_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_LIMITS", "limits-" * 1000)
    with pytest.raises(ConfigurationError, match=r"'limits-limits.*\.\.\.': neither contract"):
        RoutePlanningClient("k")


def test_a_limits_file_that_starts_with_a_byte_order_mark_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name, text in (
        ("l.json", '{"read": [{"amount": 3, "period": 1}]}'),
        ("l.toml", "[[read]]\namount = 3\nperiod = 1\n"),
    ):
        limits_file = tmp_path / name
        limits_file.write_text("\ufeff" + text, encoding="utf-8")
        monkeypatch.setenv("ROUTE_PLANNING_LIMITS", str(limits_file))
        assert RoutePlanningClient("k").rate_limits.rules[Category.READ] == (Rule(3, 1.0),)


# Polling defaults ------------------------------------------------------------------------


def _client(service: TimedService, **settings: Any) -> RoutePlanningClient:
    return RoutePlanningClient(
        "k",
        base_url=BASE,
        transport=service,
        rate_limits=RateLimits.unlimited(),
        retry=RetryPolicy(attempts=1),
        **settings,
    )


def test_the_clients_polling_defaults_apply_to_waits_that_give_none() -> None:
    times = _poll_times(lambda service: _client(service, poll_interval=0.5, max_poll_interval=1.0))
    # Fetched at once, then after 0.5, 0.75, 1.0 (capped), 1.0, ...
    assert times == pytest.approx([0.0, 0.5, 1.25, 2.25, 3.25, 4.25, 5.25])
    # A wait's own options win; its first delay above the client's cap raises the cap to it.
    own = _poll_times(
        lambda service: _client(service, poll_interval=0.5, max_poll_interval=1.0),
        lambda client: client.operations.wait("o1", poll_interval=2.0),
        running=2,
    )
    assert own == pytest.approx([0.0, 2.0, 4.0])


def test_a_first_delay_above_the_usual_cap_is_the_cap_when_none_is_given() -> None:
    # A client given poll_interval=20 and no cap: each of its waits was refused with
    # "max_poll_interval: must be at least poll_interval (20.0), got 15.0", an option never given.
    times = _poll_times(lambda service: _client(service, poll_interval=20), running=2)
    assert times == pytest.approx([0.0, 20.0, 40.0])
    # As a wait's own poll_interval does; a cap given below it is still refused.
    own = _poll_times(_client, lambda client: client.operations.wait("o1", poll_interval=20), running=2)
    assert own == pytest.approx([0.0, 20.0, 40.0])
    with pytest.raises(ValidationError, match="max_poll_interval: must be at least poll_interval"):
        _poll_times(
            _client, lambda client: client.operations.wait("o1", poll_interval=20, max_poll_interval=15)
        )


@pytest.mark.parametrize(
    "settings",
    [
        {"poll_interval": 0},
        {"poll_interval": -1.0},
        {"max_poll_interval": "1"},
        {"poll_interval": 2, "max_poll_interval": 1},
    ],
)
def test_bad_polling_defaults_are_refused(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError, match="poll_interval"):
        RoutePlanningClient("k", base_url=BASE, **settings)


def test_the_emulators_client_polls_as_much_faster_as_the_emulator_runs() -> None:
    emu = Emulator(speedup=60)  # not started: the client talks to the scripted service
    times = _poll_times(lambda service: emu.client(base_url=BASE, transport=service))
    # The real-time schedule (0, 1, 2.5, 4.75, ...) at 60 times the speed.
    assert times == pytest.approx([t / 60 for t in (0.0, 1.0, 2.5, 4.75, 8.125, 13.1875, 20.78125)])
    optimized = _poll_times(
        lambda service: emu.client(base_url=BASE, transport=service),
        lambda client: client.operations.wait("o1", poll_interval=0.1, max_poll_interval=0.1),
        running=1,
    )
    assert optimized == pytest.approx([0.0, 0.1])


def test_the_emulators_v1_client_takes_the_limits_the_emulator_enforces() -> None:
    for limits in (RateLimits.default(), RateLimits.public_docs()):
        emu = Emulator(speedup=60, rate_limits=limits)
        client = emu.client(api_version="v1", base_url=BASE.replace("v0.2b", "v1"), transport=FakeService())
        assert client.rate_limits == emu.config.server_limits == limits.scaled(60)


@pytest.mark.parametrize("settings", [{}, {"base_url": "https://api.example.test/v9"}])
def test_the_emulators_client_of_a_version_it_does_not_serve_is_a_configuration_error(
    settings: dict[str, Any],
) -> None:
    # The documented error, whether or not an address is given (it was a ValueError with one).
    emu = Emulator(speedup=60)  # not started: the version is checked first
    with pytest.raises(ConfigurationError, match=r"serves no API version 'v9'; it serves v0\.2b, v1"):
        emu.client(api_version="v9", transport=FakeService(), **settings)  # type: ignore[call-overload]
