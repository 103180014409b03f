"""The command line's help: the common epilog (key, emulator, limits file, exit codes) said once."""

from __future__ import annotations

import click
from click.testing import CliRunner

from route_planning_async._cli._app import cli
from route_planning_async._cli._options import EPILOG, SEE_EPILOG


def _help(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], prog_name="route-planning")
    assert result.exit_code == 0, result.output
    return result.output


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        found.append((*path, name))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*path, name)))
    return found


def test_the_common_epilog_is_on_the_root_help_alone() -> None:
    root = _help()
    assert "Exit codes:" in root
    assert "Limits file (--limits FILE)" in root
    assert "130  Ctrl-C (or SIGTERM) stopped the command" in root
    pointer = SEE_EPILOG.removeprefix("\b\n")
    commands = _commands(cli)
    assert len(commands) > 20
    for command in commands:
        shown = _help(*command)
        assert "Exit codes:" not in shown, command
        assert "Limits file (--limits FILE)" not in shown, command
        # The ones the tool's shared options make (not 'webhooks', a plain group) point to it.
        if command[0] != "webhooks":
            assert shown.rstrip().endswith(pointer), command
    assert EPILOG.count("Exit codes:") == 1
