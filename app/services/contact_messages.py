"""Contact messages of one project: every query here is filtered by that project."""

from __future__ import annotations

from uuid import UUID

from sqlalchemy import ColumnElement, func, or_, select

from app.conversations.threads import open_conversations
from app.db.audit_trail import audit
from app.db.models import ContactMessage
from app.db.paging import one_page
from app.errors import NotFound
from app.notifications.events import forget_news_about, queue_notification
from app.services.projects import ProjectScoped
from app.webhooks.events import contact_message_created, record_events


class ContactMessages(ProjectScoped):
    async def create(
        self,
        *,
        name: str,
        email: str,
        message: str,
        subject: str | None = None,
        path: str | None = None,
        version: str | None = None,
        submitted_by: str | None = None,
        submitted_by_verified: bool = False,
        spam: bool = False,
    ) -> ContactMessage:
        """Store a new message in the caller's transaction; spam is stored unannounced."""
        record = ContactMessage(
            project_id=self.project.id,
            name=name,
            email=email,
            subject=subject,
            message=message,
            path=path,
            version=version,
            submitted_by=submitted_by,
            submitted_by_verified=submitted_by_verified,
            spam=spam,
        )
        self.session.add(record)
        if spam:
            await self.session.flush()
            return record
        await self._announce(record)
        return record

    async def mark_spam(self, record: ContactMessage, spam: bool) -> ContactMessage:
        """Marking a message not spam sends what was held back: its webhook event and notifications."""
        if record.spam and not spam:
            record.spam = False
            await self._announce(record)
        record.spam = spam
        await self.session.flush()
        return record

    async def _announce(self, record: ContactMessage) -> None:
        await record_events(self.session, self.project.org_id, [contact_message_created(record)])
        await self.session.flush()  # the message's id, for the news of it
        queue_notification(self.session, self.project.id, "contact", record.id)
        await open_conversations(self.session, [record])  # a verified sender's private thread

    def conditions(
        self,
        *,
        search: str | None = None,
        archived: bool = False,
        verified: bool | None = None,
        spam: bool = False,
    ) -> list[ColumnElement[bool]]:
        return contact_conditions(
            self.project.id, search=search, archived=archived, verified=verified, spam=spam
        )

    async def list(
        self,
        *,
        search: str | None = None,
        archived: bool = False,
        verified: bool | None = None,
        spam: bool = False,
        page: int = 1,
        limit: int = 20,
    ) -> tuple[list[ContactMessage], int]:
        """One page, newest first, and the total count."""
        where = self.conditions(search=search, archived=archived, verified=verified, spam=spam)
        total = await self.session.scalar(select(func.count()).select_from(ContactMessage).where(*where))
        records = await self.session.scalars(
            one_page(select(ContactMessage).where(*where), ContactMessage, page, limit)
        )
        return list(records), total or 0

    async def get(self, message_id: UUID) -> ContactMessage:
        """A message of this project, archived or not; another project's message is not found."""
        record = await self.session.scalar(
            select(ContactMessage).where(
                ContactMessage.id == message_id, ContactMessage.project_id == self.project.id
            )
        )
        if record is None:
            raise NotFound("no contact message with this id in this project")
        return record

    async def archive(self, record: ContactMessage) -> None:
        """Soft delete; archiving twice changes nothing."""
        record.archived = True
        await self.session.flush()

    async def purge(self, record: ContactMessage) -> None:
        """Delete the message for good, with the mail about it (waiting or sent) and its audit entry
        (which names the message, never its sender)."""
        await forget_news_about(self.session, [record.id])
        await self.session.delete(record)
        audit(
            self.session,
            self.project.org_id,
            "contact_message.purged",
            "contact_message",
            record.id,
            {"project_id": self.project.id},
        )
        await self.session.flush()


def contact_conditions(
    project_id: UUID,
    *,
    search: str | None = None,
    archived: bool = False,
    verified: bool | None = None,
    spam: bool = False,
) -> list[ColumnElement[bool]]:
    """A project's messages, archived or not; `search` is a case-insensitive substring of name, email,
    subject or message, wildcards literal; `verified` keeps only messages whose submitter was (or was
    not) verified by signature; spam is listed only with `spam`, and then nothing else is."""
    where = [
        ContactMessage.project_id == project_id,
        ContactMessage.archived == archived,
        ContactMessage.spam == spam,
    ]
    if verified is not None:
        where.append(ContactMessage.submitted_by_verified == verified)
    if search:
        columns = (ContactMessage.name, ContactMessage.email, ContactMessage.subject, ContactMessage.message)
        where.append(or_(*(column.icontains(search, autoescape=True) for column in columns)))
    return where
