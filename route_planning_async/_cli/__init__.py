"""The ``route-planning`` command-line tool (``pip install 'route_planning_async[cli]'``).

click and rich are imported only here, below this package, so the library
itself never needs them.

The rooms, each importing only rooms listed above it:

- ``_stdio``: ``-`` for a file: standard input where a file is read, standard output where one is written.
- ``_errors``: exit codes and the errors that end a command with one line on stderr.
- ``_versions``: ``--api-version``: the version's client class, chosen in this one place.
- ``_summary``: a distributed plan route by route, as plain data.
- ``_cells``: every CSV the tool writes, its cells escaped so that no spreadsheet runs them.
- ``_csv``: stops as CSV, the column mapping, the failure report and the export.
- ``_failures``: the rows an import did not bring in, for its report and the ``--failures`` file.
- ``_limits``: ``--limits``: the client's rate limits by name or from a JSON or TOML file.
- ``_sample_stops``: realistic, seeded stops around a depot (demo and sample files).
- ``_render``: rich output: tables, the progress bar, the status line.
- ``_map``: the routes as a self-contained HTML page.
- ``_emulated``: the embedded emulator behind ``--emulator`` and ``demo``.
- ``_run``: settings, the client a command talks through (``--limits``, ``--redis``), running a
  command (Ctrl-C at any moment: exit code 130), printing its result.
- ``_progress``: an import with a progress bar, a wait with a status line, the stats rows.
- ``_options``: the shared options, the help's epilog, the options several commands take, and
  the decorators that make a coroutine a command.
- ``_rows``: the rows of an import file (CSV or JSON), the import of the team's records and its report.
- ``_demo``: ``demo``, the whole workflow against an embedded emulator.
- ``_plans``: ``plans list|create|get|delete``.
- ``_stops``: ``stops list|import|export|sample``.
- ``_search``: ``stops search`` (v1), added to the ``stops`` group.
- ``_routes``: ``optimize``, ``operations wait|cancel``, ``distribute``, ``routes get``.
- ``_drivers``: ``drivers list|import`` (the driver file too).
- ``_depots``: ``depots list|import`` (the depot file too; import is v1's).
- ``_members``: ``members import`` (v1).
- ``_emulator``: ``emulator``, a lasting emulator for the other commands.
- ``_webhooks``: ``webhooks listen`` and ``webhooks verify``: receiving the service's events.
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
