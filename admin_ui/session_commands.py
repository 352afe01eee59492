"""`hearken sessions clear`: sign everyone out of the console (after a leaked cookie, say) by deleting every
stored console session. It replaces Litestar's own `sessions` commands, which look for session middleware
on the whole application and so never find the console router's."""

from __future__ import annotations

import anyio
import click
import msgspec
from litestar import Litestar
from litestar.cli._utils import LitestarGroup

from admin_ui.sessions import SESSION_STORE


@click.group(cls=LitestarGroup, name="sessions", help="Sign people out of the console.")
def sessions_group() -> None: ...


@sessions_group.command(name="clear", help="Delete every console session: everyone signs in again.")  # type: ignore[misc]
@click.option("--yes", is_flag=True, help="Do not ask first.")
def clear_sessions(app: Litestar, yes: bool) -> None:
    if not yes and not click.confirm("Sign everyone out of the console?"):
        raise click.Abort
    anyio.run(app.stores.get(SESSION_STORE).delete_all)
    click.echo(msgspec.json.encode({"signed_out": "everyone"}).decode())
