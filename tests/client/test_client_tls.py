"""TLS against the real emulator served with its own CA: a certificate that cannot
be verified, and the CA file the emulator tells the user to export.

Before, a certificate verification failure was retried like a lost connection
(six attempts, the same message six times in the history), though no retry
can succeed; and ``RoutePlanningClient()`` ignored ``ROUTE_PLANNING_CA_FILE``,
which ``route-planning emulator --print-env`` exports beside the key and the
address, so it failed against the very emulator that said what to export.
"""

from __future__ import annotations

import datetime
import ssl
from pathlib import Path

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


@pytest.mark.asyncio
async def test_the_three_variables_the_emulator_exports_are_enough(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async with Emulator(speedup=60) as emu:
        monkeypatch.setenv("ROUTE_PLANNING_API_KEY", emu.api_key)
        monkeypatch.setenv("ROUTE_PLANNING_BASE_URL", emu.base_url)
        monkeypatch.setenv("ROUTE_PLANNING_CA_FILE", str(emu.write_ca(tmp_path / "ca.pem")))
        async with rp.RoutePlanningClient() as client:
            plan = await client.plans.create(title="Monday", starts=datetime.date(2026, 3, 2))
            assert (await client.plans.get(plan.id)).title == "Monday"


@pytest.mark.parametrize("content", [None, b"", b"not a certificate"])
def test_a_ca_file_that_cannot_be_used_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: bytes | None
) -> None:
    path = tmp_path / "ca.pem"
    if content is not None:
        path.write_bytes(content)
    monkeypatch.setenv("ROUTE_PLANNING_CA_FILE", str(path))
    with pytest.raises(rp.ConfigurationError, match="ROUTE_PLANNING_CA_FILE") as info:
        rp.RoutePlanningClient("k", base_url="https://api.example.test")
    assert str(path) in str(info.value)


def test_an_empty_ca_file_variable_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_CA_FILE", "")
    with pytest.raises(rp.ConfigurationError, match="ROUTE_PLANNING_CA_FILE is empty"):
        rp.RoutePlanningClient("k", base_url="https://api.example.test")


def test_the_ca_file_variable_gives_way_to_ssl_session_and_transport(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Those settings say how to connect: the variable is not read (a missing file is no error).
    monkeypatch.setenv("ROUTE_PLANNING_CA_FILE", str(tmp_path / "missing.pem"))
    context = ssl.create_default_context()
    assert rp.RoutePlanningClient("k", base_url="https://api.example.test", ssl=context)._ssl is context

    class Transport:
        async def send(self, request: rp.Request) -> rp.Response:
            raise AssertionError

    rp.RoutePlanningClient("k", base_url="https://api.example.test", transport=Transport())
