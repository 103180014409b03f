"""A Redis Cluster of three masters on loopback, started and torn down by the Redis benchmark and tests.

Each master is ``redis-server --cluster-enabled yes`` on a free loopback port
(whose cluster bus port, ``port + 10000``, is free too), without persistence, in
a temporary directory of its own; ``redis-cli --cluster create`` joins them. The
benchmark (``bench_redis.py``) runs its fleet on it, and the Redis tests
(``tests/redis/``) run the backend and the same fleet on it.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence

__all__ = ["RedisCluster"]

_STARTUP_TIMEOUT = 30.0


def _free_port(taken: Sequence[int]) -> int:
    """A loopback port, not in ``taken``, that is free with its cluster bus port."""
    for _ in range(200):
        port = random.randint(20000, 50000)
        if port in taken:
            continue
        try:
            with socket.socket() as node, socket.socket() as bus:
                node.bind(("127.0.0.1", port))
                bus.bind(("127.0.0.1", port + 10000))
        except OSError:
            continue
        return port
    raise RuntimeError("no free pair of loopback ports for a Redis Cluster node")


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class RedisCluster:
    """Three masters (``masters``) on loopback, joined into one Redis Cluster by :meth:`start`."""

    def __init__(self, server: str, cli: str, masters: int = 3) -> None:
        self.server = server
        """Path of the ``redis-server`` binary."""
        self.cli = cli
        """Path of the ``redis-cli`` binary."""
        self.ports: list[int] = []
        """The masters' loopback ports."""
        for _ in range(masters):
            self.ports.append(_free_port(self.ports))
        self._directory: tempfile.TemporaryDirectory[str] | None = None
        self._processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        """The ``redis://`` URL of one master (a cluster client finds the others)."""
        return f"redis://127.0.0.1:{self.ports[0]}"

    def start(self) -> None:
        """Start the masters, join them, and wait until every one says the cluster is ok."""
        self._directory = tempfile.TemporaryDirectory(prefix="redis-cluster-")
        try:
            for port in self.ports:
                folder = os.path.join(self._directory.name, str(port))
                os.mkdir(folder)
                self._processes.append(
                    subprocess.Popen(
                        [
                            self.server,
                            "--port", str(port),
                            "--bind", "127.0.0.1",
                            "--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes.conf",
                            "--dir", folder,
                            "--save", "",
                            "--appendonly", "no",
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )  # fmt: skip
            self._wait(lambda: all(_answers_ping(port) for port in self.ports), "answered PING")
            create = [self.cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in self.ports)]
            subprocess.run(
                [*create, "--cluster-replicas", "0", "--cluster-yes"],
                check=True,
                capture_output=True,
                timeout=_STARTUP_TIMEOUT,
            )
            self._wait(lambda: all(self._cluster_ok(port) for port in self.ports), "became ok")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop every master (SIGTERM, then SIGKILL) and remove their directories."""
        processes, self._processes = self._processes, []
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self._directory is not None:
            self._directory.cleanup()
            self._directory = None

    def _wait(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + _STARTUP_TIMEOUT
        while not ready():
            exited = [process.returncode for process in self._processes if process.poll() is not None]
            if exited:
                raise RuntimeError(f"a Redis Cluster node exited with {exited[0]} (ports {self.ports})")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the Redis Cluster on ports {self.ports} never {what}")
            time.sleep(0.05)

    def _cluster_ok(self, port: int) -> bool:
        answer = subprocess.run(
            [self.cli, "-h", "127.0.0.1", "-p", str(port), "cluster", "info"],
            capture_output=True,
            text=True,
            timeout=_STARTUP_TIMEOUT,
            check=False,
        )
        return "cluster_state:ok" in answer.stdout
