"""Which backend holds which budget: the service counts one per origin and API key.

A client given no ``rate_limit_backend`` shares the in-memory backend of this
process's other clients of the same budget (:func:`process_backend`); a client
given one may not bring it to a second budget (:func:`claim_problem`), since a
backend's keys name only the category and the two budgets would be counted as one.
"""

from __future__ import annotations

import asyncio
import hashlib
import urllib.parse
import weakref

from route_planning_async._rate_limits._backends import InMemoryBackend

__all__ = ["budget_of", "claim_problem", "process_backend"]


_PROCESS_BACKENDS: weakref.WeakKeyDictionary[
    object, weakref.WeakValueDictionary[tuple[str, str], InMemoryBackend]
]
_PROCESS_BACKENDS = weakref.WeakKeyDictionary()


class _NoLoop:
    """The key of the clients made outside any event loop."""


_NO_LOOP = _NoLoop()


def process_backend(base_url: str, api_key: str) -> InMemoryBackend:
    """The in-memory backend of the clients of this process, on one event loop (a clock of its
    own), that talk to ``base_url``'s origin with ``api_key``: one budget per process (the
    service counts one per key), kept while a client uses it. A client given its own
    ``rate_limit_backend`` keeps its own."""
    try:
        loop: object = asyncio.get_running_loop()
    except RuntimeError:
        loop = _NO_LOOP
    key = budget_of(base_url, api_key)
    backends = _PROCESS_BACKENDS.setdefault(loop, weakref.WeakValueDictionary())
    backend = backends.get(key)
    if backend is None:
        backend = backends[key] = InMemoryBackend()
    return backend


def budget_of(base_url: str, api_key: str) -> tuple[str, str]:
    """The budget the service counts a client's requests in: its origin, and its API key's hash."""
    parts = urllib.parse.urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}".lower(), hashlib.sha256(api_key.encode()).hexdigest()


_CLAIMED: weakref.WeakKeyDictionary[object, tuple[str, str]] = weakref.WeakKeyDictionary()


def claim_problem(backend: object, base_url: str, api_key: str) -> str | None:
    """Why ``backend`` cannot hold this client's budget: it already holds another origin's or
    API key's (its keys name only the category, so the two budgets would be counted as one)."""
    budget = budget_of(base_url, api_key)
    try:
        held = _CLAIMED.setdefault(backend, budget)
    except TypeError:  # a backend that takes no weak reference is taken on trust
        return None
    if held == budget:
        return None
    other = "API key" if held[0] == budget[0] else f"service ({held[0]})"
    return f"it already holds the budget of another {other}: give each API key a backend of its own"
