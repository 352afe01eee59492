"""The `hearken` command: the Litestar CLI with the app preloaded, plus operator commands.

Each operator command prints one JSON object on stdout; on bad input it exits 1 with one line on stderr.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import anyio
import click
import msgspec
from litestar.plugins import CLIPluginProtocol
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import ApiError

T = TypeVar("T")

HELP = """Hearken: feedback, ratings and contact messages from your docs and products, read in the console
and through the API.

These commands set up organizations, owners, projects and access tokens, upgrade the database, sign
people out of the console and serve the application. Settings come from the HEARKEN_* environment
variables (the README's Configuration); orgs, tokens, projects, insights and sessions print one JSON
object."""
COMMAND_HELP = {
    "run": "Serve Hearken over HTTP on HEARKEN_HOST:HEARKEN_PORT (--wc N: N worker processes).",
    "database": "Upgrade the database to this version (database upgrade), and Alembic's other tasks.",
    "info": "Show the application and the Litestar and Python versions it runs on.",
    "routes": "List every route with its methods.",
    "schema": "Write the OpenAPI document (schema openapi --output FILE).",
    "version": "Show the version of Litestar that Hearken runs on.",
}
"""Hearken's words for the commands Litestar and advanced-alchemy bring, whose own speak of discovering
some Litestar application."""


def main() -> None:
    from app.config import get_settings

    try:
        settings = get_settings()
    except (RuntimeError, ValueError) as exc:
        click.echo(f"hearken: {exc}", err=True)
        sys.exit(1)
    os.environ.setdefault("LITESTAR_APP", "app.main:served_app")
    os.environ.setdefault("LITESTAR_HOST", settings.host)
    os.environ.setdefault("LITESTAR_PORT", str(settings.port))
    # uvicorn would rewrite the client address from X-Forwarded-For for 127.0.0.1 peers by itself;
    # HEARKEN_TRUSTED_PROXIES alone decides whom to believe.
    os.environ.setdefault("FORWARDED_ALLOW_IPS", "")
    if sys.argv[1:2] and sys.argv[1] in OPERATOR_GROUPS:
        # These need the database, not the web application: building it (and importing its every
        # route) would triple the command's time.
        click.Group(commands=OPERATOR_GROUPS)(prog_name="hearken")
        return
    if sys.argv[1:2] == ["run"]:
        signal.signal(signal.SIGTERM, _stopped)
        _keep_idle_connections(KEEP_ALIVE_SECONDS)
    from litestar.cli.main import litestar_group

    _in_hearkens_words(litestar_group)
    litestar_group(prog_name="hearken")


def _in_hearkens_words(group: click.Group) -> None:
    from advanced_alchemy.extensions.litestar.cli import database_group

    group.help = HELP
    for option in group.params:  # the application is Hearken's, never one to discover
        if isinstance(option, click.Option) and option.name in ("app_path", "app_dir"):
            option.hidden = True
    commands = {**group.commands, "database": database_group}
    for name, text in COMMAND_HELP.items():
        commands[name].help = text
        commands[name].short_help = None


KEEP_ALIVE_SECONDS = 75
"""How long a served connection may wait idle for its next request: longer than a load balancer keeps an
idle connection to a process (HAProxy closes half of its idle ones every 5 s), so that the balancer closes
it, never the process. uvicorn's own 5 s closed connections the balancer had just sent a request on: the
balancer then closes the client's connection unanswered (a POST is never sent twice), which an HTTP client
that does not retry reports as a failed request."""


def _keep_idle_connections(default_seconds: int) -> None:
    """uvicorn's keep-alive for `run` (UVICORN_TIMEOUT_KEEP_ALIVE when set): Litestar's command calls
    `uvicorn.run` with its own arguments in this process (one worker), or starts uvicorn's command, which
    reads UVICORN_* (`--wc N`)."""
    import uvicorn

    seconds = int(os.environ.setdefault("UVICORN_TIMEOUT_KEEP_ALIVE", str(default_seconds)))
    uvicorn.run = functools.partial(uvicorn.run, timeout_keep_alive=seconds)


def _stopped(_signal: int, _frame: object) -> None:
    """uvicorn drains on SIGTERM and then raises the signal again; a supervisor would read the death by
    signal as a crash. Handled here, after the drain, it is a clean exit. With several workers (`--wc`)
    or `--reload`, uvicorn runs in a child process instead: the signal is passed on to it, it drains its
    workers, and this process ends when it does."""
    children = _children()
    if not children:
        sys.exit(0)
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


def _children() -> list[int]:
    found: list[int] = []
    for listing in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found.extend(int(pid) for pid in listing.read_text().split())
    return found


def _run(work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run one unit of work in a session against the configured database; errors end the command."""
    from app.config import get_settings
    from app.db.config import build_db_config
    from app.db.transactions import unit_of_work

    async def _go() -> T:
        config = build_db_config(get_settings())
        try:
            async with unit_of_work(config.create_session_maker()) as session:
                return await work(session)
        finally:
            await config.get_engine().dispose()

    try:
        return anyio.run(_go)
    except ApiError as exc:
        click.echo(f"hearken: {exc.details}", err=True)
        sys.exit(1)
    except DBAPIError as exc:
        click.echo(f"hearken: {_database_trouble(exc)}", err=True)
        sys.exit(1)


NOT_UPGRADED = ("42P01", "42703")
"""PostgreSQL's undefined table and undefined column: the schema is older than this code."""


def _database_trouble(exc: DBAPIError) -> str:
    """One line an operator can act on, for the two ways a command meets a database it cannot use: one
    never upgraded to this version (a new deployment's first command, say), and one it cannot reach.
    Anything else is a fault of Hearken's and keeps its traceback."""
    reason = (str(exc.orig).strip().splitlines() or [type(exc.orig).__name__])[0]
    sqlite_says_missing = reason.startswith(("no such table", "no such column"))
    if getattr(exc.orig, "sqlstate", None) in NOT_UPGRADED or sqlite_says_missing:
        return f"the database is not at this version of Hearken ({reason}): run `hearken database upgrade`"
    if isinstance(exc, OperationalError):
        return f"cannot use the database: {reason}"
    raise exc


def _print(payload: Any) -> None:
    click.echo(msgspec.json.encode(payload).decode())


def _uuid(value: str, name: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        click.echo(f"hearken: {name} must be a UUID, got {value!r}", err=True)
        sys.exit(1)


async def _org_scope(session: AsyncSession, org_id: UUID) -> Any:
    from app.db.models import Organization
    from tenants.scope import operator_scope

    if await session.get(Organization, org_id) is None:
        raise ApiError(f"no organization with id {org_id}")
    return operator_scope(org_id)


@click.group(name="orgs", help="Create organizations, each with its owner.")
def orgs_group() -> None: ...


@orgs_group.command(name="create", help="Create an organization and its owner.")
@click.option("--name", required=True)
@click.option("--owner-email", required=True)
@click.option("--owner-password", required=True)
def orgs_create(name: str, owner_email: str, owner_password: str) -> None:
    from tenants.organizations import create_organization

    async def work(session: AsyncSession) -> Any:
        org = await create_organization(
            session, name=name, owner_email=owner_email, owner_password=owner_password
        )
        return {"id": str(org.id), "name": org.name}

    _print(_run(work))


@click.group(name="tokens", help="Create and revoke an organization's access tokens for the API.")
def tokens_group() -> None: ...


@tokens_group.command(name="create", help="Create a token; its value is printed once.")
@click.option("--org", "org_id", required=True)
@click.option("--label", default=None)
@click.option("--scope", type=click.Choice(["read", "write"]), default="write", show_default=True)
def tokens_create(org_id: str, label: str | None, scope: str) -> None:
    from tenants.access_tokens import AccessTokens

    org = _uuid(org_id, "--org")

    async def work(session: AsyncSession) -> Any:
        issued = await AccessTokens(session, await _org_scope(session, org)).create(label=label, scope=scope)
        record = issued.record
        return {
            "id": str(record.id),
            "token": issued.token,
            "prefix": record.prefix,
            "label": record.label,
            "scope": record.scope,
        }

    _print(_run(work))


@tokens_group.command(name="revoke", help="Revoke a token: it stops working at once; its record is kept.")
@click.option("--id", "token_id", required=True)
def tokens_revoke(token_id: str) -> None:
    from app.db.models import AccessToken
    from tenants.access_tokens import AccessTokens

    ident = _uuid(token_id, "--id")

    async def work(session: AsyncSession) -> Any:
        record = await session.get(AccessToken, ident)
        if record is None:
            raise ApiError(f"no token with id {ident}")
        await AccessTokens(session, await _org_scope(session, record.org_id)).revoke(ident)
        return {"id": str(ident), "revoked": True}

    _print(_run(work))


@click.group(name="projects", help="Create projects with the origins their widgets may post from.")
def projects_group() -> None: ...


@projects_group.command(name="create", help="Create a project in an organization.")
@click.option("--org", "org_id", required=True)
@click.option("--name", required=True)
@click.option("--description", default="")
@click.option("--origin", "origins", multiple=True, help="An allowed origin; repeat for more.")
def projects_create(org_id: str, name: str, description: str, origins: tuple[str, ...]) -> None:
    from app.schemas.project import ProjectOut
    from app.services.projects import Projects

    org = _uuid(org_id, "--org")

    async def work(session: AsyncSession) -> Any:
        scope = await _org_scope(session, org)
        project = await Projects(session, scope).create(
            name=name, description=description, allowed_origins=list(origins)
        )
        return ProjectOut.of(project, feedback_count=0)

    _print(_run(work))


@click.group(
    name="insights", help="Embed the feedback that has no vector yet (themes, similar items, search)."
)
def insights_group() -> None: ...


@insights_group.command(
    name="backfill",
    help="Queue the embedding of every feedback item that has no vector of the configured embedder; the "
    "server processes compute them in the background (the periodic loop also does this, 1,024 at a time).",
)
def insights_backfill() -> None:
    from app.errors import Unavailable
    from app.insights.engine import insights_engine
    from app.insights.jobs import queue_backfill

    async def work(session: AsyncSession) -> Any:
        if not insights_engine().enabled:
            raise Unavailable("insights are turned off (HEARKEN_EMBEDDINGS=off)")
        total = 0
        while queued := await queue_backfill(session):
            total += queued
            await session.commit()
        return {"queued": total, "embedder": insights_engine().embedder.name}

    _print(_run(work))


OPERATOR_GROUPS: dict[str, click.Command] = {
    group.name: group for group in (orgs_group, tokens_group, projects_group, insights_group) if group.name
}
"""The commands that run without the web application."""


class HearkenCLIPlugin(CLIPluginProtocol):
    """Adds the operator commands, and those of the other ways in (`commands`, given by app/main.py)."""

    def __init__(self, *commands: click.Command) -> None:
        self.commands = commands

    def on_cli_init(self, cli: click.Group) -> None:
        for command in (*OPERATOR_GROUPS.values(), *self.commands):
            cli.add_command(command)
