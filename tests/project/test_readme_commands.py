"""The README's command examples run, and print what the README shows.

A ``console`` block is a shell session: each ``$`` line is a command, the lines
below it what the command prints on stdout. The README's ``console`` blocks run
in order in one bash, in a temporary directory, with this environment's
``route-planning`` on ``PATH``; each command must succeed and print the lines
shown, where ``PORT`` stands for a port number and ``…`` for any text. The
README's other blocks of commands are named in ``ELSEWHERE``, with what runs
them, so a new block of commands is either checked here or said to be run
elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys

import attrs
import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
_BLOCK = re.compile(r"^```(console|bash|sh|shell)\n(.*?)^```", re.S | re.M)

ELSEWHERE = {
    "route-planning demo": "tests/cli/test_clean_install.py: a fresh venv, the install, the demo",
    "nox -s tests": ".ci/run: the test command, which runs this suite",
}
"""A string only one README block of commands holds -> what runs that block."""


@attrs.frozen
class Command:
    """One ``$`` line of a ``console`` block, and the stdout the README shows for it."""

    line: int
    command: str
    shown: tuple[str, ...]


def _blocks() -> list[tuple[str, int, str]]:
    """Every block of commands of the README: its language, first line and text."""
    text = README.read_text(encoding="utf-8")
    return [
        (match.group(1), text.count("\n", 0, match.start()) + 2, match.group(2))
        for match in _BLOCK.finditer(text)
    ]


def _commands() -> list[Command]:
    commands: list[Command] = []
    for language, first, text in _blocks():
        if language != "console":
            continue
        for offset, line in enumerate(text.splitlines()):
            if line.startswith("$ "):
                commands.append(Command(first + offset, line[2:], ()))
            else:
                assert commands, f"README.md:{first}: output before the first command"
                last = commands[-1]
                commands[-1] = attrs.evolve(last, shown=(*last.shown, line))
    return commands


def _pattern(shown: str) -> re.Pattern[str]:
    """A line as the README shows it: ``PORT`` is a port number, ``…`` any text."""
    return re.compile(re.escape(shown).replace("PORT", r"\d+").replace("…", ".*?"))


def test_every_block_of_commands_is_checked_here_or_run_elsewhere() -> None:
    unchecked = [(first, text) for language, first, text in _blocks() if language != "console"]
    for first, text in unchecked:
        named = [marker for marker in ELSEWHERE if marker in text]
        assert len(named) == 1, f"README.md:{first}: neither a console block nor in ELSEWHERE"
    for marker in ELSEWHERE:  # every entry still names a block
        assert any(marker in text for _, text in unchecked), marker
    assert _commands(), "no console block to check"


def test_the_patterns_stand_for_ports_and_any_text() -> None:
    pattern = _pattern("ROUTE_PLANNING_BASE_URL=https://127.0.0.1:PORT/public/v0.2b")
    assert pattern.fullmatch("ROUTE_PLANNING_BASE_URL=https://127.0.0.1:40123/public/v0.2b")
    assert not pattern.fullmatch("ROUTE_PLANNING_BASE_URL=https://127.0.0.1:/public/v0.2b")
    assert not pattern.fullmatch("ROUTE_PLANNING_BASE_URL=https://127.0.0.1:40123/public/v1")
    assert _pattern("operations/…").fullmatch("operations/V3yZ17D3ZDSiUyZvXrEy")


def _script(commands: list[Command]) -> str:
    """The commands, each between two markers: its output, then its exit status."""
    lines = []
    for index, command in enumerate(commands):
        status = f"printf '\\n@@ status {index} %s @@\\n' $?"
        lines += [f"printf '\\n@@ {index} @@\\n'", command.command, status]
    return "\n".join(lines) + "\n"


@pytest.mark.skipif(os.name != "posix" or shutil.which("bash") is None, reason="the examples are bash")
@pytest.mark.timeout(300)
def test_the_readme_commands_print_what_the_readme_shows(tmp_path: pathlib.Path) -> None:
    commands = _commands()
    env = {name: value for name, value in os.environ.items() if not name.startswith("ROUTE_PLANNING_")}
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    env["TMPDIR"] = str(tmp_path)
    stderr_file = tmp_path / "stderr.txt"
    with stderr_file.open("w", encoding="utf-8") as stderr:
        # Its own process group: the lasting emulator the README starts with '&' is in it, and is
        # stopped with it. Its stderr goes to a file, so that no pipe waits for it.
        process = subprocess.Popen(
            ["bash", "-c", _script(commands)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            start_new_session=True,
        )
        try:
            out, _ = process.communicate(timeout=240)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            if process.poll() is None:
                process.kill()
                process.wait()
    logged = stderr_file.read_text(encoding="utf-8")
    ran = re.findall(r"\n@@ (\d+) @@\n(.*?)\n@@ status \1 (\d+) @@\n", out, re.S)
    assert [int(index) for index, _, _ in ran] == list(range(len(commands))), out + logged
    for command, (_, printed, status) in zip(commands, ran, strict=True):
        where = f"README.md:{command.line}: {command.command}"
        assert status == "0", f"{where} exited {status}\n{logged[-3000:]}"
        lines = printed.splitlines()
        assert len(lines) == len(command.shown), f"{where} printed:\n{printed}"
        for shown, line in zip(command.shown, lines, strict=True):
            assert _pattern(shown).fullmatch(line), f"{where}\n shown: {shown}\nprinted: {line}"
