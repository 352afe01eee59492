"""Which Polar events become feedback, and what the item says.

`subscription.canceled` (the customer cancelled, at once or at the end of the period) whose
subscription carries a `customer_cancellation_comment` or a `customer_cancellation_reason` becomes one
item; every other event, and a cancellation without either, is acknowledged and stored nowhere. Polar's
payload has no id of its own: the delivery's `webhook-id` names the event (Polar keeps it on retries).
"""

from __future__ import annotations

from typing import Any

import msgspec

from app.integrations.imported_fields import (
    external_id,
    message_text,
    metadata_of,
    reason_sentence,
    submitter,
)
from app.integrations.stripe_events import CancellationFeedback

CANCELED = "subscription.canceled"


def cancellation_feedback(body: bytes, webhook_id: str) -> CancellationFeedback | None:
    """The feedback an event body carries, or None (not JSON, another event, nothing said)."""
    try:
        event = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError):  # the receiver refuses deep nesting before this
        return None
    event_id = external_id(webhook_id)
    if not isinstance(event, dict) or event.get("type") != CANCELED or event_id is None:
        return None
    subscription = _object(event.get("data"))
    reason = subscription.get("customer_cancellation_reason")
    reason = reason if isinstance(reason, str) else None
    message = message_text(subscription.get("customer_cancellation_comment")) or reason_sentence(reason)
    if message is None:
        return None
    customer = subscription.get("customer_id")
    if not isinstance(customer, str):
        customer = _object(subscription.get("customer")).get("id")
    return CancellationFeedback(
        event_id=event_id,
        message=message,
        submitted_by=submitter(customer),
        metadata=metadata_of(
            {
                "polar_event_id": event_id,
                "polar_customer": customer,
                "polar_subscription": subscription.get("id"),
                "cancellation_feedback": reason,
            }
        ),
    )


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
