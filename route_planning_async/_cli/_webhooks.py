"""``route-planning webhooks``: receive the service's events, or check a saved one.

``listen`` serves :func:`route_planning_async.webhooks.webhook_handler` and
prints each verified event (``--json``: one JSON object per line); ``verify``
checks a saved body against its signature header. The secret is read from a
file, never from the command line.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import click

from route_planning_async._cli._errors import ExitCode, InputError, Interrupted
from route_planning_async._cli._options import EXISTING_FILE, FILE, settings_of
from route_planning_async._cli._run import jsonable, on_interrupt, run_command
from route_planning_async._cli._stdio import describe, read_input, read_text
from route_planning_async.webhooks import (
    LEGACY_SIGNATURE_HEADER,
    SIGNATURE_HEADER,
    InvalidEventError,
    WebhookEvent,
    parse_event,
    verify_signature,
    webhook_handler,
)

__all__ = ["event_line", "listen", "read_secret", "verify", "webhooks"]


def read_secret(path: Path) -> str:
    """The webhook secret in ``path`` (``-``: stdin; surrounding whitespace dropped)."""
    shown = describe(path, reading=True)
    try:
        secret = read_text(path).strip()
    except OSError as exc:
        raise InputError(f"cannot read --secret-file {shown}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"--secret-file {shown} is not UTF-8 text") from None
    if not secret:
        raise InputError(f"--secret-file {shown} is empty")
    return secret


def event_line(event: WebhookEvent, *, as_json: bool) -> str:
    """One event on one line: readable, or JSON (the models' snake_case attribute names)."""
    if as_json:
        return json.dumps(jsonable(event), ensure_ascii=False, default=str)
    data = event.data
    subject = getattr(data, "id", None) or ("-" if data is None else "(data)")
    info = getattr(data, "delivery_info", None)
    state = f"  {info.state}" if info is not None and info.attempted else ""
    return f"{event.created.isoformat()}  {event.type}  {subject}{state}"


async def listen(
    *,
    host: str,
    port: int,
    path: str,
    secret: str,
    as_json: bool,
    count: int | None = None,
    echo: Callable[[str], object] = click.echo,
    started: Callable[[str], object] | None = None,
) -> int:
    """Serve the webhook handler on ``host:port`` at ``path`` and print each verified event.

    Runs until ``count`` events were printed (forever without one); ``started`` is told
    the URL once the socket is bound.
    """
    from aiohttp import web

    done = asyncio.Event()
    seen = 0

    async def on_event(event: WebhookEvent) -> None:
        nonlocal seen
        echo(event_line(event, as_json=as_json))
        seen += 1
        if count is not None and seen >= count:
            done.set()

    app = web.Application()
    app.router.add_post(path, webhook_handler(secret, on_event))
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound_host, bound_port = runner.addresses[0][:2]
        url = f"http://{f'[{bound_host}]' if ':' in bound_host else bound_host}:{bound_port}{path}"
        if started is not None:
            started(url)
        with on_interrupt(done.set):  # Ctrl-C is how it is stopped: exit code 0
            await done.wait()
    finally:
        await runner.cleanup()
    return ExitCode.OK


def verify(body: bytes, header: str, secret: str, *, as_json: bool) -> str:
    """The line to print for a saved body whose signature matches; :class:`InputError` otherwise.

    ``header`` is the signature, or the whole header line as saved
    (``spoke-signature: <signature>``).
    """
    name, sep, value = header.partition(":")
    if sep and name.strip().lower() in (SIGNATURE_HEADER, LEGACY_SIGNATURE_HEADER):
        header = value
    if not verify_signature(body, header.strip(), secret):
        raise InputError("the signature does not match the body (wrong secret, or the body was changed)")
    try:
        event = parse_event(body)
    except InvalidEventError as exc:
        raise InputError(f"the signature matches, but {exc}") from None
    return event_line(event, as_json=as_json)


# Commands ---------------------------------------------------------------------------

_SECRET_FILE = click.option(
    "--secret-file",
    required=True,
    type=FILE,
    help="File holding the team's webhook secret ('-': stdin).",
)
_JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON, one object per line.")


def _json_wanted(ctx: click.Context, flag: bool) -> bool:
    return flag or settings_of(ctx).json


def _url_path(value: str) -> str:
    """A path the server can route: it starts with ``/`` (a usage error says so otherwise)."""
    from aiohttp import web

    async def handler(request: web.Request) -> web.StreamResponse:  # pragma: no cover - never called
        return web.Response()

    if not value.startswith("/"):
        raise click.BadParameter(f"{value!r}: a URL path starts with '/' (e.g. '/{value}')")
    try:
        web.UrlDispatcher().add_post(value, handler)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r}: not a URL path the server can route ({exc})") from None
    return value


@click.group()
def webhooks() -> None:
    """Receive the service's webhook events, or check a saved one."""


@webhooks.command("listen")
@click.option("--port", type=click.IntRange(0, 65535), required=True, help="TCP port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option(
    "--path",
    default="/",
    show_default=True,
    callback=lambda ctx, param, value: _url_path(value),
    help="The URL path events are POSTed to, starting with '/'.",
)
@click.option("--count", type=click.IntRange(min=1), help="Exit after this many events.")
@_SECRET_FILE
@_JSON
@click.pass_context
def listen_command(
    ctx: click.Context, port: int, host: str, path: str, count: int | None, secret_file: Path, as_json: bool
) -> None:
    """Receive events and print each one whose signature is valid (others are answered 401)."""
    secret = read_secret(secret_file)
    wanted = _json_wanted(ctx, as_json)

    def started(url: str) -> None:
        click.echo(f"Listening on {url} (Ctrl-C to stop)", err=True)

    try:
        run_command(
            lambda: listen(
                host=host, port=port, path=path, secret=secret, as_json=wanted, count=count, started=started
            )
        )
    except Interrupted:  # where the loop takes no signal handler (Windows)
        raise SystemExit(ExitCode.OK) from None


@webhooks.command("verify")
@click.argument("body_file", metavar="BODY", type=EXISTING_FILE)
@click.option(
    "--signature",
    required=True,
    help=f"The {SIGNATURE_HEADER} header's value (or the whole header line).",
)
@_SECRET_FILE
@_JSON
@click.pass_context
def verify_command(
    ctx: click.Context, body_file: Path, signature: str, secret_file: Path, as_json: bool
) -> None:
    """Check that BODY (the raw request body, saved as received; '-': stdin) carries a valid signature."""
    line = verify(
        read_input(body_file), signature, read_secret(secret_file), as_json=_json_wanted(ctx, as_json)
    )
    click.echo(line)
