"""The events an organization's webhooks receive, and how one is recorded: a delivery per subscribed
endpoint, queued in the outbox within the transaction of the change that caused it.

Ratings cause no events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args
from uuid import UUID

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ContactMessage, FeedbackItem, FeedbackReward, WebhookDelivery
from app.outbox import enqueue
from app.schemas.contact_message import ContactMessageOut
from app.schemas.feedback import FeedbackOut
from app.timestamps import iso_z, utc_now
from app.webhooks.subscriptions import subscriptions

EventType = Literal[
    "feedback.created",
    "feedback.updated",
    "feedback.rewarded",
    "contact_message.created",
    "contact_message.replied",
    "survey.response.completed",
    "alert.opened",
    "alert.resolved",
    "idea.created",
    "idea.status_changed",
    "webhook.test",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
TEST_EVENT = "webhook.test"
WEBHOOK_JOB = "webhook"
"""The outbox kind of webhook deliveries."""


class FieldChange(msgspec.Struct, rename={"from_value": "from", "to_value": "to"}):
    field: str
    from_value: Any
    to_value: Any


class EventBody(msgspec.Struct, omit_defaults=True):
    """What a standard endpoint receives: `data` is the object exactly as the REST API returns it."""

    type: str
    timestamp: str
    data: Any
    changes: list[FieldChange] | None = None
    reply: Any = None
    """contact_message.replied: the reply as the thread lists it."""
    reward: Any = None
    """feedback.rewarded: the discount applied, `{"provider", "coupon", "applied_at"}`."""


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    subject: FeedbackItem | ContactMessage | dict[str, Any]
    """What it is about; turned into its API form when the event is recorded (after the flush that
    gives a new row its id)."""
    project_id: UUID | None = None
    """The project it happened in; endpoints limited to other projects do not receive it."""
    changes: list[FieldChange] | None = None
    reply: Any = None
    reward: Any = None

    def body(self) -> str:
        data: Any = self.subject
        if isinstance(self.subject, FeedbackItem):
            data = FeedbackOut.of(self.subject)
        elif isinstance(self.subject, ContactMessage):
            data = ContactMessageOut.of(self.subject)
        encoded = msgspec.json.encode(
            EventBody(
                type=self.type,
                timestamp=iso_z(utc_now()),
                data=data,
                changes=self.changes,
                reply=self.reply,
                reward=self.reward,
            )
        )
        return encoded.decode()


def feedback_created(item: FeedbackItem) -> Event:
    return Event("feedback.created", item, item.project_id)


def feedback_updated(item: FeedbackItem, changes: Sequence[tuple[str, Any, Any]]) -> Event:
    return Event(
        "feedback.updated",
        item,
        item.project_id,
        [FieldChange(field, before, after) for field, before, after in changes],
    )


def feedback_rewarded(item: FeedbackItem, reward: FeedbackReward) -> Event:
    applied = {"provider": reward.provider, "coupon": reward.coupon, "applied_at": iso_z(reward.created_at)}
    return Event("feedback.rewarded", item, item.project_id, reward=applied)


def contact_message_created(record: ContactMessage) -> Event:
    return Event("contact_message.created", record, record.project_id)


def contact_message_replied(record: ContactMessage, reply: Any) -> Event:
    """`reply` is the reply in its API form."""
    return Event("contact_message.replied", record, record.project_id, reply=reply)


SURVEY_RESPONSE_COMPLETED = "survey.response.completed"


def survey_response_completed(project_id: UUID, response: dict[str, Any]) -> Event:
    """`response` is the response as the API returns it, with the survey's name beside it."""
    return Event(SURVEY_RESPONSE_COMPLETED, response, project_id)


async def record_events(session: AsyncSession, org_id: UUID, events: Sequence[Event]) -> None:
    """Queue one delivery of each event for every enabled endpoint of the organization that wants it,
    in the caller's transaction (nothing is sent before it commits, nothing is lost after)."""
    if not events:
        return
    endpoints = await subscriptions(session, org_id)
    if not endpoints:
        return
    await session.flush()  # the new rows' ids and defaults are part of the event data
    for event in events:
        wanted = [endpoint for endpoint in endpoints if endpoint.wants(event.type, event.project_id)]
        body = event.body() if wanted else ""
        for endpoint in wanted:
            queue_delivery(session, endpoint.endpoint_id, event.type, body)


def queue_delivery(session: AsyncSession, endpoint_id: UUID, event_type: str, body: str) -> WebhookDelivery:
    job = enqueue(session, WEBHOOK_JOB)
    delivery = WebhookDelivery(
        id=job.id, endpoint_id=endpoint_id, event_type=event_type, body=body,
        created_at=job.created_at, updated_at=job.created_at,
    )  # fmt: skip
    session.add(delivery)
    return delivery
