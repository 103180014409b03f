"""A team file (TOML or JSON) gives the emulated team and its limits; a mistake names the file,
the key and what is wrong."""

from __future__ import annotations

import datetime
import json
import re
import tomllib
from pathlib import Path

import pytest

from route_planning_async import Category, ConfigurationError, RateLimits, Rule
from route_planning_async.emulator import EmulatorConfig, read_team_file
from route_planning_async.emulator._options import config_from_options

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "team.toml"
"""The example the docs show."""


def test_the_documented_example_reads_into_the_team_it_describes() -> None:
    read = read_team_file(EXAMPLE)
    (depot,) = read.team.depots
    assert (depot.id, depot.city, depot.zip, depot.country, depot.served_place_id) == (
        "seattle",
        "Seattle",
        "98109",
        "US",
        "seattle-depot",
    )
    assert depot.one_line == "Seattle depot, 400 Broad St, Dock 4, Seattle, WA, 98109, US"
    (driver,) = read.team.drivers
    assert (driver.email, driver.phone, driver.depots) == ("sam@example.com", "+12065550100", ("seattle",))
    assert (driver.start_time, driver.end_time, driver.max_stops) == (
        datetime.time(7, 30),
        datetime.time(16, 0),
        40,
    )
    assert [prop.name for prop in read.team.custom_stop_properties] == ["Gate code"]
    assert (read.team.timezone, read.team.capacity_unit) == ("America/Los_Angeles", "pound")
    assert read.team.default_start_time == datetime.time(8, 0)
    assert read.limits is not None
    assert read.limits.rules[Category.READ] == (Rule(20, 1),)
    assert read.limits.rules[Category.OPTIMIZE] == ()
    assert read.limits.rules[Category.WRITE] == RateLimits.default().rules[Category.WRITE]


def test_json_by_extension_and_sections_left_out_keep_the_seed_data(tmp_path: Path) -> None:
    as_json = tmp_path / "team.json"
    as_json.write_text(json.dumps(tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))), encoding="utf-8")
    assert read_team_file(as_json) == read_team_file(EXAMPLE)
    only_drivers = tmp_path / "drivers.toml"
    only_drivers.write_text('[[drivers]]\nid = "driver-zed"\n', encoding="utf-8")
    read = read_team_file(only_drivers)
    assert read.team.depots == EmulatorConfig().team.depots
    assert read.team.custom_stop_properties == EmulatorConfig().team.custom_stop_properties
    assert [(d.id, d.email, d.phone) for d in read.team.drivers] == [("driver-zed", None, None)]
    assert read.limits is None


def test_options_take_the_team_and_its_limits_and_override_them(tmp_path: Path) -> None:
    config = config_from_options({"team": str(EXAMPLE)})
    assert config.team.depots[0].id == "seattle"
    assert config.rate_limits.rules[Category.READ] == (Rule(20, 1),)
    overridden = config_from_options({"team": str(EXAMPLE), "no_limits": True, "capacity_unit": "kilogram"})
    assert overridden.rate_limits == RateLimits.unlimited()
    assert overridden.team.capacity_unit == "kilogram"
    assert (
        config_from_options({"team": str(EXAMPLE), "limits": "contract"}).rate_limits == RateLimits.default()
    )
    with pytest.raises(ConfigurationError, match="not both"):
        config_from_options({"limits": "contract", "no_limits": True})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[depots]]\nid = 'x'\nname = 'X'\nlatitude = 1\n", "depots[0]: longitude missing"),
        (
            "[[depots]]\nid = 'x'\nname = 'X'\nlatitude = 1\nlongitude = 'east'\n",
            "depots[0].longitude: expected a number, got 'east'",
        ),
        ("[[drivers]]\nid = 'd'\nemail = 5\n", "drivers[0].email: expected a string, got 5"),
        (
            "[[drivers]]\nid = 'd'\nstart_time = '7 o clock'\n",
            "drivers[0].start_time: expected a time of day as 'HH:MM'",
        ),
        (
            "[[drivers]]\nid = 'd'\ndepots = ['nowhere']\n",
            "drivers[0].depots: no depot 'nowhere' (depots: main, north)",
        ),
        ("[[drivers]]\nid = 'bad id!'\n", "drivers[0]: id must be 1 to 50 letters"),
        (
            "[[drivers]]\nid = 'd'\nnickname = 'x'\n",
            "drivers[0]: unknown key(s) nickname (known: id, name, email",
        ),
        ("[[drivers]]\nid = 'd'\n[[drivers]]\nid = 'd'\n", "drivers: id(s) d given more than once"),
        (
            "capacity_unit = 'stone'\n",
            "capacity_unit: expected one of 'kilogram', 'pound', 'metric-ton', got 'stone'",
        ),
        ("colour = 'red'\n", "unknown key(s) colour (known: depots, drivers"),
        ("drivers = 3\n", "drivers: expected a list of tables, got int"),
        ("depots = []\n", "a team needs at least one depot"),
        ("[limits]\nread = [{ amount = 0, period = 1 }]\n", "limits.read[0]:"),
        ("[limits]\nslow = []\n", "limits: unknown category 'slow'"),
        ("[limits]\nread = [{ amount = 1 }]\n", "limits.read[0]: period missing"),
        ("depots = [", "not valid TOML"),
        (
            "[[custom_stop_properties]]\nid = 'p'\nname = 'A'\n"
            "[[custom_stop_properties]]\nid = 'p'\nname = 'B'\n",
            "custom_stop_properties: id(s) p given more than once",
        ),
        (
            "timezone = 'Mars/Olympus_Mons'\n",
            "timezone: expected an IANA time zone (Europe/London), got 'Mars/Olympus_Mons'",
        ),
        (
            "[[depots]]\nid = 'x'\nname = 'X'\nlatitude = 1000\nlongitude = 0\n",
            "depots[0].latitude: expected a number from -90 to 90, got 1000",
        ),
        (
            "[[depots]]\nid = 'x'\nname = 'X'\nlatitude = nan\nlongitude = 0\n",
            "depots[0].latitude: expected a number from -90 to 90, got nan",
        ),
        (
            "[[depots]]\nid = 'x'\nname = 'X'\nlatitude = 0\nlongitude = -inf\n",
            "depots[0].longitude: expected a number from -180 to 180, got -inf",
        ),
    ],
)
def test_a_mistake_names_the_file_the_key_and_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "team.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        read_team_file(path)
    assert str(raised.value).startswith(f"{path}: ")
    assert message in str(raised.value)


def test_a_missing_file_and_bad_json_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="cannot read it"):
        read_team_file(tmp_path / "nope.toml")
    broken = tmp_path / "team.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not valid JSON"):
        read_team_file(broken)


def test_a_limits_file_is_a_limits_table_in_json_or_toml(tmp_path: Path) -> None:
    from route_planning_async.emulator._options import limits_from_option

    as_text = tmp_path / "limits.txt"
    as_text.write_text('{"read": [{"amount": 7, "period": 1}]}', encoding="utf-8")
    assert limits_from_option(str(as_text)).rules[Category.READ] == (Rule(7, 1),)
    as_toml = tmp_path / "limits.toml"
    as_toml.write_text("read = [{ amount = 8, period = 1 }]\n", encoding="utf-8")
    assert limits_from_option(str(as_toml)).rules[Category.READ] == (Rule(8, 1),)
    assert limits_from_option("public-docs") == RateLimits.public_docs()
    with pytest.raises(ConfigurationError, match="neither contract, public-docs nor an existing file"):
        limits_from_option(str(tmp_path / "none.toml"))


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "team.toml",
            "[[drivers]]\nid = 'd'\nname = 'D'\nmax_stops = " + "9" * 401 + "\n",
            "drivers[0].max_stops",
        ),
        (
            "team.toml",
            "[[depots]]\nid = 'x'\nname = 'X'\nlatitude = " + "9" * 401 + "\nlongitude = 0\n",
            "latitude",
        ),
        (
            "team.json",
            '{"depots": [{"id": "x", "name": "X", "latitude": ' + "9" * 401 + "}]}",
            "more than 64 digits",
        ),
        ("team.json", "[" * 5000 + "]" * 5000, "nests too deep"),
        ("team.json", '{"drivers": [], "drivers": []}', "names the key 'drivers' twice"),
    ],
)
def test_a_team_file_too_deep_or_with_a_huge_number_is_a_configuration_error(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    team = tmp_path / name
    team.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        read_team_file(team)


def test_a_team_file_that_starts_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    team = tmp_path / "team.toml"
    team.write_text("\ufeff[[drivers]]\nid = 'd'\nname = 'D'\n", encoding="utf-8")
    assert [driver.id for driver in read_team_file(team).team.drivers] == ["d"]
