"""The team's ideas and changelog of a project: create, list, read, change, delete, merge duplicates,
see the voters, link feedback items as demand."""

from __future__ import annotations

from typing import Annotated, Literal

from litestar import Controller, delete, get, patch, post
from litestar.di import Provide
from litestar.params import Parameter

from app.api.paging import Limit, Page
from app.db.ids import parse_uuid
from app.db.models import ChangelogEntry, Idea
from app.db.read_routing import REPLICA_READS
from app.dependencies import provide
from app.errors import error_responses
from app.ideas.bodies import (
    ChangelogCreateBody,
    ChangelogList,
    ChangelogOut,
    ChangelogPatchBody,
    FeedbackIdeaBody,
    FeedbackIdeaOut,
    IdeaCreateBody,
    IdeaPatchBody,
    MergeBody,
    StatusName,
    TeamIdeaList,
    TeamIdeaOut,
    Voter,
    VoterList,
)
from app.ideas.service import Changelog, Ideas
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

ONE = "/{idea_id:str}"
StatusFilter = Annotated[StatusName | None, Parameter(description="Only ideas in this status.")]
TagFilter = Annotated[str | None, Parameter(max_length=40, description="Only ideas with this tag.")]
Search = Annotated[
    str | None, Parameter(query="q", max_length=200, description="Only ideas whose title or body has this.")
]
SortName = Annotated[
    Literal["top", "new", "trending"],
    Parameter(description="top: most votes; new: newest; trending: votes weighed by age. Pinned first."),
]
SpamFilter = Annotated[bool | None, Parameter(description="true: only ideas kept as spam.")]


async def provide_idea(idea_id: str, ideas: Ideas) -> Idea:
    return await ideas.get(parse_uuid(idea_id, "idea_id"))


async def team_out(ideas: Ideas, idea: Idea) -> TeamIdeaOut:
    return TeamIdeaOut.of(idea, (await ideas.tags_of([idea]))[idea.id])


class IdeaController(Controller):
    path = "/projects/{project_id:str}"
    tags = ["Ideas"]
    dependencies = {"ideas": provide(Ideas), "idea": Provide(provide_idea)}

    @post(
        "/ideas",
        status_code=201,
        summary="Create an idea (open unless another status is given)",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def create_idea(self, data: IdeaCreateBody, ideas: Ideas) -> TeamIdeaOut:
        """The team's own idea; it is on the portal at once unless created pending."""
        return await team_out(ideas, await ideas.create(data))

    @get(
        "/ideas",
        summary="List ideas, pinned first, by votes, age or trend",
        responses=error_responses(400, 401, 403, 404),
        opt=REPLICA_READS,
    )
    async def list_ideas(
        self,
        ideas: Ideas,
        page: Page = 1,
        limit: Limit = 20,
        status: StatusFilter = None,
        tag: TagFilter = None,
        search: Search = None,
        sort: SortName = "top",
        spam: SpamFilter = None,
    ) -> TeamIdeaList:
        """Every idea of the project (pending ones too; ideas merged into others are left out); ideas
        kept as spam only with spam=true."""
        rows, total = await ideas.list(
            status=status, tag=tag, search=search, sort=sort, page=page, limit=limit, team=True, spam=spam
        )
        tags = await ideas.tags_of(rows)
        return TeamIdeaList(
            ideas=[TeamIdeaOut.of(row, tags[row.id]) for row in rows],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get("/ideas" + ONE, summary="Get one idea", responses=error_responses(400, 401, 403, 404))
    async def get_idea(self, idea: Idea, ideas: Ideas) -> TeamIdeaOut:
        """Any idea of the project, pending, spam and merged ones too; another project's is not found."""
        return await team_out(ideas, idea)

    @patch(
        "/ideas" + ONE,
        summary="Change an idea's status, response, tags, title, body or pin",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_idea(self, idea: Idea, data: IdeaPatchBody, ideas: Ideas) -> TeamIdeaOut:
        """The fields sent change. A new status sends `idea.status_changed`; done tells the voters once."""
        return await team_out(ideas, await ideas.update(idea, data))

    @delete("/ideas" + ONE, summary="Delete an idea", responses=error_responses(400, 401, 403, 404))
    async def delete_idea(self, idea: Idea, ideas: Ideas) -> None:
        """With its votes, comments and links; ideas merged into it stand alone again."""
        await ideas.delete(idea)

    @post(
        "/ideas" + ONE + "/merge",
        status_code=200,
        summary="Merge a duplicate into another idea",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def merge_idea(self, idea: Idea, data: MergeBody, ideas: Ideas) -> TeamIdeaOut:
        """The votes and voters move to `into` (a person who voted for both counts once), and so do the
        linked feedback items; the merged idea points at `into`. Answers `into` as it is now."""
        return await team_out(ideas, await ideas.merge(idea, data.into))

    @get(
        "/ideas" + ONE + "/voters",
        summary="List an idea's voters, first votes first",
        responses=error_responses(400, 401, 403, 404),
    )
    async def list_voters(self, idea: Idea, ideas: Ideas, page: Page = 1, limit: Limit = 50) -> VoterList:
        """Each person's name and, when known, address (from their token or a confirmed address)."""
        votes, total = await ideas.voters(idea, page=page, limit=limit)
        return VoterList(
            voters=[Voter(name=v.name, email=v.email, voted_at=iso_z(v.created_at)) for v in votes],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @post(
        "/feedback/{feedback_id:str}/idea",
        status_code=201,
        summary="Count a feedback item as demand for an idea (existing, or new by title)",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def link_feedback(self, feedback_id: str, data: FeedbackIdeaBody, ideas: Ideas) -> FeedbackIdeaOut:
        """`{"idea_id"}` links to that idea, `{"title"}` to a new open idea with the item's message as its
        description. The item's reporter (notify_email) hears when the idea is done."""
        item_id = parse_uuid(feedback_id, "feedback_id")
        idea = await ideas.link_feedback(item_id, data.idea_id, data.title)
        return FeedbackIdeaOut(feedback_id=item_id, idea=await team_out(ideas, idea))


async def provide_entry(entry_id: str, changelog: Changelog) -> ChangelogEntry:
    return await changelog.get(parse_uuid(entry_id, "entry_id"))


async def entry_out(changelog: Changelog, entry: ChangelogEntry) -> ChangelogOut:
    return ChangelogOut.of(entry, (await changelog.idea_ids_of([entry]))[entry.id])


class ChangelogController(Controller):
    path = "/projects/{project_id:str}/changelog"
    tags = ["Ideas"]
    dependencies = {"changelog": provide(Changelog), "entry": Provide(provide_entry)}

    @post(
        "/",
        status_code=201,
        summary="Create a changelog entry (published at published_at; a draft without)",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def create_entry(self, data: ChangelogCreateBody, changelog: Changelog) -> ChangelogOut:
        """Published, it tells the voters of the ideas it names (each person once per idea)."""
        return await entry_out(changelog, await changelog.create(data))

    @get(
        "/",
        summary="List changelog entries, drafts then newest",
        responses=error_responses(400, 401, 403, 404),
    )
    async def list_entries(self, changelog: Changelog, page: Page = 1, limit: Limit = 20) -> ChangelogList:
        """Drafts (no published_at) first, then the published entries, newest first."""
        rows, total = await changelog.list(page=page, limit=limit)
        ids = await changelog.idea_ids_of(rows)
        return ChangelogList(
            entries=[ChangelogOut.of(row, ids[row.id]) for row in rows],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )

    @get("/{entry_id:str}", summary="Get a changelog entry", responses=error_responses(400, 401, 403, 404))
    async def get_entry(self, entry: ChangelogEntry, changelog: Changelog) -> ChangelogOut:
        """One entry of the project's changelog, draft or published."""
        return await entry_out(changelog, entry)

    @patch(
        "/{entry_id:str}",
        summary="Change a changelog entry",
        responses=error_responses(400, 401, 403, 404, 413, 415),
    )
    async def patch_entry(
        self, entry: ChangelogEntry, data: ChangelogPatchBody, changelog: Changelog
    ) -> ChangelogOut:
        """The fields sent change; once published, it tells the voters of the ideas it names (once each)."""
        return await entry_out(changelog, await changelog.update(entry, data))

    @delete(
        "/{entry_id:str}", summary="Delete a changelog entry", responses=error_responses(400, 401, 403, 404)
    )
    async def delete_entry(self, entry: ChangelogEntry, changelog: Changelog) -> None:
        """The entry goes; the ideas it named stay as they are."""
        await changelog.delete(entry)
