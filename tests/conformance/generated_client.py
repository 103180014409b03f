"""A client generated from the official v1 document by openapi-python-client, as a user
of the document would make one: for ``test_generated_client.py``.

:func:`generate` writes the package (never committed) into a directory of the test
session and imports it; :class:`Calls` runs the generated async functions with the
generated defaults, and checks that every answer decoded into the generated models.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs

__all__ = ["PACKAGE", "Calls", "bare_id", "generate"]

PACKAGE = "route_planning_v1_generated"
"""The name the generated package is imported under."""


def generate(document: Path, into: Path) -> ModuleType:
    """The package openapi-python-client generates from ``document``, written into ``into``
    and imported.

    The generator's own defaults, but for its post hooks (``ruff check --fix`` and
    ``ruff format`` over the code), which only restyle it, and ``--meta none`` (the
    package alone, without a ``pyproject.toml`` around it).
    """
    config = into / "config.json"
    config.write_text(json.dumps({"package_name_override": PACKAGE, "post_hooks": []}), encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "openapi_python_client",
        "generate",
        "--path",
        str(document),
        "--meta",
        "none",
        "--config",
        str(config),
        "--output-path",
        str(into / PACKAGE),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise AssertionError(f"openapi-python-client failed:\n{done.stdout}\n{done.stderr}")
    sys.path.insert(0, str(into))
    try:
        package = importlib.import_module(PACKAGE)
        importlib.import_module(f"{PACKAGE}.models")  # as package.models
        return package
    finally:
        sys.path.remove(str(into))


def bare_id(resource_id: str) -> str:
    """The last segment of a resource name (``plans/abc`` -> ``abc``): the generated
    functions put a path parameter into the path as given."""
    return resource_id.rsplit("/", 1)[-1]


def _extra_keys(value: Any, path: str = "") -> list[str]:
    """The JSON paths of keys a decoded answer kept outside the document's properties
    (a generated model's ``additional_properties``)."""
    if isinstance(value, list):
        return [key for i, item in enumerate(value) for key in _extra_keys(item, f"{path}[{i}]")]
    if not attrs.has(type(value)):
        return []
    found = [f"{path}.{key}" for key in getattr(value, "additional_properties", {})]
    for field in attrs.fields(type(value)):
        if field.name != "additional_properties":
            found += _extra_keys(getattr(value, field.name), f"{path}.{field.name}")
    return found


@attrs.define
class Calls:
    """The generated functions, called on one generated client, each answer checked."""

    package: ModuleType
    """The generated package."""
    client: Any
    """Its ``AuthenticatedClient``."""
    answered: list[tuple[str, int]] = attrs.field(factory=list)
    """Each call made (the module's name) and the status of its answer."""

    async def __call__(self, module: str, *args: Any, **kwargs: Any) -> Any:
        """``asyncio_detailed`` of ``api.<module>`` with ``args`` and ``kwargs`` (the
        defaults for the rest); its decoded 2xx answer.

        Fails unless the answer is a 2xx, and one with JSON decoded into the generated
        model of that status without a key the document does not name.
        """
        function = importlib.import_module(f"{self.package.__name__}.api.{module}")
        response = await function.asyncio_detailed(*args, client=self.client, **kwargs)
        self.answered.append((module, response.status_code))
        answer = response.content.decode(errors="replace")
        assert 200 <= response.status_code < 300, f"{module}: {response.status_code} {answer}"
        if response.content:
            assert response.parsed is not None, f"{module}: {answer} was not decoded"
            assert _extra_keys(response.parsed) == [], f"{module}: {answer}"
            assert response.parsed.to_dict() == json.loads(answer), f"{module}: {answer}"
        return response.parsed
