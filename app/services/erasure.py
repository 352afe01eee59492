"""Erasure of one person's data across an organization, for good: the feedback items, ratings, contact
messages and survey responses they submitted (by `submitted_by`, with the survey links made for them), the
contact messages they sent (by email, case-insensitive), the feedback items whose reporter left that email
to hear of the resolution and those whose metadata names it as `contact` or `email` (Mintlify's imported
contact field), in every project of the organization, with every counter kept exact, in one transaction
with its audit entry. The webhook deliveries that carried a copy of an erased item or message go too, with
their attempts, so neither the delivery log nor "Retry" holds on to them, and so does every mail about an
erased item or message, waiting or sent (a reply or a notification queued while SMTP was down is never
sent afterwards), and the confirmation of the person's address (and of the addresses the erased items named).
On the ideas portal, the ideas they suggested, their votes and comments go too (the person's user id is
their `submitted_by`; their address, one they confirmed or one a token gave).

The audit entry keeps how many items went and which identifiers were used, never the identifiers themselves:
the log must not hold on to the person the erasure removed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any
from uuid import UUID

from sqlalchemy import ColumnElement, Row, and_, delete, func, or_, select

from app.db.audit_trail import audit
from app.db.models import (
    ContactMessage,
    Conversation,
    ConversationMessage,
    FeedbackItem,
    Project,
    Rating,
    ReporterAddress,
    SurveyResponse,
)
from app.errors import InvalidRequest
from app.ideas.forgetting import forget_person
from app.ingest import delete_ratings
from app.notifications.events import forget_news_about
from app.services.feedback_items import delete_feedback
from app.surveys.forgetting import forget_links, forget_responses
from app.webhooks.forgetting import forget_deliveries_about
from tenants.scope import OrgScoped

CONTACT_KEYS = ("contact", "email")
"""Metadata keys whose value is a person's email address (Mintlify imports keep `contact`)."""


@dataclass(frozen=True)
class Erased:
    feedback: int
    ratings: int
    contact_messages: int
    survey_responses: int = 0
    conversations: int = 0
    ideas: int = 0
    idea_votes: int = 0
    idea_comments: int = 0


@dataclass(frozen=True)
class Person:
    """Whose data: a `submitted_by` identifier, an email address, or both."""

    submitted_by: str | None = None
    email: str | None = None

    def __post_init__(self) -> None:
        if not self.submitted_by and not self.email:
            raise InvalidRequest("submitted_by", "give submitted_by, email or both")


class Erasure(OrgScoped):
    async def preview(self, person: Person) -> Erased:
        """How many items an erasure would delete now."""
        feedback, ratings, messages = self._conditions(person)
        feedback_ids = await self._ids(FeedbackItem.id, feedback)
        message_ids = await self._ids(ContactMessage.id, messages)
        return Erased(
            feedback=len(feedback_ids),
            ratings=await self._count(Rating, ratings),
            contact_messages=len(message_ids),
            survey_responses=await self._count(SurveyResponse, self._responses(person)),
            conversations=len(await self._conversations(person, feedback_ids, message_ids)),
        )

    async def erase(self, person: Person) -> Erased:
        """Delete everything of `person` in the organization, in the caller's transaction (the request's:
        the rows, the counters and the audit entry are stored together)."""
        feedback, ratings, messages = self._conditions(person)
        message_ids = await self._ids(ContactMessage.id, messages)
        responses = self._responses(person)
        feedback_ids = await self._ids(FeedbackItem.id, feedback)
        conversations = await self._forget_conversations(person, feedback_ids, message_ids)
        copied = [
            *feedback_ids,
            *message_ids,
            *(await self._ids(SurveyResponse.id, responses)),
        ]
        await forget_deliveries_about(self.session, self.scope.org_id, copied)
        await forget_news_about(self.session, message_ids)  # the items' mail goes with the items
        await self._forget_addresses(person, feedback)
        project_ids = await self._ids(Project.id, [self._org_projects()])
        portal = await forget_person(self.session, project_ids, person.submitted_by, person.email)
        erased = Erased(
            ideas=portal.ideas,
            idea_votes=portal.votes,
            idea_comments=portal.comments,
            feedback=await delete_feedback(self.session, feedback) if feedback else 0,
            ratings=await delete_ratings(self.session, ratings) if ratings else 0,
            contact_messages=(
                (await self.session.execute(delete(ContactMessage).where(*messages))).rowcount  # type: ignore[attr-defined]
                if messages
                else 0
            ),
            survey_responses=await forget_responses(self.session, responses) if responses else 0,
            conversations=conversations,
        )
        if person.submitted_by:
            await forget_links(self.session, project_ids, person.submitted_by)
        given = [name for name in ("submitted_by", "email") if getattr(person, name)]
        audit(
            self.session,
            self.scope.org_id,
            "erasure.performed",
            "erasure",
            None,
            {"by": given, **asdict(erased)},
        )
        await self.session.flush()
        return erased

    async def _forget_conversations(
        self, person: Person, feedback_ids: list[UUID], message_ids: list[UUID]
    ) -> int:
        """The person's conversations (by their id, or the address their token or subject gave) and those
        about the erased items and messages, with their messages and the mail about them."""
        rows = await self._conversations(person, feedback_ids, message_ids)
        if not rows:
            return 0
        await forget_news_about(self.session, [row[1] or row[2] for row in rows])
        ids = [row[0] for row in rows]
        await self.session.execute(
            delete(ConversationMessage).where(ConversationMessage.conversation_id.in_(ids))
        )
        await self.session.execute(delete(Conversation).where(Conversation.id.in_(ids)))
        return len(rows)

    async def _conversations(
        self, person: Person, feedback_ids: list[UUID], message_ids: list[UUID]
    ) -> list[Row[tuple[UUID, UUID | None, UUID | None]]]:
        """Each conversation an erasure takes: its id and its subject's."""
        who: list[ColumnElement[bool]] = []
        if person.submitted_by:
            who.append(Conversation.person == person.submitted_by)
        if person.email:
            who.append(func.lower(Conversation.person_email) == person.email.lower())
        if feedback_ids:
            who.append(Conversation.feedback_id.in_(feedback_ids))
        if message_ids:
            who.append(Conversation.contact_message_id.in_(message_ids))
        if not who:
            return []
        projects = select(Project.id).where(self._org_projects()).scalar_subquery()
        return list(
            await self.session.execute(
                select(Conversation.id, Conversation.feedback_id, Conversation.contact_message_id).where(
                    Conversation.project_id.in_(projects), or_(*who)
                )
            )
        )

    def _org_projects(self) -> ColumnElement[bool]:
        return Project.org_id == self.scope.org_id

    def _responses(self, person: Person) -> list[ColumnElement[bool]]:
        """Survey responses keep no email: a person's are those sent with their user id."""
        if not person.submitted_by:
            return []
        projects = select(Project.id).where(self._org_projects()).scalar_subquery()
        return [SurveyResponse.project_id.in_(projects), SurveyResponse.submitted_by == person.submitted_by]

    def _conditions(
        self, person: Person
    ) -> tuple[list[ColumnElement[bool]], list[ColumnElement[bool]], list[ColumnElement[bool]]]:
        projects = select(Project.id).where(Project.org_id == self.scope.org_id).scalar_subquery()
        feedback: list[ColumnElement[bool]] = []
        ratings: list[ColumnElement[bool]] = []
        messages: list[ColumnElement[bool]] = []
        if person.submitted_by:
            feedback = [
                FeedbackItem.project_id.in_(projects),
                FeedbackItem.submitted_by == person.submitted_by,
            ]
            ratings = [Rating.project_id.in_(projects), Rating.submitted_by == person.submitted_by]
            messages = [
                ContactMessage.project_id.in_(projects),
                ContactMessage.submitted_by == person.submitted_by,
            ]
        if person.email:
            email = person.email.lower()
            sent = and_(ContactMessage.project_id.in_(projects), func.lower(ContactMessage.email) == email)
            messages = [or_(and_(*messages), sent)] if messages else [sent]
            named = or_(
                func.lower(FeedbackItem.notify_email) == email,
                *(func.lower(FeedbackItem.custom_data[key].as_string()) == email for key in CONTACT_KEYS),
            )
            by_email = and_(FeedbackItem.project_id.in_(projects), named)
            feedback = [or_(and_(*feedback), by_email)] if feedback else [by_email]
        return feedback, ratings, messages

    async def _forget_addresses(self, person: Person, feedback: list[ColumnElement[bool]]) -> None:
        """The person's address, and every address the erased items asked to be told at, is no longer
        confirmed in any project of the organization (nor counted by the confirmation mails' budget)."""
        addresses = {person.email.lower()} if person.email else set()
        if feedback:
            named = select(func.lower(FeedbackItem.notify_email)).where(
                *feedback, FeedbackItem.notify_email.is_not(None)
            )
            addresses.update(address for address in await self.session.scalars(named) if address)
        if addresses:
            projects = select(Project.id).where(Project.org_id == self.scope.org_id).scalar_subquery()
            await self.session.execute(
                delete(ReporterAddress).where(
                    ReporterAddress.project_id.in_(projects), ReporterAddress.address.in_(addresses)
                )
            )

    async def _ids(self, column: Any, where: list[ColumnElement[bool]]) -> list[UUID]:
        return list(await self.session.scalars(select(column).where(*where))) if where else []

    async def _count(self, model: type, where: Iterable[ColumnElement[bool]]) -> int:
        where = list(where)
        if not where:
            return 0
        return int(await self.session.scalar(select(func.count()).select_from(model).where(*where)) or 0)
