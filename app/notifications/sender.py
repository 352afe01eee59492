"""Turning the news of a new item into mails: the outbox handler of kind "notify". Each member whose
choice for the project is every item gets one mail, in their language, with a link to the item and a
one-click unsubscribe link; a member whose address is not confirmed yet gets none (when mail is sent).
The news that an item was resolved (kind "resolved") becomes one mail to the reporter who asked for it
and confirmed the address, with the resolution note (the team's words; nothing the visitor wrote, which
anyone could have written) and a one-click unsubscribe link, unless the address was withdrawn meanwhile.
The mails are queued as the handler's records, in the transaction that marks the news done: they are
queued once, and the mail handler sends them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Alert, ContactMessage, FeedbackItem, Frequency, NotificationEvent, Project
from app.mail import Mail
from app.mail.outbox import mail_rows
from app.notifications.choices import members_choices
from app.notifications.events import NOTIFY_JOB
from app.notifications.unsubscribe import unsubscribe_url
from app.outbox import ClaimedJob, Outcome

QUOTED_CHARACTERS = 1000


class NotifySender:
    kind = NOTIFY_JOB
    share = 8

    def __init__(self, session_maker: async_sessionmaker[AsyncSession], settings: Settings) -> None:
        self._session_maker = session_maker
        self._settings = settings

    @property
    def retry_delays(self) -> Sequence[float]:
        return self._settings.mail_retry_schedule

    async def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        async with self._session_maker() as session:
            events = {
                event.id: event
                for event in await session.scalars(
                    select(NotificationEvent).where(NotificationEvent.id.in_([job.id for job in jobs]))
                )
            }
            for job in jobs:
                event = events.get(job.id)
                mails = await self._mails(session, event) if event is not None else []
                records = [row for mail in mails for row in mail_rows(self._settings.secret_key, mail)]
                yield job, Outcome(ok=True, records=records)

    async def _mails(self, session: AsyncSession, event: NotificationEvent) -> list[Mail]:
        project = await session.get(Project, event.project_id)
        model = {"contact": ContactMessage, "alerts": Alert}.get(event.kind, FeedbackItem)
        subject = await session.get(model, event.subject_id)
        if project is None or subject is None:  # deleted meanwhile: nothing to tell
            return []
        if event.kind == "resolved":
            assert isinstance(subject, FeedbackItem)
            return self._resolved(project, subject)
        if event.kind == "alerts":
            return await self._alert(session, project, event.subject_id)
        choices = await members_choices(session, project.org_id, project.id)
        base = self._settings.base_url
        mails = []
        for choice in choices:
            if choice.of(event.kind) != Frequency.EACH.value:
                continue
            if not choice.confirmed and self._settings.sends_mail:  # an address nobody has shown is theirs
                continue
            if isinstance(subject, FeedbackItem):
                kind, url = "new_feedback", f"{base}/projects/{project.id}/feedback/{subject.id}"
                values = {"project": project.name, "type": subject.type}
            else:
                kind, url = "new_contact", f"{base}/projects/{project.id}/contact/{subject.id}"
                values = {"project": project.name, "name": subject.name, "email": subject.email}
            mails.append(
                Mail(
                    recipient=choice.email,
                    language=choice.language,
                    kind=kind,
                    url=url,
                    values=values,
                    items=(_quoted(subject.message),),
                    unsubscribe_url=unsubscribe_url(
                        self._settings, choice.user_id, str(project.id), event.kind
                    ),
                    about=subject.id,
                )
            )
        return mails

    async def _alert(self, session: AsyncSession, project: Project, alert_id: UUID) -> list[Mail]:
        """An alert opened: a mail to each member who chose alerts, with its title and its link."""
        alert = await session.get(Alert, alert_id)
        if alert is None:
            return []
        url = f"{self._settings.base_url}/projects/{project.id}/alerts"
        return [
            Mail(
                recipient=choice.email,
                language=choice.language,
                kind="alert_opened",
                url=url,
                values={"project": project.name},
                items=(alert.title,),
                unsubscribe_url=unsubscribe_url(self._settings, choice.user_id, str(project.id), "alerts"),
                about=alert.id,
            )
            for choice in await members_choices(session, project.org_id, project.id)
            if choice.alerts == Frequency.EACH.value and (choice.confirmed or not self._settings.sends_mail)
        ]

    def _resolved(self, project: Project, item: FeedbackItem) -> list[Mail]:
        if not item.notify_email:  # unsubscribed or erased since
            return []
        note = item.resolution_note or ""
        return [
            Mail(
                recipient=item.notify_email,
                language="en",
                kind="feedback_resolved",
                url="",
                values={"project": project.name, "note": note, "date": item.created_at.strftime("%Y-%m-%d")},
                unsubscribe_url=unsubscribe_url(self._settings, item.id, str(project.id), "resolved"),
                about=item.id,
            )
        ]


def _quoted(message: str) -> str:
    return message if len(message) <= QUOTED_CHARACTERS else message[:QUOTED_CHARACTERS] + "…"
