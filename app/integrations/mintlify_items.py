"""Which Mintlify feedback records become feedback items, and what the item holds.

A record `{"id", "path", "comment", "createdAt", "source", "status", "helpful"?, "contact"?, "code"?,
"filename"?, "lang"?}` with a non-empty comment becomes one item that keeps the upstream time; records
without a comment, an id or a readable createdAt are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.integrations.imported_fields import external_id, message_text, metadata_of, page_path


@dataclass(frozen=True, slots=True)
class PageFeedback:
    mintlify_id: str
    message: str
    path: str | None
    created_at: datetime
    metadata: dict[str, str | int | float | bool] | None


def page_feedback(record: dict[str, Any]) -> PageFeedback | None:
    mintlify_id = external_id(record.get("id"))
    message = message_text(record.get("comment"))
    created_at = _moment(record.get("createdAt"))
    if mintlify_id is None or message is None or created_at is None:
        return None
    return PageFeedback(
        mintlify_id=mintlify_id,
        message=message,
        path=page_path(record.get("path")),
        created_at=created_at,
        metadata=metadata_of(
            {
                "mintlify_id": mintlify_id,
                "mintlify_source": record.get("source"),
                "helpful": record.get("helpful"),
                "contact": record.get("contact"),
                "filename": record.get("filename"),
                "lang": record.get("lang"),
            }
        ),
    )


def _moment(value: object) -> datetime | None:
    """An ISO 8601 time (a date alone is midnight UTC; no zone means UTC)."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
