"""The Project resource."""

from __future__ import annotations

from typing import Annotated

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
    retention_days: int | None = None
    """Items older than this many days are deleted for good; null keeps them."""

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
            retention_days=project.retention_days,
        )


class ProjectList(msgspec.Struct):
    projects: list[ProjectOut]


ProjectName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        pattern=r"^[^\x00]*\S[^\x00]*$",
        description="1 to 200 characters, not only spaces (leading and trailing spaces are dropped).",
    ),
]
ProjectDescription = Annotated[str, msgspec.Meta(max_length=2000)]
Origins = Annotated[
    list[str],
    msgspec.Meta(
        description="Origins (scheme://host[:port], or https://*.host) widgets may send from; each is "
        "checked and normalized, and one that is not a valid origin is refused (400).",
    ),
]


class ProjectPatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Any of the fields; origins are validated and normalized; retention_days null keeps data forever."""

    name: ProjectName | msgspec.UnsetType = msgspec.UNSET
    description: ProjectDescription | msgspec.UnsetType = msgspec.UNSET
    allowed_origins: Origins | msgspec.UnsetType = msgspec.UNSET
    retention_days: Annotated[int, msgspec.Meta(ge=30, le=3650)] | msgspec.UnsetType | None = msgspec.UNSET
