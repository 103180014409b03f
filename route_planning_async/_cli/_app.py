"""The ``route-planning`` commands (click)."""

from __future__ import annotations

import csv
import sys
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import click
from click.core import ParameterSource

from route_planning_async import __version__
from route_planning_async._cli import _commands, _drivers
from route_planning_async._cli._emulated import CA_FILE_ENV, LIMITS_ENV, serve_emulator
from route_planning_async._cli._errors import InputError
from route_planning_async._cli._limits import LIMITS_FILE_HELP, LIMITS_HELP, parse_limits
from route_planning_async._cli._render import Output
from route_planning_async._cli._run import API_KEY_ENV, Settings, run_command
from route_planning_async._cli._sample_stops import fields_as_csv_row, generate_stop_fields
from route_planning_async._cli._webhooks import webhooks

__all__ = ["cli"]

F = TypeVar("F", bound=Callable[..., Any])

_EPILOG = f"""\b
The API key is read from {API_KEY_ENV} or from --api-key-file FILE, never
from the command line. --emulator runs one command against a fresh, empty
emulator that is gone when the command ends; for a session (import, then
optimize), run 'route-planning emulator' and use the lines it prints:
  eval "$(route-planning emulator --print-env &)"

{LIMITS_FILE_HELP}
\b
Exit codes:
  0  success
  1  the service or the network failed (API error, failed optimization, timeout)
  2  usage or validation: bad option, missing key, bad CSV, rejected value
  3  an import ran, but some rows were not imported (see --failures)
  130  Ctrl-C stopped an import (the rows not imported are written out)
"""


def _settings(ctx: click.Context) -> Settings:
    return ctx.find_root().ensure_object(Settings)


def _set(name: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    """A callback that records an option in the shared :class:`Settings` when it was given."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> None:
        if value is None or value is False:
            return
        setattr(_settings(ctx), name, value)

    return callback


_JSON_OPTION = click.option(
    "--json",
    "json_output",
    is_flag=True,
    expose_value=False,
    callback=_set("json"),
    help="Print machine-readable JSON on stdout (and nothing else).",
)


def _from_command_line(ctx: click.Context, param: click.Parameter) -> bool:
    # A value from the environment is checked when a command uses it, so that a
    # stale export (an emulator that stopped and removed its files) does not
    # stop commands that never read it, such as 'emulator' itself.
    return ctx.get_parameter_source(str(param.name)) == ParameterSource.COMMANDLINE


def _check_limits(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Check ``--limits`` when given (a bad file is a usage error naming its place), then record it."""
    if value is None:
        return
    if _from_command_line(ctx, param):
        try:
            parse_limits(value)
        except InputError as exc:
            raise click.BadParameter(exc.format_message(), ctx=ctx, param=param) from None
    _settings(ctx).limits = value


def _check_ca_file(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    """Record ``--ca-file``; one given on the command line must exist."""
    if value is None:
        return
    if _from_command_line(ctx, param) and not value.is_file():
        raise click.BadParameter(f"{value} does not exist or is not a file", ctx=ctx, param=param)
    _settings(ctx).ca_file = value


def _shared_options(command: F) -> F:
    """The connection and output options, accepted before or after any command name."""
    options = (
        click.option(
            "--api-key-file",
            type=click.Path(dir_okay=False, path_type=Path),
            expose_value=False,
            callback=_set("api_key_file"),
            help=f"File holding the API key (default: ${API_KEY_ENV}).",
        ),
        click.option(
            "--base-url",
            envvar="ROUTE_PLANNING_BASE_URL",
            expose_value=False,
            callback=_set("base_url"),
            help="Service address (default: the v0.2b service; $ROUTE_PLANNING_BASE_URL).",
        ),
        click.option(
            "--ca-file",
            type=click.Path(dir_okay=False, path_type=Path),
            envvar=CA_FILE_ENV,
            expose_value=False,
            callback=_check_ca_file,
            help=f"PEM file of extra CA certificates to trust (${CA_FILE_ENV}).",
        ),
        click.option(
            "--emulator",
            is_flag=True,
            expose_value=False,
            callback=_set("emulator"),
            help="One-shot: run this one command against a fresh, empty embedded emulator, "
            "gone when it ends (for a lasting one: 'route-planning emulator').",
        ),
        click.option(
            "--limits",
            metavar="public-docs|contract|FILE",
            envvar=LIMITS_ENV,
            expose_value=False,
            callback=_check_limits,
            help=f"{LIMITS_HELP} (${LIMITS_ENV})",
        ),
        click.option(
            "--redis",
            metavar="URL",
            envvar="ROUTE_PLANNING_REDIS_URL",
            expose_value=False,
            callback=_set("redis"),
            help="Keep the rate-limit slots in this Redis server (redis://host:6379/0), shared by every "
            "process using the same key and prefix; needs the redis extra ($ROUTE_PLANNING_REDIS_URL).",
        ),
        click.option(
            "--redis-prefix",
            metavar="NAME",
            expose_value=False,
            callback=_set("redis_prefix"),
            help="The key prefix in Redis (default: derived from the API key); library code sharing "
            "the limits passes the same as RedisBackend(key_prefix=...).",
        ),
        _JSON_OPTION,
    )
    for option in reversed(options):
        command = option(command)
    return command


def _date(value: str, option: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"expected a date as YYYY-MM-DD, got {value!r}", param_hint=option) from None


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=_EPILOG,
)
@click.version_option(__version__, prog_name="route-planning")
@_shared_options
def cli() -> None:
    """Plan delivery routes with the Route Planning Service API v0.2b."""


@cli.command(epilog=_EPILOG)
@click.option("--stops", "stop_count", type=click.IntRange(1, 100_000), default=1000, show_default=True)
@click.option("--drivers", "driver_count", type=click.IntRange(1, 50), default=5, show_default=True)
@click.option(
    "--speedup",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Run the emulator (and the client's limits) this many times faster than the contract.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the generated stops.")
@click.option(
    "--map",
    "map_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Also draw the routes into this HTML file.",
)
@_JSON_OPTION
@click.pass_context
def demo(
    ctx: click.Context,
    stop_count: int,
    driver_count: int,
    speedup: float,
    seed: int,
    map_path: Path | None,
) -> None:
    """Run the whole workflow against an embedded emulator over HTTPS.

    Creates a plan with drivers, imports realistic stops around the depot,
    optimizes, distributes, and prints the routes, the skipped stops and the
    requests per rate-limit category. At --speedup 1 the emulator enforces the
    contract's limits as they are.
    """
    settings = _settings(ctx)
    run_command(
        lambda: _commands.demo(
            settings,
            stop_count=stop_count,
            driver_count=driver_count,
            speedup=speedup,
            seed=seed,
            map_path=map_path,
        )
    )


@cli.group(epilog=_EPILOG)
@_shared_options
def plans() -> None:
    """List, show, create and delete plans."""


@plans.command("list", epilog=_EPILOG)
@click.option("--title", help="Only plans with this title.")
@click.option(
    "--from", "starts_from", metavar="DATE", help="Only plans starting on or after DATE (YYYY-MM-DD)."
)
@click.option("--limit", type=click.IntRange(min=1), help="Stop after this many plans.")
@_shared_options
@click.pass_context
def plans_list(ctx: click.Context, title: str | None, starts_from: str | None, limit: int | None) -> None:
    """List the team's plans."""
    settings = _settings(ctx)
    starts = _date(starts_from, "--from") if starts_from is not None else None
    run_command(lambda: _commands.plans_list(settings, title=title, starts_from=starts, limit=limit))


@plans.command("create", epilog=_EPILOG)
@click.option("--title", required=True, help="1 to 255 characters.")
@click.option("--starts", required=True, metavar="DATE", help="The plan's day (YYYY-MM-DD).")
@click.option(
    "--driver", "drivers", multiple=True, metavar="DRIVER", help="drivers/<id> or <id>; repeatable."
)
@click.option("--depot", metavar="DEPOT", help="depots/<id> or <id> (default: the team's main depot).")
@_shared_options
@click.pass_context
def plans_create(
    ctx: click.Context, title: str, starts: str, drivers: Sequence[str], depot: str | None
) -> None:
    """Create a plan."""
    settings = _settings(ctx)
    day = _date(starts, "--starts")
    run_command(
        lambda: _commands.plans_create(settings, title=title, starts=day, drivers=list(drivers), depot=depot)
    )


@plans.command("get", epilog=_EPILOG)
@click.argument("plan")
@_shared_options
@click.pass_context
def plans_get(ctx: click.Context, plan: str) -> None:
    """Show PLAN (plans/<id> or <id>): title, day, depot, drivers, optimization, routes."""
    settings = _settings(ctx)
    run_command(lambda: _commands.plans_get(settings, plan=plan))


def _interactive() -> bool:
    """Whether a question can be asked (standard input and error are terminals)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


@plans.command("delete", epilog=_EPILOG)
@click.argument("plan")
@click.option(
    "--yes", "-y", is_flag=True, help="Do not ask for confirmation (needed when not on a terminal)."
)
@_shared_options
@click.pass_context
def plans_delete(ctx: click.Context, plan: str, yes: bool) -> None:
    """Delete PLAN and its stops, after asking (prints the deleted plan's id on stdout).

    Without a terminal to ask on, --yes is required (exit code 2 otherwise).
    """
    settings = _settings(ctx)
    if not yes:
        if not _interactive():
            raise InputError(f"not deleting {plan}: pass --yes to delete without a terminal to confirm on")
        if not click.confirm(f"Delete {plan} and all its stops?", default=False, err=True):
            raise click.Abort()
    run_command(lambda: _commands.plans_delete(settings, plan=plan))


@cli.group(epilog=_EPILOG)
@_shared_options
def stops() -> None:
    """List, import and export the stops of a plan (CSV)."""


@stops.command("list", epilog=_EPILOG)
@click.argument("plan")
@click.option("--limit", type=click.IntRange(min=1), help="Stop after this many stops.")
@_shared_options
@click.pass_context
def stops_list(ctx: click.Context, plan: str, limit: int | None) -> None:
    """List the stops of PLAN: id, external id, recipient, address, time window, route."""
    settings = _settings(ctx)
    run_command(lambda: _commands.stops_list(settings, plan=plan, limit=limit))


@stops.command("export", epilog=_EPILOG)
@click.argument("plan")
@click.argument("csv_file", metavar="CSV", type=click.Path(dir_okay=False, writable=True, path_type=Path))
@_shared_options
@click.pass_context
def stops_export(ctx: click.Context, plan: str, csv_file: Path) -> None:
    """Write the stops of PLAN to CSV, in columns 'stops import' reads back as they are.

    \b
    Columns: external_id, recipient_name, recipient_email, recipient_phone,
    address_line_one, address_line_two, latitude, longitude, earliest, latest
    (HH:MM), duration (seconds), notes, package_count, barcodes and products
    (joined with ';'), seller_order_id, seller_name, activity,
    optimization_order, weight, weight_unit, payment_amount, payment_currency,
    client_id. The service gives an address back as its two lines and its
    geocoded point (city, state, zip and country are not returned apart), so
    the coordinates place a re-imported stop where it was. Allowed drivers and
    route assignments are not exported.
    """
    settings = _settings(ctx)
    run_command(lambda: _commands.stops_export(settings, plan=plan, csv_path=csv_file))


@stops.command("import", epilog=_EPILOG)
@click.argument("plan")
@click.argument("csv_file", metavar="CSV", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--map-column",
    "map_columns",
    multiple=True,
    metavar="FIELD=HEADER",
    help="Read FIELD from the column HEADER (e.g. external_id='Order ref'); repeatable.",
)
@click.option(
    "--failures",
    "failures_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the rows that failed here: the input's columns plus 'error'; it can be imported again.",
)
@click.option("--dry-run", is_flag=True, help="Check every row and report the bad ones; send nothing.")
@click.option(
    "--skip-existing",
    is_flag=True,
    help="Read the plan's external ids first and send only the rows not there yet (resume an import).",
)
@click.option(
    "--allow-duplicate-external-ids",
    is_flag=True,
    help="Accept rows that repeat an external_id (they are then never matched by it); refused by default.",
)
@click.option(
    "--dedupe/--no-dedupe",
    default=True,
    show_default=True,
    help="Delete a second stop with the same external_id found after a late commit of the service.",
)
@click.option(
    "--deadline",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Stop sending after SECONDS; rows not sent are reported and written with --failures.",
)
@click.option(
    "--progress",
    type=click.Choice(["auto", "bar", "lines", "json", "none"]),
    default="auto",
    show_default=True,
    help="auto: a bar on a terminal, else a line on stderr every few seconds (none with --json); "
    "json: NDJSON progress events on stderr.",
)
@click.option(
    "--live",
    is_flag=True,
    help="PLAN is already optimized: import through its editing session (stops:liveImport), "
    "then re-optimize and redistribute it.",
)
@_shared_options
@click.pass_context
def stops_import(
    ctx: click.Context,
    plan: str,
    csv_file: Path,
    map_columns: Sequence[str],
    failures_path: Path | None,
    dry_run: bool,
    skip_existing: bool,
    allow_duplicate_external_ids: bool,
    dedupe: bool,
    deadline: float | None,
    progress: str,
    live: bool,
) -> None:
    """Import the stops of a CSV file into PLAN, 100 per request, at the contract's pace.

    \b
    Columns are found by their header (case, spaces and '_' do not matter):
      address / address_line_one / line1 / street, address_line_two / line2,
      city, state, zip / postcode, country, lat / latitude, lng / lon / longitude,
      recipient_name / name, recipient_email / email, recipient_phone / phone,
      external_id, earliest and latest (HH:MM), duration (seconds, or 5m, 1h),
      notes, package_count, barcodes and products (split on ';' or ','),
      seller_order_id / order_id, activity, optimization_order, allowed_drivers.
    An 'error' column (from a failure report) is ignored.

    \b
    A row the service refuses costs only itself (the rest of its batch is sent
    again). Two rows with the same external_id are refused before anything is
    sent. Ctrl-C stops taking new batches and waits for those in flight (a
    second Ctrl-C abandons them), prints the summary, writes the rows not
    imported (to --failures, or CSV.remaining.csv) and exits 130; import that
    file, or the same file with --skip-existing, to resume.
    """
    settings = _settings(ctx)
    run_command(
        lambda: _commands.stops_import(
            settings,
            plan=plan,
            csv_path=csv_file,
            map_columns=list(map_columns),
            failures_path=failures_path,
            dry_run=dry_run,
            skip_existing=skip_existing,
            allow_duplicate_external_ids=allow_duplicate_external_ids,
            dedupe=dedupe,
            deadline=deadline,
            progress=progress,
            live=live,
        )
    )


@stops.command("sample", epilog=_EPILOG)
@click.option("--count", type=click.IntRange(1, 100_000), default=50, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write here instead of stdout.",
)
def stops_sample(count: int, seed: int, output: Path | None) -> None:
    """Write a CSV file of realistic stops around the demo depot, to try 'stops import' with."""
    rows = [fields_as_csv_row(fields) for fields in generate_stop_fields(count, seed=seed)]
    header: list[str] = []
    for row in rows:
        header.extend(name for name in row if name not in header)
    stream = output.open("w", encoding="utf-8", newline="") if output is not None else sys.stdout
    try:
        writer = csv.DictWriter(stream, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    finally:
        if output is not None:
            stream.close()


@cli.command(epilog=_EPILOG)
@click.argument("plan")
@click.option(
    "--wait",
    is_flag=True,
    help="Poll the optimization until it is done. Stdout is still the operation id alone (printed "
    "as soon as it starts, so also when the wait fails or times out); the outcome goes to stderr "
    "and the exit code says it: 0 optimized, 1 failed, canceled or timed out.",
)
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), help="Give up waiting after SECONDS.")
@_shared_options
@click.pass_context
def optimize(ctx: click.Context, plan: str, wait: bool, timeout: float | None) -> None:
    """Start the optimization of PLAN (3 per minute); print its operation id alone on stdout.

    \b
    For scripts:
      OP=$(route-planning optimize plans/ABC)
      route-planning operations wait "$OP"
    The human description goes to stderr; --json prints the operation as JSON.
    """
    settings = _settings(ctx)
    run_command(lambda: _commands.optimize(settings, plan=plan, wait=wait, max_wait=timeout))


@cli.command(epilog=_EPILOG)
@click.argument("plan")
@_shared_options
@click.pass_context
def distribute(ctx: click.Context, plan: str) -> None:
    """Send the routes of the optimized PLAN to its drivers."""
    settings = _settings(ctx)
    run_command(lambda: _commands.distribute(settings, plan=plan))


@cli.group(epilog=_EPILOG)
@_shared_options
def operations() -> None:
    """Follow optimization operations."""


@operations.command("wait", epilog=_EPILOG)
@click.argument("operation_ids", metavar="OPERATION...", nargs=-1, required=True)
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), help="Give up after SECONDS.")
@_shared_options
@click.pass_context
def operations_wait(ctx: click.Context, operation_ids: Sequence[str], timeout: float | None) -> None:
    """Wait until every OPERATION is done; fail when one of them failed."""
    settings = _settings(ctx)
    run_command(
        lambda: _commands.operations_wait(settings, operation_ids=list(operation_ids), max_wait=timeout)
    )


cli.add_command(webhooks)


@operations.command("cancel", epilog=_EPILOG)
@click.argument("operation_ids", metavar="OPERATION...", nargs=-1, required=True)
@_shared_options
@click.pass_context
def operations_cancel(ctx: click.Context, operation_ids: Sequence[str]) -> None:
    """Cancel each OPERATION that is not done yet (one already done is reported, not an error)."""
    settings = _settings(ctx)
    run_command(lambda: _drivers.operations_cancel(settings, operation_ids=list(operation_ids)))


@cli.group(epilog=_EPILOG)
@_shared_options
def drivers() -> None:
    """List the team's drivers and import drivers from CSV files.

    The service has no call that pauses or resumes a driver, so neither has this tool.
    """


@drivers.command("list", epilog=_EPILOG)
@click.option("--active/--paused", "active", default=None, help="Only active, or only paused, drivers.")
@click.option("--limit", type=click.IntRange(min=1), help="Stop after this many drivers.")
@_shared_options
@click.pass_context
def drivers_list(ctx: click.Context, active: bool | None, limit: int | None) -> None:
    """List the team's drivers."""
    settings = _settings(ctx)
    run_command(lambda: _drivers.drivers_list(settings, active=active, limit=limit))


@drivers.command("import", epilog=_EPILOG)
@click.argument("csv_file", metavar="CSV", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--failures",
    "failures_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the rows that failed here: the input's columns plus 'error'.",
)
@_shared_options
@click.pass_context
def drivers_import(ctx: click.Context, csv_file: Path, failures_path: Path | None) -> None:
    """Import the drivers of a CSV file, 50 per request (2 requests per minute), each once.

    \b
    Columns are found by their header (case, spaces, '-' and '_' do not matter):
      name, display_name, email, phone (email or phone is required: it
      identifies the driver, so importing the same file again adds nobody twice),
      depots (split on ';' or ','), start_time and end_time (HH:MM), max_stops,
      driving_speed and delivery_speed (slower, average, faster), vehicle_type,
      start_address and end_address (one address line).
    """
    settings = _settings(ctx)
    run_command(lambda: _drivers.drivers_import(settings, csv_path=csv_file, failures_path=failures_path))


@cli.group(epilog=_EPILOG)
@_shared_options
def routes() -> None:
    """Read the routes of optimized plans."""


@routes.command("get", epilog=_EPILOG)
@click.argument("route_ids", metavar="ROUTE...", nargs=-1, required=True)
@_shared_options
@click.pass_context
def routes_get(ctx: click.Context, route_ids: Sequence[str]) -> None:
    """Show each ROUTE (routes/<id> or <id>: a plan's 'routes' lists them)."""
    settings = _settings(ctx)
    run_command(lambda: _drivers.routes_get(settings, route_ids=list(route_ids)))


@cli.command("emulator", epilog=_EPILOG)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=0, help="TCP port on 127.0.0.1 (default: a free one)."
)
@click.option("--http", is_flag=True, help="Serve plain HTTP (no certificate to trust) instead of HTTPS.")
@click.option(
    "--speedup",
    type=click.FloatRange(min=0, min_open=True),
    default=1.0,
    show_default=True,
    help="Run the emulator's limits and delays this many times faster (the exported limits match).",
)
@click.option(
    "--limits",
    "server_limits",
    metavar="public-docs|contract|FILE",
    help="The limits the emulator enforces (default: the contract's); same format as the shared --limits.",
)
@click.option("--no-limits", is_flag=True, help="Enforce no rate limits at all.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of ids and fault draws.")
@click.option(
    "--ca-file",
    "ca_output",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the CA certificate here (default: a file in a temporary directory removed on exit).",
)
@click.option(
    "--print-env",
    is_flag=True,
    help='Close stdout after the export lines, for eval "$(route-planning emulator --print-env &)".',
)
def emulator_command(
    port: int,
    http: bool,
    speedup: float,
    server_limits: str | None,
    no_limits: bool,
    seed: int,
    ca_output: Path | None,
    print_env: bool,
) -> None:
    """Run a lasting, in-memory emulator until Ctrl-C or SIGTERM, for the other commands to use.

    \b
    Prints on stdout the lines that point the other commands at it:
      export ROUTE_PLANNING_BASE_URL=https://127.0.0.1:PORT/public/v0.2b
      export ROUTE_PLANNING_API_KEY=...
      export ROUTE_PLANNING_CA_FILE=...   (unset with --http)
      export ROUTE_PLANNING_LIMITS=...    (its limits, sped up as much)
    and on stderr its driver ids (drivers/driver-ana, ...) and depot ids.

    \b
    In the same shell:   eval "$(route-planning emulator --print-env &)"
    or in a second terminal: route-planning emulator, then paste the lines.
    """
    if no_limits and server_limits is not None:
        raise click.UsageError("give --limits or --no-limits, not both")
    try:
        from route_planning_async import RateLimits

        limits = (
            RateLimits.unlimited() if no_limits else parse_limits(server_limits) if server_limits else None
        )
    except InputError as exc:
        raise click.BadParameter(exc.format_message(), param_hint="--limits") from None
    output = Output()
    run_command(
        lambda: serve_emulator(
            output,
            port=port,
            http=http,
            speedup=speedup,
            limits=limits,
            seed=seed,
            ca_file=ca_output,
            print_env=print_env,
        )
    )
