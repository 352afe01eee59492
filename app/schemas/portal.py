"""A project's ideas portal settings, as stored on the project (`projects.portal`) and as the API takes
them: a change names only the fields it changes; what was never set has its default."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from app.db.models import Project
from app.schemas.fields import NAME_PATTERN

Voting = Literal["verified", "email"]
AccentColor = Annotated[
    str, msgspec.Meta(pattern=r"^#[0-9a-fA-F]{6}$", description="A colour as #rrggbb.", examples=["#3b5bdb"])
]
PortalTitle = Annotated[str, msgspec.Meta(min_length=1, max_length=120, pattern=NAME_PATTERN)]
Intro = Annotated[str, msgspec.Meta(max_length=2000, description="Markdown, shown above the list.")]
DEFAULT_ACCENT = "#3b5bdb"


class PortalSettings(msgspec.Struct, kw_only=True):
    enabled: bool = False
    """Off: every portal page and the portal's JSON answer 404."""
    title: str | None = None
    """Shown as the portal's name; null: the project's name."""
    intro: str = ""
    accent_color: str = DEFAULT_ACCENT
    auto_approve: bool = False
    """true: suggestions are open at once; false: pending until the team approves them."""
    voting: Voting = "verified"
    """"verified": only people the customer's app identifies (signed user id or token); "email": also
    anyone who confirms an address by a link."""
    indexable: bool = False
    """true: search engines may index the portal (robots meta); false: noindex."""


class PortalPatch(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    enabled: bool | msgspec.UnsetType = msgspec.UNSET
    title: PortalTitle | msgspec.UnsetType | None = msgspec.UNSET
    intro: Intro | msgspec.UnsetType = msgspec.UNSET
    accent_color: AccentColor | msgspec.UnsetType = msgspec.UNSET
    auto_approve: bool | msgspec.UnsetType = msgspec.UNSET
    voting: Voting | msgspec.UnsetType = msgspec.UNSET
    indexable: bool | msgspec.UnsetType = msgspec.UNSET


def portal_of(project: Project) -> PortalSettings:
    return msgspec.convert(project.portal or {}, PortalSettings)


def apply_portal(project: Project, patch: PortalPatch) -> PortalSettings:
    """The project's settings with the patch's fields changed, stored on the project."""
    current = msgspec.to_builtins(portal_of(project))
    for field in patch.__struct_fields__:
        value = getattr(patch, field)
        if value is not msgspec.UNSET:
            current[field] = value.lower() if field == "accent_color" else value
    settings = msgspec.convert(current, PortalSettings)
    project.portal = msgspec.to_builtins(settings)
    return settings
