"""TLS against the real emulator served with its own CA: a certificate that cannot
be verified, and the CA file the emulator tells the user to export.

Before, a certificate verification failure was retried like a lost connection
(six attempts, the same message six times in the history), though no retry
can succeed; and ``RoutePlanningClient()`` ignored ``ROUTE_PLANNING_CA_FILE``,
which ``route-planning emulator --print-env`` exports beside the key and the
address, so it failed against the very emulator that said what to export.
"""

from __future__ import annotations

import pytest

import route_planning_async as rp
from route_planning_async.emulator import Emulator

pytest.importorskip("trustme")

# Retries that would not wait: a test of today's code fails fast, not after backoffs.
EAGER = rp.RetryPolicy(attempts=6, base=0, cap=0)


@pytest.fixture(autouse=True)
def _no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ROUTE_PLANNING_API_KEY", "ROUTE_PLANNING_BASE_URL", "ROUTE_PLANNING_CA_FILE"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.asyncio
async def test_a_certificate_that_cannot_be_verified_is_not_retried() -> None:
    async with Emulator(speedup=60) as emu:
        # The system's CAs do not know the emulator's own CA.
        async with rp.RoutePlanningClient(emu.api_key, base_url=emu.base_url, retry=EAGER) as client:
            with pytest.raises(rp.TransportError) as info:
                await client.plans.get("p1")
            assert client.stats[rp.Category.READ].retries == 0
        assert len(emu.log) == 0
    error = info.value
    assert error.attempts == 1
    assert error.history == ()
    assert not error.maybe_sent
    assert not error.retryable
    message = str(error)
    assert message.startswith(f"GET {emu.base_url}/plans/p1: ")
    assert "TLS certificate could not be verified" in message
    assert message.count("certificate") <= 3
    assert "after 1 attempt over" in message
