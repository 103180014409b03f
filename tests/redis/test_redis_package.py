"""The package's make-up: its scripts are package files, and its methods show the backend contract."""

from __future__ import annotations

import inspect
import subprocess
import sys
from importlib import resources

import attrs
import pytest

from route_planning_async import Grant, InMemoryBackend, RateLimitBackend
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
    shown = getattr(backend, name).__doc__
    description, sections = contract.split("\n\nArgs:\n", 1)
    assert shown.startswith(description)
    assert f"Args:\n{sections}" in shown


@pytest.mark.parametrize("name", ["acquire", "penalize", "window", "usage"])
def test_what_fails_closed_says_so(name: str) -> None:
    # One Raises section, the last, holding the error of failing closed.
    raises = getattr(RedisBackend, name).__doc__.split("\n\nRaises:\n")
    assert len(raises) == 2
    assert "\n    RedisBackendError: " in f"\n{raises[1]}"
    assert "\n\n" not in raises[1].rstrip()


def test_acquire_names_the_error_of_other_rules() -> None:
    assert "\n    ConfigurationError: Other rules are stored" in RedisBackend.acquire.__doc__


def test_a_backend_adds_its_own_text_after_the_contracts() -> None:
    class Noted(InMemoryBackend):
        async def cancel(self, grant: Grant) -> None:
            """Noted.

            Raises:
                RuntimeError: Always.
            """
            raise RuntimeError

    assert Noted.cancel.__doc__ == (
        "Remove the grant's slot as if never granted: the attempt was never sent.\n\n"
        "Noted.\n\n"
        "Args:\n    grant: The grant of :meth:`acquire`.\n\n"
        "Raises:\n    RuntimeError: Always.\n"
    )
