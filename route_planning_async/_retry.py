"""Retry policy, as data. (Placeholder interface; the scheduler issue fills it in.)"""

from __future__ import annotations

import attrs

__all__ = ["RetryPolicy"]


@attrs.frozen
class RetryPolicy:
    """How failed attempts are retried."""

    attempts: int = 6
    """Attempts in all, the first included."""
