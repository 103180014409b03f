"""``route-planning members import``: add members to the team's dashboard from a CSV or JSON
file (v1: ``client.members.import_many``; v1 has no call that lists members)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import click

from route_planning_async._cli._options import (
    EXISTING_FILE,
    failures_option,
    service,
    service_group,
)
from route_planning_async._cli._rows import MappedRows, import_file, read_mapped_rows
from route_planning_async._cli._run import Settings
from route_planning_async._cli._versions import as_v1, require_version

if TYPE_CHECKING:
    from route_planning_async.v1 import MemberInput

__all__ = ["member_input", "members", "read_member_rows"]

# Header (normalized: lower case, no spaces, '-' or '_') -> MemberInput field.
_COLUMNS: Final[Mapping[str, str]] = {
    "email": "email",
    "name": "name",
    "fullname": "name",
    "displayname": "display_name",
    "role": "role",
    "depots": "depots",
    "depot": "depots",
    "linkeddriver": "linked_driver_id",
    "linkeddriverid": "linked_driver_id",
    "driver": "linked_driver_id",
}


def member_input(values: Mapping[str, str], columns: Mapping[str, str]) -> MemberInput:
    """The v1 member body of a row's cells, read through ``columns`` (header -> field).

    Raises:
        ValidationError: A value the v1 schema refuses (a missing role, a bad e-mail).
    """
    from route_planning_async.v1 import MemberInput

    fields: dict[str, Any] = {}
    for header, field in columns.items():
        text = values.get(header, "").strip()
        if not text:
            continue
        if field == "depots":
            fields[field] = [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]
        else:
            fields[field] = text
    return MemberInput(**fields)


def read_member_rows(source: Path | str) -> MappedRows[MemberInput]:
    """The header and each row of a member file (CSV or JSON), read as a v1 ``MemberInput``.

    Raises:
        CsvError: The file cannot be read, or lacks the 'email' or the 'role' column.
    """
    required = [
        (frozenset({"email"}), "an 'email'", "it identifies each member"),
        (frozenset({"role"}), "a 'role'", "every member has one"),
    ]
    return read_mapped_rows(source, _COLUMNS, member_input, required=required)


@service_group
def members() -> None:
    """Add members to the team's dashboard from a CSV or JSON file (v1)."""


@members.command("import")
@click.argument("member_file", metavar="FILE", type=EXISTING_FILE)
@failures_option()
@service
async def members_import(settings: Settings, *, member_file: Path, failures_path: Path | None) -> int:
    """Import the members of a CSV or JSON file (v1), 50 per request, each once.

    \b
    Columns are found by their header (case, spaces, '-' and '_' do not matter):
      email (required: it identifies the member; the service refuses a second
      member with the same e-mail, so importing the same file again adds
      nobody twice), role (required: admin,
      depot-manager, dispatcher or read-only), name, display_name, depots
      (split on ';' or ','; none: the main depot), linked_driver (drivers/<id>).
    A .json file is an array of objects with these keys. FILE '-' reads stdin.
    v1 cannot list members, so a batch whose answer was lost is reported
    'unknown' rather than sent twice: check those rows before importing again.
    """
    require_version(settings.api_version, "v1", "members import")
    return await import_file(
        settings,
        kind="members",
        read=lambda: read_member_rows(member_file),
        failures_path=failures_path,
        send=lambda client, items: as_v1(client, "members import").members.import_many(items),
    )
