"""Confirming a reporter's address before it gets any "resolved" mail: anyone can type anyone's address
into a widget, so the first mail to it only asks its owner to confirm, and says nothing a visitor wrote
(no message, no name: the project's name, made plain, and the link). An address confirmed for a project
counts for every later item of that project that names it; withdrawing it (the unsubscribe link of a
"resolved" mail) or erasing it means confirming again.

At most one confirmation mail goes to an address a day, across every project, and a project sends at
most `PROJECT_CONFIRMATIONS_PER_HOUR`; a submission over either budget is stored all the same, and its
reporter is mailed only if the address is confirmed by an earlier link. The link is signed, not stored,
and works for 7 days; opening it shows a button, and only the POST of that button confirms, so a mail
scanner that follows links confirms nothing."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.models import FeedbackItem, Project, ReporterAddress
from app.errors import NotFound
from app.mail import Mail, queue_mail
from app.mail.compose import one_line
from app.notifications.signed_links import is_signed, signature
from app.timestamps import utc_now

PURPOSE = b"reporter-confirmation"
LINK_LIFETIME = timedelta(days=7)
ADDRESS_INTERVAL = timedelta(days=1)
"""At most one confirmation mail to an address in this time, across every project."""
PROJECT_CONFIRMATIONS_PER_HOUR = 20
PROJECT_NAME_CHARACTERS = 60
UNKNOWN_LINK = "this confirmation link is unknown, expired or withdrawn"


async def ask_to_confirm(session: AsyncSession, settings: Settings, item: FeedbackItem) -> None:
    """The item's reporter asked to hear of its resolution: unless the address is confirmed for the
    project already, queue the one confirmation mail, within the budgets, in the caller's transaction."""
    if not item.notify_email:
        return
    address = item.notify_email.lower()
    now = utc_now()
    row = await _locked_row(session, item.project_id, address, now)
    row.updated_at = now  # in use: retention keeps it as long as the items naming it
    if row.confirmed_at is not None or await _over_budget(session, item.project_id, address, now):
        await session.flush()
        return
    row.asked_at = now
    await session.flush()
    expires = int(time.time() + LINK_LIFETIME.total_seconds())
    queue_mail(
        session,
        settings.secret_key,
        Mail(
            recipient=item.notify_email,
            language="en",
            kind="confirm_reporter",
            url=confirmation_url(settings, row.id, expires),
            values={"project": await project_name_of(session, row)},
            about=item.id,
        ),
    )


async def _locked_row(
    session: AsyncSession, project_id: UUID, address: str, now: datetime
) -> ReporterAddress:
    """The project's row of the address, made if missing and locked: of two submissions naming it at
    once, the second waits and finds the first's confirmation mail."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    table = ReporterAddress.__table__
    await session.execute(
        dialect.insert(table)
        .values(id=uuid7(), project_id=project_id, address=address, created_at=now, updated_at=now)
        .on_conflict_do_nothing(index_elements=[table.c.project_id, table.c.address])
    )
    rows = await session.scalars(
        select(ReporterAddress)
        .where(ReporterAddress.project_id == project_id, ReporterAddress.address == address)
        .with_for_update()
    )
    return rows.one()


async def _over_budget(session: AsyncSession, project_id: UUID, address: str, now: datetime) -> bool:
    to_address = await session.scalar(
        select(func.count())
        .select_from(ReporterAddress)
        .where(ReporterAddress.address == address, ReporterAddress.asked_at > now - ADDRESS_INTERVAL)
    )
    if to_address:
        return True
    from_project = await session.scalar(
        select(func.count())
        .select_from(ReporterAddress)
        .where(ReporterAddress.project_id == project_id, ReporterAddress.asked_at > now - timedelta(hours=1))
    )
    return bool(from_project and from_project >= PROJECT_CONFIRMATIONS_PER_HOUR)


def plain_project_name(name: str) -> str:
    """The project's name as the confirmation mail shows it: one line, no encoded word, short."""
    plain = one_line(name)
    return plain if len(plain) <= PROJECT_NAME_CHARACTERS else plain[: PROJECT_NAME_CHARACTERS - 1] + "…"


def confirmation_url(settings: Settings, row_id: UUID, expires: int) -> str:
    payload = f"{row_id.hex}.{expires}"
    return f"{settings.base_url}/notifications/confirm/{payload}.{signature(settings, PURPOSE, payload)}"


async def address_of_link(session: AsyncSession, settings: Settings, token: str) -> ReporterAddress:
    """The address a confirmation link is for, with its project; 404 for a link that is malformed,
    expired, or whose address was withdrawn or erased since."""
    try:
        row_part, expires_part, given = token.split(".")
        row_id, expires = UUID(hex=row_part), int(expires_part)
    except ValueError:
        raise NotFound(UNKNOWN_LINK) from None
    if expires < time.time() or not is_signed(settings, PURPOSE, f"{row_part}.{expires_part}", given):
        raise NotFound(UNKNOWN_LINK)
    row = await session.get(ReporterAddress, row_id)
    if row is None:
        raise NotFound(UNKNOWN_LINK)
    return row


async def project_name_of(session: AsyncSession, row: ReporterAddress) -> str:
    name = await session.scalar(select(Project.name).where(Project.id == row.project_id))
    return plain_project_name(name or "")


def confirm(row: ReporterAddress) -> None:
    """The address is its owner's: "resolved" mail may go to it from this project."""
    if row.confirmed_at is None:
        row.confirmed_at = utc_now()


async def confirmed_addresses(session: AsyncSession, project_id: UUID, addresses: set[str]) -> set[str]:
    """Which of these addresses (in lower case) are confirmed for the project."""
    if not addresses:
        return set()
    rows = await session.scalars(
        select(ReporterAddress.address).where(
            ReporterAddress.project_id == project_id,
            ReporterAddress.address.in_(addresses),
            ReporterAddress.confirmed_at.is_not(None),
        )
    )
    return set(rows)
