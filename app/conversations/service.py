"""Conversations of one project, as each side reads and writes them: the team's (`Conversations`, built
for a request by `provide`) and an identified person's (`PersonConversations`, built by the public
endpoints with a widget scope), who sees only their own (another's is not found).

Reading a conversation marks it read for the reader; its `unread` then says how many of its messages were
new to them. Every message is stored under the conversation's row lock (app/conversations/threads.py)."""

from __future__ import annotations

from collections import defaultdict
from uuid import UUID

from sqlalchemy import and_, func, or_, select, update

from app.conversations.threads import add_message
from app.db.models import (
    ContactMessage,
    ContactStatus,
    Conversation,
    ConversationMessage,
    FeedbackItem,
    Sender,
    SubjectKind,
)
from app.db.paging import one_page
from app.errors import InvalidRequest, NotFound
from app.identity.person_tokens import IdentifiedPerson
from app.schemas.conversations import ConversationOut, MessageOut
from app.services.projects import ProjectScoped

LANGUAGES = ("en", "de", "sv")
"""The languages mail to a person is written in."""


class _Threads(ProjectScoped):
    reader: Sender

    async def read(self, conversation: Conversation, *, after: int | None = None) -> ConversationOut:
        """The conversation (only the messages after `after` when given), marked read for the reader."""
        (out,) = await self._out([conversation], after=after)
        seen = conversation.last_message_id
        marker = "person_read_id" if self.reader is Sender.PERSON else "team_read_id"
        if getattr(conversation, marker) < seen:
            # Never backwards: a slower read of an older state must not make messages unread again.
            await self.session.execute(
                update(Conversation)
                .where(Conversation.id == conversation.id, getattr(Conversation, marker) < seen)
                .values({marker: seen})
                .execution_options(synchronize_session=False)
            )
        return out

    async def send(self, conversation: Conversation, text: str, author: str | None) -> MessageOut:
        message = text.strip()
        if not message:
            raise InvalidRequest("message", "must not be blank")
        row = await add_message(self.session, conversation, self.reader, message, author=author)
        return MessageOut.of(row)

    async def outs(self, rows: list[Conversation]) -> list[ConversationOut]:
        return await self._out(rows)

    async def _out(self, rows: list[Conversation], *, after: int | None = None) -> list[ConversationOut]:
        """Each conversation with its messages, loaded in one query, and its unread count for the reader."""
        if not rows:
            return []
        query = select(ConversationMessage).where(
            ConversationMessage.conversation_id.in_([row.id for row in rows])
        )
        if after is not None:
            query = query.where(ConversationMessage.id > after)
        threads: dict[UUID, list[ConversationMessage]] = defaultdict(list)
        for message in await self.session.scalars(query.order_by(ConversationMessage.id)):
            threads[message.conversation_id].append(message)
        other = Sender.TEAM if self.reader is Sender.PERSON else Sender.PERSON
        out = []
        for row in rows:
            seen = row.person_read_id if self.reader is Sender.PERSON else row.team_read_id
            thread = threads[row.id]
            unread = sum(1 for m in thread if m.sender == other.value and m.id > seen)
            out.append(ConversationOut.of(row, [MessageOut.of(m) for m in thread], unread))
        return out


class Conversations(_Threads):
    """The team's side: every conversation of the project."""

    reader = Sender.TEAM

    async def list(
        self, *, page: int = 1, limit: int = 20, unread: bool = False
    ) -> tuple[list[ConversationOut], int]:
        """One page, the latest message first, and the total count; with `unread`, only conversations
        with a message of the person's the team has not read."""
        rows, total = await self.rows(page=page, limit=limit, unread=unread)
        return await self._out(rows), total

    async def inbox(
        self, *, page: int = 1, limit: int = 20, unread: bool = False
    ) -> tuple[list[tuple[Conversation, ConversationOut]], int]:
        """The same page as `list`, each conversation beside its row (the console shows the person)."""
        rows, total = await self.rows(page=page, limit=limit, unread=unread)
        return list(zip(rows, await self._out(rows), strict=True)), total

    async def rows(self, *, page: int, limit: int, unread: bool) -> tuple[list[Conversation], int]:
        where = [Conversation.project_id == self.project.id]
        if unread:
            where.append(
                select(ConversationMessage.id)
                .where(
                    ConversationMessage.conversation_id == Conversation.id,
                    ConversationMessage.sender == Sender.PERSON.value,
                    ConversationMessage.id > Conversation.team_read_id,
                )
                .exists()
            )
        total = await self.session.scalar(select(func.count()).select_from(Conversation).where(*where))
        rows = await self.session.scalars(
            one_page(
                select(Conversation).where(*where),
                Conversation,
                page,
                limit,
                Conversation.last_message_at.desc(),
                Conversation.id.desc(),
            )
        )
        return list(rows), total or 0

    async def get(self, conversation_id: UUID) -> Conversation:
        row = await self.session.scalar(
            select(Conversation).where(
                Conversation.id == conversation_id, Conversation.project_id == self.project.id
            )
        )
        if row is None:
            raise NotFound("conversation_id: no conversation with this id in this project")
        return row

    async def send(self, conversation: Conversation, text: str, author: str | None) -> MessageOut:
        """The team's answer; in a contact message's conversation it marks the message Answered, as a
        reply by mail does."""
        out = await super().send(conversation, text, author)
        if conversation.contact_message_id is not None:
            await self.session.execute(
                update(ContactMessage)
                .where(
                    ContactMessage.id == conversation.contact_message_id,
                    ContactMessage.project_id == self.project.id,
                )
                .values(status=ContactStatus.ANSWERED.value)
                .execution_options(synchronize_session=False)
            )
        return out

    async def of_subject(self, kind: SubjectKind, subject_id: UUID) -> Conversation | None:
        """The conversation about a feedback item or contact message of this project, if it has one."""
        column = Conversation.feedback_id if kind is SubjectKind.FEEDBACK else Conversation.contact_message_id
        return await self.session.scalar(
            select(Conversation).where(column == subject_id, Conversation.project_id == self.project.id)
        )


_NOT_SPAM = and_(
    ~select(FeedbackItem.id)
    .where(FeedbackItem.id == Conversation.feedback_id, FeedbackItem.spam.is_(True))
    .exists(),
    ~select(ContactMessage.id)
    .where(ContactMessage.id == Conversation.contact_message_id, ContactMessage.spam.is_(True))
    .exists(),
)
"""A conversation whose feedback item or contact message the team has marked spam is gone for the person."""


class PersonConversations(_Threads):
    """An identified person's side: their own conversations in the project, and nobody else's, without
    those whose subject is marked spam."""

    reader = Sender.PERSON

    async def list(self, person: IdentifiedPerson) -> list[ConversationOut]:
        rows = await self.session.scalars(
            select(Conversation)
            .where(Conversation.project_id == self.project.id, Conversation.person == person.id, _NOT_SPAM)
            .order_by(Conversation.last_message_at.desc(), Conversation.id.desc())
            .limit(100)
        )
        return await self._out(list(rows))

    async def get(self, person: IdentifiedPerson, conversation_id: UUID) -> Conversation:
        """The person's conversation; another person's, or another project's, is not found."""
        row = await self.session.scalar(
            select(Conversation).where(
                Conversation.id == conversation_id,
                Conversation.project_id == self.project.id,
                Conversation.person == person.id,
                _NOT_SPAM,
            )
        )
        if row is None:
            raise NotFound("conversation_id: no conversation of yours with this id")
        return row

    async def remember(self, person: IdentifiedPerson, language: str | None) -> None:
        """Keep the person's address from their token and the language of their widget, for mail."""
        values: dict[str, str] = {}
        if person.email:
            values["person_email"] = person.email
        if language in LANGUAGES:
            values["person_language"] = language
        if not values:
            return
        changed = [getattr(Conversation, name) != value for name, value in values.items()]
        nulls = [getattr(Conversation, name).is_(None) for name in values]
        await self.session.execute(
            update(Conversation)
            .where(
                Conversation.project_id == self.project.id,
                Conversation.person == person.id,
                or_(*changed, *nulls),
            )
            .values(values)
            .execution_options(synchronize_session=False)
        )
