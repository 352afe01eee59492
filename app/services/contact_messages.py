"""Contact messages of one project: every query here is filtered by that project."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import ContactMessage, Project


class ContactMessages:
    def __init__(self, session: AsyncSession, project: Project) -> None:
        self.session = session
        self.project = project

    async def create(
        self,
        *,
        name: str,
        email: str,
        message: str,
        subject: str | None = None,
        path: str | None = None,
        version: str | None = None,
    ) -> ContactMessage:
        """Store a new message and commit before returning."""
        record = ContactMessage(
            project_id=self.project.id,
            name=name,
            email=email,
            subject=subject,
            message=message,
            path=path,
            version=version,
        )
        self.session.add(record)
        await self.session.commit()
        return record
