"""The ``route-planning`` command-line tool (``pip install 'route_planning_async[cli]'``).

click and rich are imported only here, below this package, so the library
itself never needs them.

The rooms, each importing only rooms listed above it (a room that is a folder lists
its modules in its own ``__init__.py``):

- ``_errors``: exit codes and the errors that end a command with one line on stderr.
- ``_versions``: ``--api-version``: the version's client class, chosen in this one place.
- ``_files/``: the files the tool reads and writes: ``-`` for standard input or output,
  stops as CSV with every cell escaped, the failure report, seeded sample stops.
- ``_output/``: what the tool shows: rich tables and progress, a plan's routes as data and
  as an HTML map.
- ``_limits``: ``--limits``: the client's rate limits by name or from a JSON or TOML file.
- ``_emulated``: the embedded emulator behind ``--emulator`` and ``demo``.
- ``_run``: settings, the client a command talks through (``--limits``, ``--redis``), running a
  command (Ctrl-C at any moment: exit code 130), printing its result.
- ``_progress``: an import with a progress bar, a wait with a status line, the stats rows.
- ``_options``: the shared options, the help's epilog, the options several commands take, and
  the decorators that make a coroutine a command.
- ``_rows``: the rows of an import file (CSV or JSON), the import of the team's records and its report.
- ``_commands/``: the commands, one module per command group (``plans``, ``stops``, ``drivers``,
  ``emulator``, ``demo`` ...).
- ``_app``: the root command, with every command group added to it.
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
    try:
        from route_planning_async._cli._app import cli
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted (Ctrl-C) while starting: nothing was done\n")
        raise SystemExit(130) from None  # ExitCode.INTERRUPTED, the room not imported yet
    cli.main(args=list(argv) if argv is not None else None, prog_name="route-planning")
