"""Images attached to feedback items: stored with the item in the database, counted against the project's
quota in the same transaction, read back only within the project (and so the organization) they belong to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from uuid import UUID

from sqlalchemy import ColumnElement, bindparam, delete, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import undefer

from app.db.models import AttachmentUsage, FeedbackAttachment, FeedbackItem
from app.errors import NotFound, PayloadTooLarge
from app.services.image_cleaning import CleanImage
from app.services.projects import ProjectScoped

_RESERVE = text(
    "INSERT INTO attachment_usage (project_id, bytes) SELECT :project_id, :bytes WHERE :bytes <= :quota "
    "ON CONFLICT (project_id) DO UPDATE SET bytes = attachment_usage.bytes + excluded.bytes "
    "WHERE attachment_usage.bytes + excluded.bytes <= :quota RETURNING bytes"
).bindparams(bindparam("project_id", type_=AttachmentUsage.__table__.c.project_id.type))
"""Adds to a project's bytes only if the sum stays within the quota, in one statement: two submissions
racing for the last megabytes cannot both pass."""


class FeedbackAttachments(ProjectScoped):
    async def store(
        self, item: FeedbackItem, images: Sequence[CleanImage], quota_bytes: int
    ) -> list[FeedbackAttachment]:
        """Attach the images to a new item in the caller's transaction, or PayloadTooLarge when they would
        take the project over its quota (the caller's transaction then stores nothing)."""
        if not images:
            return []
        total = sum(len(image.data) for image in images)
        reserved = await self.session.execute(
            _RESERVE, {"project_id": self.project.id, "bytes": total, "quota": quota_bytes}
        )
        if reserved.first() is None:
            raise PayloadTooLarge("attachments: this project's storage for images is full")
        rows = [
            FeedbackAttachment(
                organization_id=self.project.org_id,
                project_id=self.project.id,
                feedback_id=item.id,
                content_type=image.content_type,
                bytes=len(image.data),
                width=image.width,
                height=image.height,
                data=image.data,
            )
            for image in images
        ]
        self.session.add_all(rows)
        await self.session.flush()
        return rows

    async def of_items(self, feedback_ids: Iterable[UUID]) -> dict[UUID, list[FeedbackAttachment]]:
        """Each item's attachments in the order they came, described (their bytes are not read)."""
        ids = list(feedback_ids)
        found: dict[UUID, list[FeedbackAttachment]] = {}
        if not ids:
            return found
        rows = await self.session.scalars(
            select(FeedbackAttachment)
            .where(FeedbackAttachment.project_id == self.project.id, FeedbackAttachment.feedback_id.in_(ids))
            .order_by(FeedbackAttachment.created_at, FeedbackAttachment.id)
        )
        for row in rows:
            found.setdefault(row.feedback_id, []).append(row)
        return found

    async def image(self, feedback_id: UUID, attachment_id: UUID) -> FeedbackAttachment:
        """One attachment with its bytes; another project's (or organization's) is not found."""
        row = await self.session.scalar(
            select(FeedbackAttachment)
            .options(undefer(FeedbackAttachment.data))
            .where(
                FeedbackAttachment.id == attachment_id,
                FeedbackAttachment.feedback_id == feedback_id,
                FeedbackAttachment.project_id == self.project.id,
                FeedbackAttachment.organization_id == self.project.org_id,
            )
        )
        if row is None:
            raise NotFound("no attachment with this id on this feedback item")
        return row

    async def used_bytes(self) -> int:
        stored = await self.session.scalar(
            select(AttachmentUsage.bytes).where(AttachmentUsage.project_id == self.project.id)
        )
        return int(stored or 0)


async def delete_attachments(session: AsyncSession, where: Sequence[ColumnElement[bool]]) -> None:
    """Delete the attachments of the feedback items matching `where` and take their bytes off their
    projects' usage, in the caller's transaction (the items' own deletion: purge, erasure, retention)."""
    of_items = FeedbackAttachment.feedback_id.in_(select(FeedbackItem.id).where(*where))
    freed = await session.execute(
        select(FeedbackAttachment.project_id, func.sum(FeedbackAttachment.bytes))
        .where(of_items)
        .group_by(FeedbackAttachment.project_id)
        .order_by(FeedbackAttachment.project_id)
    )
    by_project = list(freed.tuples())
    if not by_project:
        return
    await session.execute(
        delete(FeedbackAttachment).where(of_items).execution_options(synchronize_session=False)
    )
    for project_id, freed_bytes in by_project:
        await session.execute(
            update(AttachmentUsage)
            .where(AttachmentUsage.project_id == project_id)
            .values(bytes=AttachmentUsage.bytes - int(freed_bytes or 0))
        )
