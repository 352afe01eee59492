"""Replies to contact messages: each is kept in the message's thread, mailed to the sender through the
outbox (the original quoted, Reply-To the member who answered), and marks the message Answered, with
its webhook event and audit entry, all in the caller's transaction.

A token is nobody's mailbox: a reply sent with an API token is answered to the organization's first
owner (the earliest owner membership), so the sender's answer still reaches a person."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.conversations.threads import add_contact_reply
from app.db.audit_trail import audit
from app.db.models import ContactMessage, ContactReply, ContactStatus, Membership, Project, Role, User
from app.errors import InvalidRequest
from app.mail import Mail, queue_mail
from app.schemas.contact_reply import ContactReplyOut
from app.services.projects import ProjectScoped
from app.webhooks.events import contact_message_replied, record_events
from tenants.scope import OrgScope

QUOTED_CHARACTERS = 2000


class ContactReplies(ProjectScoped):
    def __init__(self, session: AsyncSession, scope: OrgScope, project: Project, settings: Settings) -> None:
        super().__init__(session, scope, project)
        self.settings = settings

    async def thread(self, record: ContactMessage) -> list[ContactReply]:
        """The replies to a message of this project (found by `ContactMessages.get`), oldest first."""
        rows = await self.session.scalars(
            select(ContactReply)
            .where(ContactReply.contact_message_id == record.id)
            .order_by(ContactReply.created_at, ContactReply.id)
        )
        return list(rows)

    async def reply(self, record: ContactMessage, message: str) -> ContactReply:
        """Keep, mail and announce one reply; the message becomes Answered."""
        text = message.strip()
        if not text:
            raise InvalidRequest("message", "must not be blank")
        address, language = await self._replier()
        reply = ContactReply(
            contact_message_id=record.id, message=text, author=self.scope.actor, reply_to=address
        )
        self.session.add(reply)
        record.status = ContactStatus.ANSWERED.value
        await self.session.flush()
        await add_contact_reply(self.session, record, reply)  # the team's message in its conversation
        queue_mail(self.session, self.settings.secret_key, self._mail(record, reply, language))
        await record_events(
            self.session,
            self.project.org_id,
            [contact_message_replied(record, ContactReplyOut.of(reply))],
        )
        audit(
            self.session,
            self.project.org_id,
            "contact_message.replied",
            "contact_message",
            record.id,
            {"project_id": self.project.id, "reply_id": reply.id},
        )
        await self.session.flush()
        return reply

    def _mail(self, record: ContactMessage, reply: ContactReply, language: str) -> Mail:
        original = record.message
        if len(original) > QUOTED_CHARACTERS:
            original = original[:QUOTED_CHARACTERS] + "…"
        quoted = "\n".join(f"> {line}" for line in original.splitlines() or [""])
        return Mail(
            recipient=record.email,
            language=language,
            kind="contact_reply",
            url="",
            values={
                "subject": record.subject or self.project.name,
                "reply": reply.message,
                "date": record.created_at.strftime("%Y-%m-%d %H:%M UTC"),
                "name": record.name,
                "project": self.project.name,
            },
            items=(quoted,),
            reply_to=reply.reply_to,
            about=record.id,
        )

    async def _replier(self) -> tuple[str | None, str]:
        """The address answers go to and the language of the mail's own words: the member's, or for a
        token the organization's first owner's."""
        if self.scope.user_id is not None:
            user = await self.session.get(User, self.scope.user_id)
            return (user.email, user.language) if user is not None else (None, "en")
        owner = await self.session.execute(
            select(User.email, User.language)
            .join(Membership, Membership.user_id == User.id)
            .where(Membership.org_id == self.scope.org_id, Membership.role == Role.OWNER.value)
            .order_by(Membership.created_at, Membership.id)
            .limit(1)
        )
        row = owner.first()
        return (row.email, row.language) if row is not None else (None, "en")
