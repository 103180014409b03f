"""The package's make-up: its scripts are package files, and its methods show the backend contract."""

from __future__ import annotations

import inspect
import subprocess
import sys
from importlib import resources

import attrs
import pytest

from route_planning_async import InMemoryBackend, RateLimitBackend
from route_planning_async._rate_limits._backends import _keeping_contract
from route_planning_async.redis import RedisBackend
from route_planning_async.redis._scripts import Scripts

CONTRACT = [name for name, value in vars(RateLimitBackend).items() if inspect.iscoroutinefunction(value)]


def test_every_script_is_a_file_of_the_package() -> None:
    folder = resources.files("route_planning_async.redis").joinpath("scripts")
    files = {entry.name for entry in folder.iterdir() if entry.name.endswith(".lua")}
    assert files == {f"{field.name}.lua" for field in attrs.fields(Scripts)} | {"prelude.lua"}


def test_without_redis_py_the_import_names_the_extra() -> None:
    importing = "import sys; sys.modules['redis'] = None; import route_planning_async.redis"
    result = subprocess.run([sys.executable, "-c", importing], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert (
        'ImportError: route_planning_async.redis needs redis-py: pip install "route_planning_async[redis]"'
        in result.stderr
    )


def test_the_contract_has_every_method_of_a_backend() -> None:
    assert CONTRACT == [
        "acquire",
        "release",
        "cancel",
        "penalize",
        "recover",
        "claim_probe",
        "window",
        "usage",
    ]


@pytest.mark.parametrize("backend", [InMemoryBackend, RedisBackend])
@pytest.mark.parametrize("name", CONTRACT)
def test_a_backend_shows_the_contract_of_each_method(backend: type[RateLimitBackend], name: str) -> None:
    contract = inspect.cleandoc(getattr(RateLimitBackend, name).__doc__)
    shown = inspect.getdoc(getattr(backend, name))
    assert shown is not None
    description, sections = contract.split("\n\nArgs:\n", 1)
    assert shown.startswith(description)
    assert f"Args:\n{sections}" in shown


@pytest.mark.parametrize("name", ["acquire", "penalize", "window", "usage"])
def test_what_fails_closed_says_so(name: str) -> None:
    # One Raises section, the last, holding the error of failing closed.
    raises = (inspect.getdoc(getattr(RedisBackend, name)) or "").split("\n\nRaises:\n")
    assert len(raises) == 2
    assert "\n    RedisBackendError: " in f"\n{raises[1]}"
    assert "\n\n" not in raises[1].rstrip()


def test_acquire_names_the_error_of_other_rules() -> None:
    assert "\n    ConfigurationError: Other rules are stored" in (inspect.getdoc(RedisBackend.acquire) or "")


def test_a_backend_keeps_its_own_sections_after_the_contracts() -> None:
    # What the docstring generator writes for a backend's method (python -m
    # route_planning_async._docs._gen): the contract's text, then the method's own sections.
    rewrite = _keeping_contract("cancel")
    contract = inspect.cleandoc(RateLimitBackend.cancel.__doc__ or "").splitlines()
    own = ["Note:", "    Noted.", "", "Raises:", "    RuntimeError: Always."]
    written = rewrite(own, 100, lambda module, qualname: contract)
    assert "\n".join(written) == (
        "Remove the grant's slot as if never granted: the attempt was never sent.\n\n"
        "Args:\n    grant: The grant of :meth:`acquire`.\n\n"
        "Note:\n    Noted.\n\n"
        "Raises:\n    RuntimeError: Always."
    )
    assert rewrite(written, 100, lambda module, qualname: contract) == written  # a second run
