"""One-click unsubscribe links: signed (HMAC keyed by a key derived from HEARKEN_SECRET_KEY), not stored.
A link names the member, the project and what to stop ("feedback", "contact"), or "digest": every daily
digest of the member; or, for a reporter told that their feedback was resolved ("resolved"), the item
instead of a member: it withdraws that address from every item of the project. Opening it shows a
button; a POST to it (the button, or a mail program following RFC 8058's List-Unsubscribe-Post) turns
that mail off."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import FeedbackItem, Frequency, NotificationSetting, Project, ReporterAddress
from app.errors import InvalidRequest, NotFound
from app.notifications.choices import choice_of, choose
from app.notifications.signed_links import is_signed, signature

UNKNOWN_LINK = "this unsubscribe link is not valid"
PURPOSE = b"unsubscribe"
ALL_PROJECTS = "all"


@dataclass(frozen=True)
class Unsubscribe:
    user_id: UUID
    """The member; for "resolved", the feedback item."""
    project: str
    """A project id, or "all" for the digest."""
    kind: str


def unsubscribe_url(settings: Settings, user_id: UUID, project: str, kind: str) -> str:
    payload = f"{user_id.hex}.{project.replace('-', '')}.{kind}"
    return f"{settings.base_url}/notifications/unsubscribe/{payload}.{signature(settings, PURPOSE, payload)}"


def read_link(settings: Settings, token: str) -> Unsubscribe:
    try:
        user_part, project_part, kind, given = token.split(".")
        user_id = UUID(hex=user_part)
        project = ALL_PROJECTS if project_part == ALL_PROJECTS else str(UUID(hex=project_part))
    except ValueError:
        raise NotFound(UNKNOWN_LINK) from None
    payload = f"{user_part}.{project_part}.{kind}"
    if kind not in ("feedback", "contact", "alerts", "digest", "resolved") or not is_signed(
        settings, PURPOSE, payload, given
    ):
        raise NotFound(UNKNOWN_LINK)
    return Unsubscribe(user_id, project, kind)


async def unsubscribe(session: AsyncSession, link: Unsubscribe) -> None:
    """Turn the link's mail off, in the caller's transaction."""
    if link.kind == "digest":
        for column in (NotificationSetting.feedback, NotificationSetting.contact):
            await session.execute(
                update(NotificationSetting)
                .where(NotificationSetting.user_id == link.user_id, column == Frequency.DAILY.value)
                .values({column.key: Frequency.OFF.value})
            )
        return
    if link.kind == "resolved":
        await _withdraw_address(session, link)
        return
    project = await session.scalar(select(Project).where(Project.id == UUID(link.project)))
    if project is None:
        raise NotFound(UNKNOWN_LINK)
    try:
        current = await choice_of(session, project.org_id, project.id, link.user_id)
    except InvalidRequest:  # no longer a member: no mail to stop
        return
    choice = {"feedback": current.feedback, "contact": current.contact, link.kind: Frequency.OFF.value}
    await choose(session, project.org_id, project.id, link.user_id, **choice)


async def _withdraw_address(session: AsyncSession, link: Unsubscribe) -> None:
    """No more "resolved" mail to the item's reporter from this project (an item gone: nothing to do);
    the address is no longer confirmed there either: asking again means confirming again."""
    address = await session.scalar(
        select(FeedbackItem.notify_email).where(
            FeedbackItem.id == link.user_id, FeedbackItem.project_id == UUID(link.project)
        )
    )
    if address:
        await session.execute(
            update(FeedbackItem)
            .where(
                FeedbackItem.project_id == UUID(link.project),
                func.lower(FeedbackItem.notify_email) == address.lower(),
            )
            .values(notify_email=None)
            .execution_options(synchronize_session=False)
        )
        await session.execute(
            delete(ReporterAddress).where(
                ReporterAddress.project_id == UUID(link.project), ReporterAddress.address == address.lower()
            )
        )
