"""The Project resource."""

from __future__ import annotations

from typing import Annotated

import msgspec

from app.db.models import Project
from app.schemas.fields import NAME_PATTERN
from app.schemas.portal import PortalPatch, PortalSettings, portal_of


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
    require_verified_users: bool = False
    """A submission naming a user without a valid user_signature is refused (403)."""
    has_identity_secret: bool = False
    """Whether an identity secret was created (it is shown only when created or rotated)."""
    portal: PortalSettings | None = None
    """The public ideas portal's settings (at {base}/p/{key} when enabled)."""

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
            require_verified_users=project.require_verified_users,
            has_identity_secret=project.sealed_identity_secret is not None,
            portal=portal_of(project),
        )


class ProjectList(msgspec.Struct):
    projects: list[ProjectOut]


ProjectName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        pattern=NAME_PATTERN,
        description="1 to 200 characters on one line, not only spaces, no control characters (leading and "
        "trailing spaces are dropped).",
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
    require_verified_users: bool | msgspec.UnsetType = msgspec.UNSET
    """true refuses (403) a submission naming a user (submitted_by) without a valid user_signature;
    anonymous submissions stay accepted."""
    portal: PortalPatch | msgspec.UnsetType = msgspec.UNSET
    """The ideas portal's settings: the fields sent change."""


class IdentitySecret(msgspec.Struct):
    """Shown once: store it in your backend, which signs user ids with it."""

    secret: str
