"""The Project resource."""

from __future__ import annotations

import msgspec

from app.db.models import Project


class ProjectOut(msgspec.Struct):
    id: str
    key: str
    name: str
    description: str
    allowed_origins: list[str]
    org_id: str
    feedback_count: int

    @classmethod
    def of(cls, project: Project, feedback_count: int) -> ProjectOut:
        return cls(
            id=str(project.id),
            key=str(project.key),
            name=project.name,
            description=project.description,
            allowed_origins=list(project.allowed_origins),
            org_id=str(project.org_id),
            feedback_count=feedback_count,
        )


class ProjectList(msgspec.Struct):
    projects: list[ProjectOut]
