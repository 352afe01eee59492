"""The daily digest: one mail per member and day (UTC) listing, per project where they chose the digest,
how many feedback items and contact messages came in that day.

Every server process looks for due digests every few minutes; a member's digest of a day is claimed by
inserting its row (unique per member and day) in the transaction that queues the mail, so across
processes and machines it goes out once. A member with nothing new that day gets no mail."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta
from uuid import UUID

from sqlalchemy import func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from uuid_utils.compat import uuid7

from app.config import Settings
from app.db.models import (
    ContactMessage,
    FeedbackItem,
    Frequency,
    Membership,
    NotificationDigest,
    NotificationSetting,
    Project,
    User,
)
from app.db.transactions import unit_of_work
from app.mail import Mail, queue_mail
from app.notifications.unsubscribe import ALL_PROJECTS, unsubscribe_url

logger = logging.getLogger("hearken.notifications")
LOOK_EVERY_SECONDS = 300
DAILY = Frequency.DAILY.value
LINES = {
    "en": "{project}: {feedback} new feedback, {contact} contact messages",
    "de": "{project}: {feedback} neues Feedback, {contact} Kontaktnachrichten",
    "sv": "{project}: {feedback} ny feedback, {contact} kontaktmeddelanden",
}


async def send_digests(session_maker: async_sessionmaker[AsyncSession], settings: Settings, day: date) -> int:
    """Queue the digests of `day` not sent yet; returns how many this call queued."""
    async with session_maker() as session:
        users = list(
            await session.scalars(
                select(NotificationSetting.user_id)
                .where(or_(NotificationSetting.feedback == DAILY, NotificationSetting.contact == DAILY))
                .distinct()
            )
        )
    queued = 0
    for user_id in users:
        async with unit_of_work(session_maker) as session:  # the day's claim with its mail, or neither
            if not await _claim(session, user_id, day):
                continue
            mail = await _digest(session, settings, user_id, day)
            if mail is not None:
                queue_mail(session, settings.secret_key, mail)
                queued += 1
    return queued


async def _claim(session: AsyncSession, user_id: UUID, day: date) -> bool:
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    table = NotificationDigest.__table__
    now = datetime.now(UTC)
    statement = (
        dialect.insert(table)
        .values(id=uuid7(), user_id=user_id, day=day, created_at=now, updated_at=now)
        .on_conflict_do_nothing(index_elements=[table.c.user_id, table.c.day])
        .returning(table.c.id)
    )
    return (await session.execute(statement)).first() is not None


async def _digest(session: AsyncSession, settings: Settings, user_id: UUID, day: date) -> Mail | None:
    user = await session.get(User, user_id)
    if user is None or (user.email_verified_at is None and settings.sends_mail):
        return None  # gone, or an address nobody has shown is theirs
    start = datetime.combine(day, time(), UTC)
    end = start + timedelta(days=1)
    rows = await session.execute(
        select(Project, NotificationSetting)
        .join(NotificationSetting, NotificationSetting.project_id == Project.id)
        .join(Membership, (Membership.org_id == Project.org_id) & (Membership.user_id == user_id))
        .where(NotificationSetting.user_id == user_id)
        .order_by(Project.name, Project.id)
    )
    lines = []
    for project, setting in rows.tuples():
        feedback = contact = 0
        if setting.feedback == DAILY:
            feedback = await _count(session, FeedbackItem, project.id, start, end)
        if setting.contact == DAILY:
            contact = await _count(session, ContactMessage, project.id, start, end)
        if feedback or contact:
            lines.append(
                LINES.get(user.language, LINES["en"]).format(
                    project=project.name, feedback=feedback, contact=contact
                )
            )
    if not lines:
        return None
    return Mail(
        recipient=user.email,
        language=user.language,
        kind="digest",
        url=f"{settings.base_url}/projects",
        values={"day": day.isoformat()},
        items=tuple(lines),
        unsubscribe_url=unsubscribe_url(settings, user.id, ALL_PROJECTS, "digest"),
    )


async def _count(
    session: AsyncSession,
    model: type[FeedbackItem] | type[ContactMessage],
    project_id: UUID,
    start: datetime,
    end: datetime,
) -> int:
    found = await session.scalar(
        select(func.count())
        .select_from(model)
        .where(
            model.project_id == project_id,
            model.created_at >= start,
            model.created_at < end,
            model.spam.is_(False),  # spam is in no count
        )
    )
    return int(found or 0)
