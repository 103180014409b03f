"""``--limits public-docs|contract|FILE`` and ``--redis URL``: the client's limits, where their slots live."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from route_planning_async import Category, RateLimits, Rule
from route_planning_async._cli._errors import InputError
from route_planning_async._cli._limits import LIMITS_HELP, NAMED_LIMITS, parse_limits
from route_planning_async._cli._run import Settings, open_client, redis_key_prefix
from route_planning_async._cli._versions import DEFAULT_API_VERSION
from route_planning_async._versions import API_VERSIONS, api_version

if TYPE_CHECKING:
    from tests.cli.conftest import Cli, ServedEmulator

GOOD_TOML = """\
optimize = []

[[read]]
amount = 20
period = 1

[[batch_import]]
amount = 30
period = 60

[[batch_import]]
amount = 2000
period = 60
per = "weight"
"""

GOOD_JSON = """\
{"write": [{"amount": 8, "period": 1.5}], "driver_import": []}
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_named_limits() -> None:
    assert parse_limits("contract") == RateLimits.default()
    assert parse_limits("public-docs") == RateLimits.public_docs()


def test_the_help_names_every_category_a_file_may_hold(run: Cli) -> None:
    help_text = " ".join(run("--help", connect=False).stdout.split())
    named = help_text.split("Limits file (--limits FILE): categories ", 1)[1].split(", each a list", 1)[0]
    assert named.split(", ") == [category.value for category in Category]


def test_a_toml_file_replaces_the_categories_it_names(tmp_path: Path) -> None:
    limits = parse_limits(str(_write(tmp_path / "limits.toml", GOOD_TOML)))
    contract = RateLimits.default()
    assert limits.rules[Category.READ] == (Rule(20, 1.0),)
    assert limits.rules[Category.BATCH_IMPORT] == (Rule(30, 60.0), Rule(2000, 60.0, per="weight"))
    assert limits.rules[Category.OPTIMIZE] == ()  # an empty list: unlimited
    assert limits.rules[Category.WRITE] == contract.rules[Category.WRITE]  # not named: the contract's
    assert limits.rules[Category.DRIVER_CREATE] == contract.rules[Category.DRIVER_CREATE]


def test_a_json_file_and_a_file_without_a_known_suffix(tmp_path: Path) -> None:
    for name in ("limits.json", "limits.conf"):
        limits = parse_limits(str(_write(tmp_path / name, GOOD_JSON)))
        assert limits.rules[Category.WRITE] == (Rule(8, 1.5),)
        assert limits.rules[Category.DRIVER_IMPORT] == ()
        assert limits.rules[Category.READ] == RateLimits.default().rules[Category.READ]
    toml_without_suffix = parse_limits(str(_write(tmp_path / "limits", GOOD_TOML)))
    assert toml_without_suffix.rules[Category.READ] == (Rule(20, 1.0),)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("l.json", '{"reads": []}', "unknown category 'reads' (categories: read, write, batch_import"),
        ("l.json", '{"read": {"amount": 1, "period": 1}}', "read must be a list of rules, got dict"),
        ("l.json", '{"read": [{"amount": 1}]}', "read[0]: period missing"),
        ("l.json", '{"read": [{"amount": 1, "period": 1, "window": 2}]}', "read[0]: unknown key(s) window"),
        ("l.json", '{"read": [5]}', "read[0]: a rule is a table with amount and period, got int"),
        (
            "l.json",
            '{"read": [{"amount": 0, "period": 1}]}',
            "read[0]: Rule.amount must be at least 1, got 0",
        ),
        ("l.json", '{"write": [{"amount": 1, "period": -1}]}', "write[0]: Rule.period must be a positive"),
        ("l.json", '{"write": [{"amount": 1.5, "period": 1}]}', "write[0]: Rule.amount must be an int"),
        ("l.json", '{"optimize": [{"amount": 1, "period": 1, "per": "stop"}]}', "Rule.per must be 'request'"),
        ("l.json", '[{"amount": 1, "period": 1}]', "expected a table of categories, got list"),
        ("l.json", '{"read": [', "not valid JSON"),
        ("l.toml", "[[read]\namount = 1", "not valid TOML"),
        ("l.txt", "read: 5/s", "neither valid JSON nor valid TOML"),
    ],
)
def test_bad_files_are_usage_errors_naming_the_file_and_the_place(
    run: Cli, tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = _write(tmp_path / name, text)
    with pytest.raises(InputError) as raised:
        parse_limits(str(path))
    assert f"--limits {path}: " in raised.value.format_message()
    assert message in raised.value.format_message()

    result = run("plans", "list", "--limits", path)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert result.stdout == ""


def test_a_missing_file_or_unknown_name(run: Cli) -> None:
    result = run("--limits", "public_docs", "plans", "list")
    assert result.exit_code == 2
    assert "--limits public_docs: neither contract, public-docs nor an existing file" in result.stderr


def _client_limits(served: ServedEmulator, settings: Settings) -> RateLimits:
    async def read() -> RateLimits:
        async with open_client(settings) as client:
            return client.rate_limits

    return asyncio.run(read())


def test_the_client_uses_the_limits(
    run: Cli, served_emulator: ServedEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROUTE_PLANNING_API_KEY", served_emulator.emulator.api_key)

    def settings(limits: str | None = None) -> Settings:
        return Settings(base_url=served_emulator.base_url, ca_file=served_emulator.ca_file, limits=limits)

    path = _write(tmp_path / "limits.toml", GOOD_TOML)
    assert _client_limits(served_emulator, settings(str(path))) == parse_limits(str(path))
    assert _client_limits(served_emulator, settings("public-docs")) == RateLimits.public_docs()
    assert _client_limits(served_emulator, settings()) == RateLimits.default()
    # And the commands run with them.
    listed = run("plans", "list", "--limits", path, "--json")
    assert listed.exit_code == 0, listed.stderr
    via_env = run("plans", "list", "--json", env={"ROUTE_PLANNING_LIMITS": "public-docs"})
    assert via_env.exit_code == 0, via_env.stderr


def test_without_limits_each_version_uses_the_published_ones_its_help_names(
    served_emulator: ServedEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``--limits`` says its default is, for each ``--api-version``, is what the client gets."""
    monkeypatch.setenv("ROUTE_PLANNING_API_KEY", served_emulator.emulator.api_key)
    monkeypatch.delenv("ROUTE_PLANNING_LIMITS", raising=False)
    said = re.search(r"Default: the --api-version's published ones \((.*?)\)\.", LIMITS_HELP)
    assert said is not None, LIMITS_HELP
    defaults = dict(item.split(": ") for item in said.group(1).split(", "))
    assert set(defaults) == set(API_VERSIONS)
    origin = served_emulator.base_url.removesuffix(api_version(DEFAULT_API_VERSION).base_path)
    for version, name in defaults.items():
        settings = Settings(
            api_version=version,
            base_url=origin + api_version(version).base_path,
            ca_file=served_emulator.ca_file,
        )
        assert _client_limits(served_emulator, settings) == NAMED_LIMITS[name](), version
    assert defaults["v1"] == "public-docs"  # the two versions' published limits differ


# --redis ---------------------------------------------------------------------------------------


def _redis_server_module() -> ModuleType:
    """The Redis test helpers of ``tests/redis`` (a real redis-server on a free port)."""
    path = Path(__file__).parents[1] / "redis" / "redis_server.py"
    spec = importlib.util.spec_from_file_location("cli_redis_server", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A real redis-server of the test's own, stopped after it."""
    pytest.importorskip("redis", reason="the redis extra is not installed")
    executable = shutil.which("redis-server")
    if executable is None:
        pytest.skip("redis-server is not on PATH: the --redis tests need a real server")
    helpers = _redis_server_module()
    server: Any = helpers.RedisServer(executable, helpers.free_port())
    server.start()
    try:
        yield str(server.url)
    finally:
        server.stop()


def _keys(url: str, prefix: str) -> list[str]:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return sorted(key.decode() for key in client.scan_iter(match=f"*{prefix}*"))
    finally:
        client.close()


def test_redis_keeps_the_slots_in_redis(run: Cli, served_emulator: ServedEmulator, redis_url: str) -> None:
    prefix = f"cli-test-{uuid.uuid4().hex[:8]}"
    plan = run.create_plan()
    listed = run("plans", "list", "--redis", redis_url, "--redis-prefix", prefix, "--json")
    assert listed.exit_code == 0, listed.stderr
    assert plan in listed.stdout
    created = run(
        "--redis",
        redis_url,
        "--redis-prefix",
        prefix,
        "plans",
        "create",
        "--title",
        "R",
        "--starts",
        "2026-03-03",
    )
    assert created.exit_code == 0, created.stderr
    keys = _keys(redis_url, prefix)
    assert any(":read" in key for key in keys), keys
    assert any(":write" in key for key in keys), keys

    # Without --redis-prefix the prefix comes from the key: every process with that key shares it.
    default = redis_key_prefix(served_emulator.emulator.api_key)
    assert default == redis_key_prefix(served_emulator.emulator.api_key)
    assert default != redis_key_prefix("another-key")
    assert served_emulator.emulator.api_key not in default
    via_env = run("plans", "list", "--json", env={"ROUTE_PLANNING_REDIS_URL": redis_url})
    assert via_env.exit_code == 0, via_env.stderr
    assert any(":read" in key for key in _keys(redis_url, default))


def test_the_default_prefix_is_the_one_the_help_describes(run: Cli) -> None:
    import hashlib

    help_text = " ".join(run("--help", connect=False).stdout.split())
    assert "route-planning- and the first 16 hex digits of the API key's SHA-256" in help_text
    key = "emulator-api-key"
    assert redis_key_prefix(key) == "route-planning-" + hashlib.sha256(key.encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--redis-prefix", "team"), "--redis-prefix names keys in Redis: give --redis URL"),
        (("--redis", "redis://127.0.0.1:1/0", "--redis-prefix", ""), "--redis-prefix is blank"),
        (("--redis", "redis://127.0.0.1:1/0", "--redis-prefix", "  "), "--redis-prefix is blank"),
    ],
)
def test_a_redis_prefix_that_would_be_ignored_is_a_usage_error(
    run: Cli, served_emulator: ServedEmulator, args: tuple[str, ...], message: str
) -> None:
    pytest.importorskip("redis", reason="the redis extra is not installed")
    reads = served_emulator.requests("plans.list")
    result = run("plans", "list", *args)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert served_emulator.requests("plans.list") == reads


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("localhost:6379", "--redis wants a URL such as redis://localhost:6379/0, got 'localhost:6379'"),
        ("http://localhost:6379/0", "--redis: RedisBackend url is not usable"),
    ],
)
def test_a_bad_redis_url_is_a_usage_error(
    run: Cli, served_emulator: ServedEmulator, url: str, message: str
) -> None:
    pytest.importorskip("redis", reason="the redis extra is not installed")
    reads = served_emulator.requests("plans.list")
    result = run("plans", "list", "--redis", url)
    assert result.exit_code == 2
    assert message in result.stderr
    assert served_emulator.requests("plans.list") == reads


def test_an_unreachable_redis_fails_before_sending(run: Cli, served_emulator: ServedEmulator) -> None:
    pytest.importorskip("redis", reason="the redis extra is not installed")
    helpers = _redis_server_module()
    reads = served_emulator.requests("plans.list")
    result = run("plans", "list", "--redis", f"redis://127.0.0.1:{helpers.free_port()}/0")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ")
    assert "redis" in result.stderr.lower()
    assert served_emulator.requests("plans.list") == reads


def test_without_the_redis_extra(run: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    # As if redis-py were not installed: importing the backend fails.
    monkeypatch.setitem(sys.modules, "route_planning_async.redis", None)
    result = run("plans", "list", "--redis", "redis://127.0.0.1:6379/0")
    assert result.exit_code == 2
    assert "--redis needs the redis extra: pip install 'route_planning_async[redis]'" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, "it nests too deep"),
        (
            '{"read": [{"amount": ' + "9" * 401 + ', "period": 1}]}',
            "it holds a number of more than 64 digits",
        ),
        ("[[read]]\namount = " + "9" * 401 + "\nperiod = 1\n", "Rule.amount must be at most"),
    ],
)
def test_limits_junk_is_one_usage_line_in_text_and_in_json(
    run: Cli, tmp_path: Path, text: str, message: str
) -> None:
    path = _write(tmp_path / ("limits.toml" if "[[read]]" in text else "limits.json"), text)
    result = run("plans", "list", "--limits", path)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .startswith(f"Error: Invalid value for '--limits': --limits {path}")
    )
    assert message in result.stderr
    as_json = run("--limits", path, "stops", "import", "plans/p1", path, "--progress", "json")
    assert as_json.exit_code == 2
    [event] = [json.loads(line) for line in as_json.stderr.splitlines()]
    assert (event["event"], event["exit_code"]) == ("error", 2)
    assert message in event["message"]
