"""``route-planning webhooks listen`` and ``webhooks verify``."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import aiohttp
import pytest
from click.testing import CliRunner, Result

from route_planning_async._cli._app import cli
from route_planning_async._cli._webhooks import listen
from route_planning_async.emulator import Emulator
from route_planning_async.webhooks import SIGNATURE_HEADER, sign

SECRET = "0123456789abcdef0123456789abcdef"
STOP = {"id": "plans/p1/stops/s1", "plan": "plans/p1"}
BODY = json.dumps({"type": "stop.departed", "version": "v0.2b", "created": 1_700_000_000_000, "data": STOP})


@pytest.fixture
def secret_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret"
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(
        cli, [str(arg) for arg in args], prog_name="route-planning", catch_exceptions=False
    )


def test_verify_accepts_a_hex_or_base64_signature_or_the_saved_header(
    secret_file: Path, tmp_path: Path
) -> None:
    body_file = tmp_path / "body.json"
    body_file.write_bytes(BODY.encode())
    digest = bytes.fromhex(sign(BODY.encode(), SECRET))
    for signature in (
        digest.hex(),
        base64.b64encode(digest).decode(),
        f"spoke-signature: {digest.hex()}",
        f"Circuit-Signature: {digest.hex()}",
    ):
        result = invoke(
            "webhooks", "verify", body_file, "--signature", signature, "--secret-file", secret_file
        )
        assert result.exit_code == 0, result.output
        assert "stop.departed  plans/p1/stops/s1" in result.stdout
    result = invoke(
        "webhooks", "verify", body_file, "--signature", digest.hex(), "--secret-file", secret_file, "--json"
    )
    event = json.loads(result.stdout)
    assert (event["type"], event["data"]["id"], event["created"]) == (
        "stop.departed",
        "plans/p1/stops/s1",
        "2023-11-14T22:13:20+00:00",
    )


def test_verify_refuses_a_tampered_body_or_a_wrong_secret(secret_file: Path, tmp_path: Path) -> None:
    body_file = tmp_path / "body.json"
    body_file.write_bytes(BODY.replace("s1", "s2").encode())
    result = invoke(
        "webhooks",
        "verify",
        body_file,
        "--signature",
        sign(BODY.encode(), SECRET),
        "--secret-file",
        secret_file,
    )
    assert result.exit_code == 2
    assert "does not match" in result.stderr
    body_file.write_bytes(BODY.encode())
    wrong = invoke(
        "webhooks",
        "verify",
        body_file,
        "--signature",
        sign(BODY.encode(), "x" * 32),
        "--secret-file",
        secret_file,
    )
    assert wrong.exit_code == 2
    assert "does not match" in wrong.stderr


def test_verify_tells_a_signed_body_that_is_not_an_event(secret_file: Path, tmp_path: Path) -> None:
    body_file = tmp_path / "body.json"
    body_file.write_bytes(b"[1, 2]")
    result = invoke(
        "webhooks", "verify", body_file, "--signature", sign(b"[1, 2]", SECRET), "--secret-file", secret_file
    )
    assert result.exit_code == 2
    assert "signature matches, but" in result.stderr


def test_listen_needs_a_readable_non_empty_secret_file(tmp_path: Path) -> None:
    missing = invoke("webhooks", "listen", "--port", "0", "--secret-file", tmp_path / "nope")
    assert missing.exit_code == 2
    assert "cannot read --secret-file" in missing.stderr
    (tmp_path / "empty").write_text("\n")
    empty = invoke("webhooks", "listen", "--port", "0", "--secret-file", tmp_path / "empty")
    assert empty.exit_code == 2
    assert "is empty" in empty.stderr


@pytest.mark.asyncio
@pytest.mark.parametrize("as_json", [False, True])
async def test_listen_prints_verified_events_from_the_emulator_and_refuses_forged_ones(as_json: bool) -> None:
    lines: list[str] = []
    bound: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(
        listen(
            host="127.0.0.1",
            port=0,
            path="/hook",
            secret=SECRET,
            as_json=as_json,
            count=2,
            echo=lines.append,
            started=bound.set_result,
        )
    )
    url = await bound
    async with aiohttp.ClientSession() as session:
        forged = BODY.encode()
        async with session.post(
            url, data=forged, headers={SIGNATURE_HEADER: sign(forged, "x" * 32)}
        ) as answer:
            assert answer.status == 401
    async with Emulator(webhook_url=url, webhook_secret=SECRET, wall_clock=lambda: 1.7e9) as emu:
        emu.webhooks.send("stop.allocated", STOP)
        emu.webhooks.send("test.send_event", None)
        await emu.webhooks.drain()
    assert await asyncio.wait_for(server, 30) == 0
    assert [delivery.statuses for delivery in emu.webhooks.deliveries] == [[200], [200]]
    if as_json:
        assert [json.loads(line)["type"] for line in lines] == ["stop.allocated", "test.send_event"]
    else:
        assert lines == [
            "2023-11-14T22:13:20+00:00  stop.allocated  plans/p1/stops/s1",
            "2023-11-14T22:13:20+00:00  test.send_event  -",
        ]


def test_listen_refuses_a_path_without_its_slash_with_a_usage_line(secret_file: Path) -> None:
    refused = invoke("webhooks", "listen", "--port", "0", "--secret-file", secret_file, "--path", "hook")
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines()[-1] == (
        "Error: Invalid value for '--path': 'hook': a URL path starts with '/' (e.g. '/hook')"
    )
