"""The registry of API versions (``route_planning_async/_versions.py``) and every part that reads it.

Each test walks the registry against one reader: the error codes, the webhook
decoder, the command line, the emulator and the conformance table. A version
registered without its place in one of them fails here, and a name the registry
does not list is refused with the known ones named.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import click
import pytest
from conformance.versions import VERSIONS as CONFORMANCE_VERSIONS

import route_planning_async as rp
from route_planning_async import _versions
from route_planning_async._cli._app import cli
from route_planning_async._cli._errors import InputError
from route_planning_async._cli._versions import client_class, stop_inputs
from route_planning_async._errors._codes import ErrorCode
from route_planning_async._versions import API_VERSIONS, VERSIONS, ApiVersion, api_version
from route_planning_async.emulator._server import _versions as served
from route_planning_async.webhooks import parse_event

NAMED_BY_ID = pytest.mark.parametrize("version", VERSIONS, ids=API_VERSIONS)
KNOWN = "v0.2b, v1"


def test_the_registry_lists_each_version_once_below_its_base_path() -> None:
    assert API_VERSIONS == ("v0.2b", "v1")
    assert len({version.package for version in VERSIONS}) == len(VERSIONS)
    for version in VERSIONS:
        assert version.base_path.rpartition("/")[2] == version.name
        assert api_version(version.name) is version


def test_an_unknown_version_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=f"unknown API version 'v2'; the library speaks {KNOWN}"):
        api_version("v2")


@NAMED_BY_ID
def test_the_package_of_a_version_holds_its_client_table_and_decoder(version: ApiVersion) -> None:
    client = version.module().RoutePlanningClient
    assert client.default_base_url.endswith(version.base_path)
    endpoints = version.module("_endpoints").ENDPOINTS
    assert {endpoint.api_version for endpoint in endpoints.values()} == {version.name}
    stop = version.decoder().structure(
        {"id": "plans/p/stops/s", "plan": "plans/p"}, version.module("_models").Stop
    )
    assert stop.id == "plans/p/stops/s"


# Error codes -------------------------------------------------------------------


@NAMED_BY_ID
def test_every_version_has_error_codes(version: ApiVersion) -> None:
    assert ErrorCode.PLAN_NOT_WRITABLE in ErrorCode.for_version(version.name)
    assert ErrorCode.parse("plan_not_writable", version.name) is ErrorCode.PLAN_NOT_WRITABLE


def test_the_codes_of_some_versions_name_registered_versions() -> None:
    assert set().union(*(code.versions for code in ErrorCode)) == set(API_VERSIONS)


def test_a_code_read_as_an_unknown_versions_is_refused() -> None:
    with pytest.raises(ValueError, match=KNOWN):
        ErrorCode.parse("plan_not_writable", "v2")
    with pytest.raises(ValueError, match=KNOWN):
        ErrorCode.for_version("v2")
    with pytest.raises(ValueError, match=KNOWN):
        rp.APIError(409, "no", code="plan_not_writable", api_version="v2")


# Webhooks ----------------------------------------------------------------------


@NAMED_BY_ID
@pytest.mark.parametrize(
    ("data", "model"),
    [({"id": "plans/p/stops/s", "plan": "plans/p"}, "Stop"), ({"id": "unassignedStops/u"}, "UnassignedStop")],
)
def test_a_webhook_event_is_decoded_with_its_versions_models(
    version: ApiVersion, data: dict[str, str], model: str
) -> None:
    body = json.dumps({"type": "future.type", "version": version.name, "created": 1, "data": data})
    event = parse_event(body.encode())
    assert type(event.data) is getattr(version.module("_models"), model)


def test_a_webhook_event_of_an_unknown_version_keeps_its_json() -> None:
    data = {"id": "plans/p/stops/s"}
    body = json.dumps({"type": "stop.allocated", "version": "v2", "created": 1, "data": data})
    assert parse_event(body.encode()).data == data


# The command line ---------------------------------------------------------------


def _api_version_choices(command: click.Command) -> Iterator[tuple[str, ...]]:
    for parameter in command.params:
        if parameter.name == "api_version":
            assert isinstance(parameter.type, click.Choice)
            yield tuple(parameter.type.choices)
    for child in getattr(command, "commands", {}).values():
        yield from _api_version_choices(child)


def test_every_api_version_option_offers_the_registered_versions() -> None:
    choices = list(_api_version_choices(cli))
    assert len(choices) >= 2  # the shared options' and the emulator command's
    assert set(choices) == {API_VERSIONS}


@NAMED_BY_ID
def test_the_command_line_finds_each_versions_client_and_stop_inputs(version: ApiVersion) -> None:
    assert client_class(version.name) is version.module().RoutePlanningClient
    assert stop_inputs(version.name).stop is version.module("_inputs").StopInput


def test_the_command_line_refuses_an_unknown_version() -> None:
    with pytest.raises(InputError, match=KNOWN):
        client_class("v2")
    with pytest.raises(InputError, match=KNOWN):
        stop_inputs("v2")


# The emulator and the conformance table ------------------------------------------


@NAMED_BY_ID
def test_the_emulator_serves_each_version_below_its_base_path(version: ApiVersion) -> None:
    assert served.api_version(version.name).base_path == version.base_path


def test_the_emulator_serves_only_registered_versions() -> None:
    assert tuple(version.name for version in served.VERSIONS) == API_VERSIONS
    with pytest.raises(rp.ConfigurationError, match=f"it serves {KNOWN}"):
        served.api_version("v2")


def test_the_conformance_suite_has_a_row_per_version() -> None:
    rows = {row.name: row for row in CONFORMANCE_VERSIONS}
    assert tuple(rows) == API_VERSIONS
    for version in _versions.VERSIONS:
        assert rows[version.name].emulator_base_path == version.base_path
        assert rows[version.name].client is version.module().RoutePlanningClient
