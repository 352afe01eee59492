"""An attached image as the API and the console serve it, and its address in exports.

The bytes are ones this server wrote (decoded and encoded again on arrival), yet they came from a visitor:
the answer names its type and forbids sniffing another, shows inline without offering a download, and a
sandboxing CSP keeps the browser from running anything within it or loading anything beside it, should it
be opened on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from litestar import Response
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackAttachment
from app.schemas.feedback import AttachmentOut, FeedbackExportOut

IMAGE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"
"""Nothing runs, nothing loads but the image (a browser showing an image alone styles its own page)."""
IMAGE_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}


def attachment_response(attachment: FeedbackAttachment) -> Response[Any]:
    name = f"{attachment.id}.{IMAGE_EXTENSIONS.get(attachment.content_type, 'img')}"
    return Response(
        content=attachment.data,
        media_type=attachment.content_type,
        headers={
            "Content-Disposition": f'inline; filename="{name}"',
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": IMAGE_CSP,
            "Cache-Control": "private, max-age=300",
            "Cross-Origin-Resource-Policy": "same-origin",
        },
    )


def attachment_path(project_id: UUID | str, feedback_id: UUID | str, attachment_id: UUID | str) -> str:
    """The API's path of an image (a token reads it; exports name it after the server's base URL)."""
    return f"/api/v1/projects/{project_id}/feedback/{feedback_id}/attachments/{attachment_id}"


async def with_attachments(
    session_maker: Callable[[], AsyncSession], records: Sequence[Any], base_url: str
) -> None:
    """Give a batch of exported items their images and those images' addresses, read in one query on a
    session of its own (the export's holds its cursor open)."""
    items: dict[str, FeedbackExportOut] = {record.id: record for record in records}
    if not items:
        return
    async with session_maker() as session:
        found = await session.scalars(
            select(FeedbackAttachment)
            .where(FeedbackAttachment.feedback_id.in_([UUID(item_id) for item_id in items]))
            .order_by(FeedbackAttachment.created_at, FeedbackAttachment.id)
        )
        for attachment in found:
            record = items[str(attachment.feedback_id)]
            record.attachments.append(AttachmentOut.of(attachment))
            path = attachment_path(attachment.project_id, attachment.feedback_id, attachment.id)
            record.attachment_urls.append(base_url + path)
