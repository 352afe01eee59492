"""How many bytes of images each project stores: the quota is checked against it as images arrive, and
every deletion of attachments takes them off in the same transaction."""

from __future__ import annotations

from uuid import UUID

from advanced_alchemy.base import DefaultBase
from sqlalchemy import BigInteger, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column


class AttachmentUsage(DefaultBase):
    __tablename__ = "attachment_usage"

    project_id: Mapped[UUID] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True)
    bytes: Mapped[int] = mapped_column(BigInteger, default=0)
