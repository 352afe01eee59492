"""The `hearken` command: the Litestar CLI with the app preloaded, plus operator commands.

Each operator command prints one JSON object on stdout; on bad input it exits 1 with one line on stderr.
"""

from __future__ import annotations

import contextlib
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
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import ApiError

T = TypeVar("T")


def main() -> None:
    from app.config import get_settings

    try:
        settings = get_settings()
    except (RuntimeError, ValueError) as exc:
        click.echo(f"hearken: {exc}", err=True)
        sys.exit(1)
    os.environ.setdefault("LITESTAR_APP", "app.main:create_app")
    os.environ.setdefault("LITESTAR_HOST", settings.host)
    os.environ.setdefault("LITESTAR_PORT", str(settings.port))
    # uvicorn would rewrite the client address from X-Forwarded-For for 127.0.0.1 peers by itself;
    # HEARKEN_TRUSTED_PROXIES alone decides whom to believe.
    os.environ.setdefault("FORWARDED_ALLOW_IPS", "")
    if sys.argv[1:2] == ["run"]:
        signal.signal(signal.SIGTERM, _stopped)
    from litestar.cli.main import litestar_group

    litestar_group(prog_name="hearken")


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


def _print(payload: Any) -> None:
    click.echo(msgspec.json.encode(payload).decode())


def _uuid(value: str, name: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        click.echo(f"hearken: {name} must be a UUID, got {value!r}", err=True)
        sys.exit(1)


async def _org_scope(session: AsyncSession, org_id: UUID) -> Any:
    from tenants.models import Organization
    from tenants.scope import operator_scope

    if await session.get(Organization, org_id) is None:
        raise ApiError(f"no organization with id {org_id}")
    return operator_scope(org_id)


@click.group(name="orgs", help="Manage organizations.")
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


@click.group(name="tokens", help="Manage organization access tokens.")
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
    from tenants.access_tokens import AccessTokens
    from tenants.models import AccessToken

    ident = _uuid(token_id, "--id")

    async def work(session: AsyncSession) -> Any:
        record = await session.get(AccessToken, ident)
        if record is None:
            raise ApiError(f"no token with id {ident}")
        await AccessTokens(session, await _org_scope(session, record.org_id)).revoke(ident)
        return {"id": str(ident), "revoked": True}

    _print(_run(work))


@click.group(name="projects", help="Manage projects.")
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


class HearkenCLIPlugin(CLIPluginProtocol):
    def on_cli_init(self, cli: click.Group) -> None:
        cli.add_command(orgs_group)
        cli.add_command(tokens_group)
        cli.add_command(projects_group)
