"""``-`` for the files the command line reads besides its CSVs: the API key, the CA, the limits,
the webhook secret, the emulator's team and limits; standard input is read by one file at most."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from route_planning_async import Category, ConfigurationError
from route_planning_async._cli._app import cli
from route_planning_async.emulator import __main__ as emulator_main
from route_planning_async.emulator._setup._options import config_from_options
from route_planning_async.emulator._setup._team_file import read_team_file
from route_planning_async.webhooks import sign

if TYPE_CHECKING:
    from tests.cli.conftest import Cli

SECRET = "0123456789abcdef0123456789abcdef"
BODY = json.dumps({"type": "stop.departed", "version": "v0.2b", "created": 1_700_000_000_000, "data": None})


def test_the_api_key_file_dash_reads_the_key_from_stdin(run: Cli) -> None:
    result = run(
        "--api-key-file", "-", "plans", "list", "--json", key="", input=run.served.emulator.api_key + "\n"
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == []

    empty = run("--api-key-file", "-", "plans", "list", key="", input="\n")
    assert empty.exit_code == 2
    assert "--api-key-file stdin is empty" in empty.stderr


def test_the_ca_file_dash_reads_the_pem_from_stdin(run: Cli) -> None:
    served = run.served
    pem = served.ca_file.read_text(encoding="utf-8")
    result = run(
        "--base-url", served.base_url, "--ca-file", "-", "plans", "list", "--json", connect=False, input=pem
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == []


def test_the_limits_dash_reads_a_limits_file_from_stdin(run: Cli) -> None:
    limits = json.dumps({"read": [{"amount": 50, "period": 1}]})
    result = run("--limits", "-", "plans", "list", "--json", input=limits)
    assert result.exit_code == 0, result.stderr

    bad = run("--limits", "-", "plans", "list", input=json.dumps({"reads": []}))
    assert bad.exit_code == 2
    assert "--limits - (stdin): unknown category 'reads'" in bad.stderr


def test_stdin_is_read_by_one_file_of_a_command_only(run: Cli) -> None:
    plan = "plans/p"
    result = run("--api-key-file", "-", "stops", "import", plan, "-", key="", input="address\n1 Main St\n")
    assert result.exit_code == 2
    assert "'-' (stdin) is read by '--api-key-file' already" in result.stderr
    both = run("--limits", "-", "drivers", "import", "-", input="name\nZoe\n")
    assert both.exit_code == 2
    assert "is read by '--limits' already" in both.stderr
    assert result.stdout == both.stdout == ""


def _invoke(*args: str | Path, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        cli, [str(arg) for arg in args], prog_name="route-planning", catch_exceptions=False, input=input
    )
    return result.exit_code, result.stdout, result.stderr


def test_the_webhook_secret_file_dash_reads_the_secret_from_stdin(tmp_path: Path) -> None:
    body = tmp_path / "body.json"
    body.write_text(BODY, encoding="utf-8")
    signature = sign(BODY.encode(), SECRET)
    code, out, err = _invoke(
        "webhooks", "verify", body, "--signature", signature, "--secret-file", "-", input=SECRET + "\n"
    )
    assert code == 0, err
    assert "stop.departed" in out

    code, out, err = _invoke(
        "webhooks", "verify", "-", "--signature", signature, "--secret-file", "-", input=BODY
    )
    assert code == 2
    assert "'-' (stdin) is read by '--secret-file' already; name a file for one of them" in err


TEAM = """\
[[depots]]
id = "hub"
name = "Hub"
latitude = 47.61
longitude = -122.33
city = "Seattle"

[[drivers]]
id = "zoe"
name = "Zoe"
email = "zoe@example.com"

[limits]
read = [{ amount = 3, period = 1 }]
"""


def test_a_team_file_on_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(TEAM))
    team_file = read_team_file("-")
    assert [depot.id for depot in team_file.team.depots] == ["hub"]
    assert team_file.limits is not None
    assert team_file.limits.for_category(Category.READ)[0].amount == 3

    monkeypatch.setattr("sys.stdin", io.StringIO("[[drivers]]\nid = 'x'\nemail = 3\n"))
    with pytest.raises(ConfigurationError, match=r"^stdin: drivers\[0\]"):
        read_team_file("-")


def test_the_emulator_options_read_the_team_or_the_limits_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(TEAM))
    config = config_from_options({"team": "-"})
    assert config.team.main_depot.city == "Seattle"
    monkeypatch.setattr("sys.stdin", io.StringIO('{"optimize": []}'))
    assert config_from_options({"limits": "-"}).rate_limits.for_category(Category.OPTIMIZE) == ()
    with pytest.raises(ConfigurationError, match="would both read stdin"):
        config_from_options({"team": "-", "limits": "-"})


def test_the_emulator_writes_its_ca_to_a_file_not_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _invoke("emulator", "--ca-file", "-")
    assert code == 2
    assert "'-' (stdout) cannot be used here" in err
    with pytest.raises(SystemExit) as exited:
        emulator_main.parse_args(["--ca-file", "-"])
    assert exited.value.code == 2
    assert "'-' (stdout) cannot be used here" in capsys.readouterr().err
