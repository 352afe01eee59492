"""Closing the loop for the crowd: when an idea becomes done, or a published changelog entry names it,
each person who voted for it (and its author) with a known address, and each linked feedback item's
`notify_email` (once confirmed), gets one mail in their language, with a one-click unsubscribe. Never two
for the same idea and address: an `idea_notices` row is inserted first (the primary key is the guard,
also against a second process), and the mail is queued only when the insert added it. Addresses that
unsubscribed from the project's idea mails are skipped."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import (
    ChangelogEntry,
    FeedbackItem,
    Idea,
    IdeaDemand,
    IdeaNotice,
    IdeaVote,
    PortalOptOut,
    Project,
    ReporterAddress,
)
from app.errors import NotFound
from app.mail import Mail, queue_mail
from app.mail.compose import one_line
from app.notifications.signed_links import is_signed, signature
from app.timestamps import utc_now
from tenants.languages import LANGUAGES

PURPOSE = b"portal-unsubscribe"
UNKNOWN_LINK = "this unsubscribe link is not valid"


@dataclass(frozen=True)
class PortalUnsubscribe:
    project_id: UUID
    address: str


def unsubscribe_token(settings: Settings, project_id: UUID, address: str) -> str:
    encoded = base64.urlsafe_b64encode(address.lower().encode()).rstrip(b"=").decode()
    payload = f"{project_id.hex}.{encoded}"
    return f"{payload}.{signature(settings, PURPOSE, payload)}"


def read_unsubscribe(settings: Settings, token: str) -> PortalUnsubscribe:
    try:
        project_part, encoded, given = token.split(".")
        project_id = UUID(hex=project_part)
        address = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
    except ValueError:
        raise NotFound(UNKNOWN_LINK) from None
    if not is_signed(settings, PURPOSE, f"{project_part}.{encoded}", given):
        raise NotFound(UNKNOWN_LINK)
    return PortalUnsubscribe(project_id, address)


async def opt_out(session: AsyncSession, link: PortalUnsubscribe) -> None:
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    await session.execute(
        insert(PortalOptOut.__table__)
        .values(project_id=link.project_id, recipient=link.address, created_at=utc_now())
        .on_conflict_do_nothing(index_elements=["project_id", "recipient"])
    )


def portal_title(project: Project) -> str:
    settings = project.portal or {}
    return one_line(str(settings.get("title") or project.name))[:120]


async def tell_of_done(
    session: AsyncSession,
    settings: Settings,
    project: Project,
    ideas: Sequence[Idea],
    *,
    entry: ChangelogEntry | None = None,
) -> int:
    """Queue the mails of these ideas in the caller's transaction; returns how many were queued."""
    queued = 0
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    opted_out = set(
        await session.scalars(select(PortalOptOut.recipient).where(PortalOptOut.project_id == project.id))
    )
    for idea in ideas:
        if idea.spam or idea.status == "pending":
            continue
        for address, language in await _recipients(session, idea):
            if address in opted_out:
                continue
            added = await session.execute(
                insert(IdeaNotice.__table__)
                .values(idea_id=idea.id, recipient=address, project_id=project.id, created_at=utc_now())
                .on_conflict_do_nothing(index_elements=["idea_id", "recipient"])
                .returning(IdeaNotice.__table__.c.recipient)
            )
            if added.first() is None:
                continue
            queue_mail(session, settings.secret_key, _mail(settings, project, idea, address, language, entry))
            queued += 1
    return queued


async def _recipients(session: AsyncSession, idea: Idea) -> list[tuple[str, str]]:
    """(address in lower case, language), each address once, voters first."""
    found: dict[str, str] = {}
    votes = await session.execute(
        select(IdeaVote.email, IdeaVote.language).where(
            IdeaVote.idea_id == idea.id, IdeaVote.email.is_not(None)
        )
    )
    for email, language in votes.tuples():
        found.setdefault(email.lower(), language)
    if idea.author_email:
        found.setdefault(idea.author_email.lower(), idea.author_language)
    # A reporter's address counts once its owner confirmed it for the project (as for "resolved" mail):
    # nobody can make the service mail an address they typed into a widget.
    items = await session.scalars(
        select(FeedbackItem.notify_email)
        .join(IdeaDemand, IdeaDemand.feedback_id == FeedbackItem.id)
        .join(
            ReporterAddress,
            (ReporterAddress.project_id == FeedbackItem.project_id)
            & (ReporterAddress.address == func.lower(FeedbackItem.notify_email)),
        )
        .where(
            IdeaDemand.idea_id == idea.id,
            FeedbackItem.notify_email.is_not(None),
            ReporterAddress.confirmed_at.is_not(None),
        )
    )
    for email in items:
        found.setdefault(email.lower(), "en")
    return [(address, language if language in LANGUAGES else "en") for address, language in found.items()]


def _mail(
    settings: Settings,
    project: Project,
    idea: Idea,
    address: str,
    language: str,
    entry: ChangelogEntry | None,
) -> Mail:
    base = f"{settings.base_url}/p/{project.key}"
    note = one_line(entry.title) if entry is not None else one_line(idea.response or "")
    return Mail(
        recipient=address,
        language=language,
        kind="idea_done",
        url=f"{base}/ideas/{idea.id}?lang={language}",
        values={"idea": one_line(idea.title), "project": portal_title(project), "note": note[:500]},
        unsubscribe_url=f"{base}/unsubscribe/{unsubscribe_token(settings, project.id, address)}",
    )
