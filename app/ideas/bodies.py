"""What the ideas routes take and give: the team's API, the portal's JSON and the MCP tools."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec

from app.db.models import ChangelogEntry, Idea, IdeaStatus
from app.db.models.changelog_entry import ENTRY_TITLE_LENGTH
from app.db.models.field_rules import literal_of
from app.db.models.idea import BODY_LENGTH, TITLE_LENGTH
from app.db.models.idea_tag import TAG_LENGTH
from app.schemas.fields import NAME_PATTERN, ElapsedMs, Honeypot
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

StatusName = literal_of(IdeaStatus)
Title = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=TITLE_LENGTH, pattern=NAME_PATTERN, description="One line, 1 to 120."
    ),
]
Body = Annotated[str, msgspec.Meta(max_length=BODY_LENGTH, description="Markdown, at most 5,000.")]
Tag = Annotated[
    str,
    msgspec.Meta(
        max_length=TAG_LENGTH,
        description="Trimmed, in lower case; control characters dropped; a blank tag is left out.",
    ),
]
Tags = Annotated[list[Tag], msgspec.Meta(max_length=10)]
EntryTitle = Annotated[str, msgspec.Meta(min_length=1, max_length=ENTRY_TITLE_LENGTH, pattern=NAME_PATTERN)]
EntryBody = Annotated[str, msgspec.Meta(max_length=20_000)]
IdeaIds = Annotated[list[UUID], msgspec.Meta(max_length=50)]


class IdeaCreateBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /projects/{project_id}/ideas: the team's idea, open unless another status is given."""

    title: Title
    body: Body = ""
    status: StatusName = "open"
    response: Body | None = None
    tags: Tags = []
    pinned: bool = False


class IdeaPatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """PATCH .../ideas/{idea_id}: the fields sent change."""

    title: Title | msgspec.UnsetType = msgspec.UNSET
    body: Body | msgspec.UnsetType = msgspec.UNSET
    status: StatusName | msgspec.UnsetType = msgspec.UNSET
    response: Body | msgspec.UnsetType | None = msgspec.UNSET
    tags: Tags | msgspec.UnsetType = msgspec.UNSET
    pinned: bool | msgspec.UnsetType = msgspec.UNSET


class MergeBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    into: UUID
    """The idea that keeps the votes; the merged one points at it."""


class FeedbackIdeaBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST .../feedback/{feedback_id}/idea: link to an existing idea, or to a new one of this title."""

    idea_id: UUID | None = None
    title: Title | None = None


class ChangelogCreateBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    title: EntryTitle
    body: EntryBody = ""
    published_at: datetime | None = None
    """When given, the entry is public from then on (and its ideas' voters hear of it); None: a draft."""
    idea_ids: IdeaIds = []


class ChangelogPatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    title: EntryTitle | msgspec.UnsetType = msgspec.UNSET
    body: EntryBody | msgspec.UnsetType = msgspec.UNSET
    published_at: datetime | msgspec.UnsetType | None = msgspec.UNSET
    idea_ids: IdeaIds | msgspec.UnsetType = msgspec.UNSET


FEEDBACK_IDEA_RULE = {
    "oneOf": [
        {"required": ["idea_id"], "properties": {"idea_id": {"type": "string"}, "title": {"type": "null"}}},
        {"required": ["title"], "properties": {"title": {"type": "string"}, "idea_id": {"type": "null"}}},
    ]
}
"""One of the two (added to the OpenAPI document's schema of FeedbackIdeaBody)."""


class PortalIdeaBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """POST /portal/{project_key}/ideas: a person's suggestion."""

    title: Title
    body: Body = ""
    website: Honeypot = ""
    """A field people never fill (the form hides it): filled, the suggestion is kept as spam."""
    elapsed_ms: ElapsedMs | None = None


class CommentBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    body: Annotated[str, msgspec.Meta(min_length=1, max_length=5000)]
    parent_id: UUID | None = None
    website: Honeypot = ""
    elapsed_ms: ElapsedMs | None = None


class Author(msgspec.Struct):
    name: str


class IdeaOut(msgspec.Struct):
    """An idea as every reader gets it; `votes` and `comments` are counts."""

    id: UUID
    title: str
    body: str
    status: str
    votes: int
    comments: int
    tags: list[str]
    author: Author
    response: str | None
    merged_into: UUID | None
    created_at: str

    @classmethod
    def of(cls, idea: Idea, tags: list[str]) -> IdeaOut:
        return cls(
            id=idea.id,
            title=idea.title,
            body=idea.body,
            status=idea.status,
            votes=idea.vote_count,
            comments=idea.comment_count,
            tags=tags,
            author=Author(name=idea.author_name or ("Team" if idea.author_key is None else "Anonymous")),
            response=idea.response,
            merged_into=idea.merged_into_id,
            created_at=iso_z(idea.created_at),
        )


class TeamIdeaOut(IdeaOut, kw_only=True):
    """The team's view adds what only the team sees."""

    pinned: bool = False
    demand: int = 0
    """Feedback items linked to the idea."""
    spam: bool = False

    @classmethod
    def of(cls, idea: Idea, tags: list[str]) -> TeamIdeaOut:
        base = IdeaOut.of(idea, tags)
        return cls(
            **{field: getattr(base, field) for field in IdeaOut.__struct_fields__},
            pinned=idea.pinned,
            demand=idea.demand_count,
            spam=idea.spam,
        )


class IdeaList(msgspec.Struct):
    ideas: list[IdeaOut]
    pagination: Pagination


class TeamIdeaList(msgspec.Struct):
    ideas: list[TeamIdeaOut]
    pagination: Pagination


class Voter(msgspec.Struct):
    name: str
    email: str | None
    voted_at: str


class VoterList(msgspec.Struct):
    voters: list[Voter]
    pagination: Pagination


class VoteOut(msgspec.Struct):
    voted: bool
    votes: int


class CommentOut(msgspec.Struct):
    id: UUID
    body: str
    author: Author
    team: bool
    parent_id: UUID | None
    created_at: str


class FeedbackIdeaOut(msgspec.Struct):
    feedback_id: UUID
    idea: TeamIdeaOut


class ChangelogOut(msgspec.Struct):
    id: UUID
    title: str
    body: str
    published_at: str | None
    idea_ids: list[UUID]
    created_at: str

    @classmethod
    def of(cls, entry: ChangelogEntry, idea_ids: list[UUID]) -> ChangelogOut:
        return cls(
            id=entry.id,
            title=entry.title,
            body=entry.body,
            published_at=iso_z(entry.published_at) if entry.published_at else None,
            idea_ids=idea_ids,
            created_at=iso_z(entry.created_at),
        )


class ChangelogList(msgspec.Struct):
    entries: list[ChangelogOut]
    pagination: Pagination
