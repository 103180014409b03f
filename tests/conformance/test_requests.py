"""Part 3: every request the client can build validates against the official request schema.

For each version (its calls in :data:`CASES`), Hypothesis builds the input models
from wide values (lengths past every bound, numbers past every range, None and
UNSET): an input whose constructor refuses it is fine (the client raised
``ValidationError`` before sending); every input it accepts is sent through the
client's own method over a scripted transport, and the body that went out must
be valid under the version's request schema.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fake_transport import FakeService, answer
from support.fixtures import scripted_client

import route_planning_async as rp

from . import requests_v0_2b, requests_v1
from .cases import Call, Case
from .versions import VERSIONS, Version

REQUESTS = settings(
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

CASES: dict[str, list[Case]] = {"v0.2b": requests_v0_2b.CASES, "v1": requests_v1.CASES}
"""Per version: each call (its name, the inputs drawn, the request method and path,
the document's template, the reply, the call)."""


@pytest.mark.parametrize(
    ("version", "name", "inputs", "method", "path", "template", "reply", "call"),
    [
        pytest.param(version, *case, id=f"{version.name} {case[0]}")
        for version in VERSIONS
        for case in CASES[version.name]
    ],
)
def test_every_request_the_client_builds_is_valid(
    version: Version,
    name: str,
    inputs: st.SearchStrategy[Any],
    method: str,
    path: str,
    template: str,
    reply: Any,
    call: Call,
) -> None:
    sent: list[Any] = []

    @REQUESTS
    @given(value=inputs)
    def check(value: Any) -> None:
        if value is None or (isinstance(value, list) and None in value):
            return  # the constructor refused the input: nothing could be sent

        async def run() -> None:
            service = FakeService().on(method, path, answer(reply))
            try:
                async with scripted_client(service, client=version.client) as client:
                    await call(client, value)
            except rp.ValidationError:
                assert service.requests == []  # refused before anything was sent
                return
            sent.append(service.sent[0].body)

        asyncio.run(run())
        if sent:
            body = sent[-1]
            assert version.validation.request_errors(template, method, body) == [], body

    check()
    # The strategies reach inputs the client accepts, not only ones it refuses.
    assert len(sent) >= 3, f"{name}: only {len(sent)} generated inputs were accepted"
