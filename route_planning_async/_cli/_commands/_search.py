"""``route-planning stops search``: search every stop and unassigned stop of the team (v1).

The command joins the ``stops`` group (``_app``); it lists what it finds as
``stops list`` does. The filter language is the service's
(``route_planning_async.v1.search`` describes it and builds filters in Python).
"""

from __future__ import annotations

from typing import Literal, cast

import click

from route_planning_async._cli._errors import ExitCode
from route_planning_async._cli._options import Command, limit_option, service
from route_planning_async._cli._output._render import Output, stops_table
from route_planning_async._cli._run import Settings, first, jsonable, open_client, print_result
from route_planning_async._cli._versions import as_v1, require_version
from route_planning_async.v1.search import MAX_FILTER_LENGTH, MAX_KEYWORD_LENGTH, SORTABLE_FIELDS

__all__ = ["stops_search"]


@click.command("search", cls=Command)
@click.argument("keyword", required=False)
@click.option(
    "--filter",
    "filter_text",
    metavar="EXPRESSION",
    help=f'Only stops the filter selects, e.g. \'address.countryCode = "DE" and notes ~= "gate"\' '
    f"(at most {MAX_FILTER_LENGTH} characters).",
)
@click.option(
    "--sort-field",
    type=click.Choice(sorted(SORTABLE_FIELDS)),
    metavar="FIELD",
    help=f"Sort by this field (default: by relevance to KEYWORD): {', '.join(sorted(SORTABLE_FIELDS))}.",
)
@click.option("--sort-order", type=click.Choice(["asc", "desc"]), help="asc (the service's default) or desc.")
@limit_option("stops")
@service
async def stops_search(
    settings: Settings,
    *,
    keyword: str | None,
    filter_text: str | None,
    sort_field: str | None,
    sort_order: str | None,
    limit: int | None,
) -> int:
    """Search every stop and unassigned stop of the team (v1): KEYWORD matched fuzzily
    against their text (address, notes, recipient, order, barcodes), --filter in the
    service's filter language; listed as 'stops list' lists a plan's stops.

    \b
    KEYWORD is 1 to %(keyword)d characters. Filter: 'field operator value', joined
    with and / or, grouped with ( ); operators = != ~= > >= < <=; values "text",
    numbers, true, false, null. A stop just made may not be found yet (the
    service's index lags a little).
    """
    require_version(settings.api_version, "v1", "stops search")
    async with open_client(settings) as client:
        hits = as_v1(client, "stops search").stops.search(
            keyword=keyword,
            filter=filter_text,
            sort_field=sort_field,
            sort_order=cast('Literal["asc", "desc"] | None', sort_order),
        )
        found = await first(hits, limit)
    listed = [jsonable(hit) for hit in found]
    print_result(Output(json=settings.json), listed, stops_table(listed), note=f"{len(listed)} stop(s)")
    return ExitCode.OK


if stops_search.help is not None:
    stops_search.help = stops_search.help.replace("%(keyword)d", str(MAX_KEYWORD_LENGTH))
