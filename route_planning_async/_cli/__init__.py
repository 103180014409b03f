"""The ``route-planning`` command-line tool (``pip install 'route_planning_async[cli]'``).

click and rich are imported only here, below this package, so the library
itself never needs them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``route-planning`` with ``argv`` (default: the process arguments) and exit."""
    try:
        import click  # noqa: F401  (checked here so that a missing extra is one clear line)
        import rich  # noqa: F401
    except ImportError as exc:
        sys.stderr.write(
            f"route-planning: error: {exc.name or 'a dependency'} is not installed; "
            "run: pip install 'route_planning_async[cli]'\n"
        )
        raise SystemExit(1) from None
    from route_planning_async._cli._app import cli

    cli.main(args=list(argv) if argv is not None else None, prog_name="route-planning")
