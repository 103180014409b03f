"""The service's lockout of a key that keeps retrying into 429s (``EmulatorConfig.lockout``).

Every test runs on a fake server clock: the limiter is handed each arrival time.
"""

from __future__ import annotations

from typing import cast

import pytest

from route_planning_async import Category, RateLimits, Rule
from route_planning_async.emulator import Emulator, Fault, FaultInjector, Lockout, RateLimiter

from .conftest import Api, FakeClock

READ = Category.READ
TEN = RateLimits({"read": [Rule(10, 1.0)]})


def paced(limiter: RateLimiter, rate: float, start: float, seconds: float, key: str = "k") -> list[str]:
    """Requests at ``rate`` a second from ``start``: "" when admitted, else the reason."""
    return [limiter.check(key, READ, 1, start + i / rate).reason for i in range(round(rate * seconds))]


def test_a_key_refused_at_a_high_rate_is_locked_out_until_it_slows_down() -> None:
    limiter = RateLimiter(TEN, lockout=Lockout())
    # 20 a second: ten admitted, then the windows refuse; the fifth refusal (5 of 15 attempts)
    # locks the key out.
    first = paced(limiter, 20.0, 0.0, 1.0)
    assert first[:10] == [""] * 10
    assert first[10:15] == ["window"] * 5
    assert first[15:] == ["lockout"] * 5
    # Nine a second fits the windows once they have room, but is not well under the limit
    # (at least four fifths of it): refused whole.
    assert set(paced(limiter, 9.0, 1.0, 3.0)) == {"lockout"}
    # At 7 a second (under four fifths of the limit): refused until a whole period at that pace,
    # then admitted.
    slower = paced(limiter, 7.0, 4.0, 3.0)
    assert slower[:7] == ["lockout"] * 7
    assert slower[7:] == [""] * 14


def test_the_lockout_lasts_while_the_key_sends_four_fifths_of_the_limit_or_more() -> None:
    limiter = RateLimiter(TEN, lockout=Lockout())
    paced(limiter, 20.0, 0.0, 1.0)
    # 8 a second is four fifths of the limit (8 in every period): not slow enough, however long
    # it goes on.
    assert set(paced(limiter, 8.0, 1.0, 30.0)) == {"lockout"}
    # Another key of the same team is not locked out.
    assert paced(limiter, 5.0, 1.0, 1.0, key="other") == [""] * 5


def test_a_few_refusals_do_not_lock_out() -> None:
    limiter = RateLimiter(TEN, lockout=Lockout())
    # A burst of 14: four refusals, fewer than five.
    assert paced(limiter, 1000.0, 0.0, 0.014) == [""] * 10 + ["window"] * 4
    assert paced(limiter, 9.0, 1.1, 1.0) == [""] * 9


def test_refusals_that_are_a_small_share_do_not_lock_out() -> None:
    limiter = RateLimiter(TEN, lockout=Lockout(share=0.1, refusals=5))
    # Nine a second for ten seconds, then a burst of eight in the last instant: six
    # refusals, but 6 of 98 attempts in the trailing ten periods (under a tenth).
    assert set(paced(limiter, 9.0, 0.0, 10.0)) == {""}
    burst = paced(limiter, 1000.0, 10.0, 0.008)
    assert burst.count("window") == 6
    assert "lockout" not in burst
    assert paced(limiter, 5.0, 11.0, 1.0) == [""] * 5
    # The same burst against a stricter share locks out.
    strict = RateLimiter(TEN, lockout=Lockout(share=0.05, refusals=5))
    paced(strict, 9.0, 0.0, 10.0)
    paced(strict, 1000.0, 10.0, 0.008)
    assert strict.check("k", READ, 1, 10.5).reason == "lockout"


def test_without_the_option_the_windows_alone_decide() -> None:
    limiter = RateLimiter(TEN)
    paced(limiter, 20.0, 0.0, 1.0)
    # Nine a second fits once the windows have room.
    assert paced(limiter, 9.0, 1.0, 3.0)[9:] == [""] * 18


def test_reset_forgets_the_lockout() -> None:
    limiter = RateLimiter(TEN, lockout=Lockout())
    paced(limiter, 20.0, 0.0, 1.0)
    limiter.reset()
    assert paced(limiter, 5.0, 1.0, 1.0) == [""] * 5


@pytest.mark.parametrize(
    "fields",
    [{"share": 0.0}, {"share": 1.5}, {"refusals": 0}, {"periods": 0.0}, {"release": 0.0}],
)
def test_thresholds_out_of_range_are_refused(fields: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(fields))):
        Lockout(**fields)  # type: ignore[arg-type]


def test_the_command_line_turns_it_on() -> None:
    from route_planning_async.emulator.__main__ import parse_args

    assert parse_args(["--lockout"]).config.lockout == Lockout()
    assert parse_args([]).config.lockout is None


def test_a_fault_can_match_one_api_key() -> None:
    faults = FaultInjector()
    faults.add(Fault("rate_limit", key="storm-key", times=2))
    picks = [
        faults.pick(seq, "plans.get", READ, "GET", b"", key)
        for seq, key in enumerate(["calm", "storm-key", "calm", "storm-key", "storm-key"])
    ]
    assert [pick is not None for pick in picks] == [False, True, False, True, False]


@pytest.mark.asyncio
@pytest.mark.route_planning_emulator(
    speedup=1.0, rate_limits=RateLimits.default(), clock=FakeClock(), lockout=Lockout()
)
async def test_the_lockout_over_http(api: Api, emu: Emulator) -> None:
    clock = cast(FakeClock, emu.config.clock)
    statuses = [(await api.call("GET", "/depots")).status for _ in range(16)]
    assert statuses == [200] * 10 + [429] * 6
    assert [record.reason for record in emu.log.records[-6:]] == ["window"] * 5 + ["lockout"]
    # Within a period of the lockout: refused, Retry-After a period.
    clock.advance(0.5)
    answer = await api.call("GET", "/depots")
    assert answer.status == 429
    assert float(answer.headers["Retry-After"]) == pytest.approx(1.0)
    assert emu.log.records[-1].reason == "lockout"
    # A whole quiet period later: admitted.
    clock.advance(1.0)
    assert (await api.call("GET", "/depots")).status == 200
