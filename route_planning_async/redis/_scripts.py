"""The backend's Lua scripts (``scripts/*.lua``), read from the package and registered with a client.

Each script runs atomically on the Redis server, on its clock. Every one
starts with ``prelude.lua``, the helpers they share. A script's
file says what it takes (``KEYS``, ``ARGV``) and what it answers.
"""

from __future__ import annotations

from importlib import resources

import attrs
import redis.asyncio as redis_asyncio
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

__all__ = ["Scripts"]

_FOLDER = resources.files("route_planning_async.redis").joinpath("scripts")


def _source(name: str) -> str:
    return _FOLDER.joinpath(f"{name}.lua").read_text(encoding="utf-8")


@attrs.frozen
class Scripts:
    """The backend's scripts, registered with one client: each field runs the script of its name.

    A script is sent by ``EVALSHA``, and loaded again by itself when the server
    no longer knows it (after a restart).
    """

    acquire: AsyncScript
    release: AsyncScript
    cancel: AsyncScript
    penalize: AsyncScript
    recover: AsyncScript
    claim_probe: AsyncScript
    window: AsyncScript

    @classmethod
    def register(cls, client: redis_asyncio.Redis | RedisCluster) -> Scripts:
        """Register every script with ``client``.

        Args:
            client: The client that runs them.

        Returns:
            The registered scripts.
        """
        prelude = _source("prelude")
        return cls(
            acquire=client.register_script(prelude + _source("acquire")),
            release=client.register_script(prelude + _source("release")),
            cancel=client.register_script(prelude + _source("cancel")),
            penalize=client.register_script(prelude + _source("penalize")),
            recover=client.register_script(prelude + _source("recover")),
            claim_probe=client.register_script(prelude + _source("claim_probe")),
            window=client.register_script(prelude + _source("window")),
        )
