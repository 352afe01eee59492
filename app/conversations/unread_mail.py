"""Mail about messages left unread: when a side has not read the other side's message for 5 minutes (its
page is closed, or it looks elsewhere), one mail tells it, and never more than one per conversation and
side an hour. The person's mail goes to the address of their identity token or the one they gave with
the subject, in the language of their widget; the team's to each member of the project's organization
who hears of new feedback (or contact messages, for those) and confirmed their address, in their own
language, with a link to the conversation in the console.

A process claims each mail by a conditional update of the conversation's marks (when and up to which
message it last mailed that side), in the transaction that queues the mail, so two processes looking at
once send it once."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import exists, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Conversation, ConversationMessage, Frequency, Project, Sender
from app.db.transactions import unit_of_work
from app.mail import Mail, queue_mail
from app.notifications.choices import members_choices

UNREAD_FOR = timedelta(minutes=5)
AT_MOST_EVERY = timedelta(hours=1)
LOOK_EVERY_SECONDS = 60
"""How often a process looks for unread messages to mail about (docs/architecture.md, periodic jobs)."""
BATCH = 200
QUOTED = 5
"""The latest unread messages a mail quotes, each cut at `QUOTED_CHARACTERS`."""
QUOTED_CHARACTERS = 1000

_log = logging.getLogger("hearken.conversations")


async def mail_unread(
    session_maker: async_sessionmaker[AsyncSession], settings: Settings, now: datetime
) -> int:
    """Queue the mails due at `now`, one transaction per side; returns how many conversations were told."""
    told = 0
    for reader in (Sender.PERSON, Sender.TEAM):
        async with unit_of_work(session_maker) as session:
            told += await _mail_side(session, settings, reader, now)
    if told:
        _log.info("mailed about unread messages in %s conversations", told)
    return told


def _marks(reader: Sender) -> tuple[str, str, str]:
    side = "person" if reader is Sender.PERSON else "team"
    return f"{side}_read_id", f"{side}_mailed_id", f"{side}_mailed_at"


async def _mail_side(session: AsyncSession, settings: Settings, reader: Sender, now: datetime) -> int:
    read, mailed, mailed_at = (getattr(Conversation, name) for name in _marks(reader))
    writer = Sender.TEAM if reader is Sender.PERSON else Sender.PERSON
    waiting = exists().where(
        ConversationMessage.conversation_id == Conversation.id,
        ConversationMessage.sender == writer.value,
        ConversationMessage.id > read,
        ConversationMessage.id > mailed,
        ConversationMessage.created_at <= now - UNREAD_FOR,
    )
    rested = or_(mailed_at.is_(None), mailed_at <= now - AT_MOST_EVERY)
    due = [waiting, rested]
    if reader is Sender.PERSON:
        due.append(Conversation.person_email.is_not(None))
    rows = list(
        await session.execute(
            select(Conversation, Project)
            .join(Project, Project.id == Conversation.project_id)
            .where(*due)
            .limit(BATCH)
        )
    )
    told = 0
    for conversation, project in rows:
        claimed = await session.execute(
            update(Conversation)
            .where(Conversation.id == conversation.id, mailed == getattr(conversation, mailed.key), rested)
            .values({mailed.key: conversation.last_message_id, mailed_at.key: now})
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            continue  # another process told them, or the conversation moved on meanwhile
        since = max(getattr(conversation, read.key), getattr(conversation, mailed.key))
        unread = list(
            await session.scalars(
                select(ConversationMessage.message)
                .where(
                    ConversationMessage.conversation_id == conversation.id,
                    ConversationMessage.sender == writer.value,
                    ConversationMessage.id > since,
                )
                .order_by(ConversationMessage.id.desc())
                .limit(QUOTED)
            )
        )
        quoted = tuple(_quote(text) for text in reversed(unread))
        for mail in await _mails(session, settings, reader, conversation, project, quoted):
            queue_mail(session, settings.secret_key, mail)
        told += 1
    return told


def _quote(text: str) -> str:
    short = text if len(text) <= QUOTED_CHARACTERS else text[:QUOTED_CHARACTERS] + "…"
    return "\n".join(f"> {line}" for line in short.splitlines() or [""])


async def _mails(
    session: AsyncSession,
    settings: Settings,
    reader: Sender,
    conversation: Conversation,
    project: Project,
    quoted: tuple[str, ...],
) -> list[Mail]:
    about = conversation.subject_id
    if reader is Sender.PERSON:
        assert conversation.person_email is not None
        return [
            Mail(
                recipient=conversation.person_email,
                language=conversation.person_language or "en",
                kind="conversation_person",
                url="",
                values={"project": project.name},
                items=quoted,
                about=about,
            )
        ]
    area = "feedback" if conversation.feedback_id is not None else "contact"
    url = f"{settings.base_url.rstrip('/')}/projects/{project.id}/{area}/{about}#conversation"
    kind = "feedback" if conversation.feedback_id is not None else "contact"
    members = [
        choice
        for choice in await members_choices(session, project.org_id, project.id)
        if choice.confirmed and choice.of(kind) != Frequency.OFF.value
    ]
    return [
        Mail(
            recipient=member.email,
            language=member.language,
            kind="conversation_team",
            url=url,
            values={"project": project.name, "person": conversation.person},
            items=quoted,
            about=about,
        )
        for member in members
    ]
