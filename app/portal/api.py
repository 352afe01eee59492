"""The portal as JSON, for apps that build their own board: reading needs nobody; suggesting, voting and
commenting need the person, named with the project's identity secret (`?user=&sig=`, `?token=` or
`Authorization: Bearer <JWT>`), else 401. Suggestions and comments pass the spam rules of the widgets
(honeypot `website`, `elapsed_ms`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Controller, Request, delete, get, post, put
from litestar.params import Parameter
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.ids import parse_uuid
from app.db.models import Idea
from app.db.paging import MAX_LIMIT, MAX_PAGE
from app.dependencies import request_settings
from app.errors import Unauthorized, error_responses
from app.ideas.bodies import (
    Author,
    ChangelogList,
    ChangelogOut,
    CommentBody,
    CommentOut,
    IdeaList,
    IdeaOut,
    PortalIdeaBody,
    StatusName,
    VoteOut,
)
from app.ideas.people import Person
from app.ideas.service import Changelog, Ideas
from app.ingest import spam_reason
from app.portal.visitors import language_of, portal_project, portal_service, presented_person
from app.schemas.pagination import Pagination
from app.timestamps import iso_z

Page = Annotated[int, Parameter(ge=1, le=MAX_PAGE, description="1-indexed page.")]
Limit = Annotated[int, Parameter(ge=1, le=MAX_LIMIT, description=f"Items per page, at most {MAX_LIMIT}.")]
ProjectKey = Annotated[str, Parameter(description="The project's public key.")]
IDENTITY = (
    "The person: `user` and `sig` (the hex HMAC-SHA256 of the user id keyed by the project's identity "
    "secret), `token` (a JWT signed HS256 with that secret: sub, exp, optional email and name), or "
    "`Authorization: Bearer <JWT>`."
)
User = Annotated[str | None, Parameter(query="user", max_length=200, description=IDENTITY)]
Sig = Annotated[str | None, Parameter(query="sig", max_length=128, description="See `user`.")]
Token = Annotated[str | None, Parameter(query="token", max_length=4096, description="See `user`.")]
NEEDS_PERSON = "identity: sign the user id (user, sig) or send a token signed with the identity secret"


class PortalApiController(Controller):
    path = "/api/v1/portal/{project_key:str}"
    tags = ["Ideas portal"]

    async def _ideas(
        self, request: Request[Any, Any, Any], session: AsyncSession, project_key: str, *, needs_person: bool
    ) -> tuple[Ideas, Person | None, bool]:
        settings = request_settings(request)
        project, portal = await portal_project(session, project_key)
        person = presented_person(request, settings, project)
        if person is not None:
            person = Person(person.key, person.name, person.email, language_of(request))
        if needs_person and person is None:
            raise Unauthorized(NEEDS_PERSON)
        return (
            portal_service(Ideas, session, project, settings),
            person,
            portal.auto_approve,
        )

    async def _persons_idea(
        self, request: Request[Any, Any, Any], session: AsyncSession, project_key: str, idea_id: str
    ) -> tuple[Ideas, Person, Idea]:
        """The idea a person acts on (voting, commenting): the person is needed (401 without)."""
        ideas, person, _ = await self._ideas(request, session, project_key, needs_person=True)
        assert person is not None
        return ideas, person, await ideas.get(parse_uuid(idea_id, "idea_id"), viewer=person, team=False)

    async def _vote(
        self,
        request: Request[Any, Any, Any],
        session: AsyncSession,
        project_key: str,
        idea_id: str,
        *,
        voted: bool,
    ) -> VoteOut:
        """The person's vote given (`voted`) or taken back, answered with the idea's count after it."""
        ideas, person, idea = await self._persons_idea(request, session, project_key, idea_id)
        await (ideas.vote if voted else ideas.unvote)(idea, person)
        return VoteOut(voted=voted, votes=idea.vote_count)

    @get(
        "/ideas",
        summary="List a portal's ideas",
        responses=error_responses(400, 401, 404),
        security=[],
    )
    async def list_portal_ideas(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        page: Page = 1,
        limit: Limit = 20,
        sort: Literal["top", "new", "trending"] = "top",
        status: StatusName | None = None,
        tag: Annotated[str | None, Parameter(max_length=40)] = None,
        search: Annotated[str | None, Parameter(query="q", max_length=200)] = None,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
    ) -> IdeaList:
        """Open ideas and the rest (declined ones only by status=declined), pinned first; a person named
        also sees their own pending suggestions."""
        ideas, person, _ = await self._ideas(request, db_session, project_key, needs_person=False)
        rows, total = await ideas.list(
            status=status, tag=tag, search=search, sort=sort, page=page, limit=limit, viewer=person
        )
        return IdeaList(
            ideas=await ideas.out(rows), pagination=Pagination.of(page=page, limit=limit, total=total)
        )

    @get(
        "/ideas/{idea_id:str}", summary="Get one idea", responses=error_responses(400, 401, 404), security=[]
    )
    async def get_portal_idea(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        idea_id: str,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
    ) -> IdeaOut:
        """An idea the reader may see: pending ones only to their author."""
        ideas, person, _ = await self._ideas(request, db_session, project_key, needs_person=False)
        idea = await ideas.get(parse_uuid(idea_id, "idea_id"), viewer=person, team=False)
        return (await ideas.out([idea]))[0]

    @post(
        "/ideas",
        status_code=201,
        summary="Suggest an idea (pending unless the project approves suggestions by itself)",
        responses=error_responses(400, 401, 404, 413, 415),
        security=[],
    )
    async def suggest_idea(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        data: PortalIdeaBody,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
    ) -> IdeaOut:
        """Needs the person (401 without). Judged spam (honeypot, too fast) it is answered the same and kept
        out of sight."""
        ideas, person, auto_approve = await self._ideas(request, db_session, project_key, needs_person=True)
        assert person is not None
        spam = spam_reason(data.website, data.elapsed_ms) is not None
        idea = await ideas.suggest(person, data.title, data.body, spam=spam, auto_approve=auto_approve)
        return (await ideas.out([idea]))[0]

    @put(
        "/ideas/{idea_id:str}/vote",
        summary="Vote for an idea (once per person)",
        responses=error_responses(400, 401, 404, 413, 415),
        security=[],
    )
    async def vote_idea(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        idea_id: str,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
    ) -> VoteOut:
        """Needs the person (401 without); voting again changes nothing."""
        return await self._vote(request, db_session, project_key, idea_id, voted=True)

    @delete(
        "/ideas/{idea_id:str}/vote",
        status_code=200,
        summary="Take a vote back",
        responses=error_responses(400, 401, 404),
        security=[],
    )
    async def unvote_idea(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        idea_id: str,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
    ) -> VoteOut:
        """Needs the person (401 without); without a vote there is nothing to take back."""
        return await self._vote(request, db_session, project_key, idea_id, voted=False)

    @post(
        "/ideas/{idea_id:str}/comments",
        status_code=201,
        summary="Comment on an idea",
        responses=error_responses(400, 401, 404, 413, 415),
        security=[],
    )
    async def comment_idea(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        idea_id: str,
        data: CommentBody,
        user: User = None,
        sig: Sig = None,
        token: Token = None,
    ) -> CommentOut:
        """Needs the person (401 without); `parent_id` answers another comment of the idea."""
        ideas, person, idea = await self._persons_idea(request, db_session, project_key, idea_id)
        spam = spam_reason(data.website, data.elapsed_ms) is not None
        comment = await ideas.comment(idea, data.body, person=person, parent_id=data.parent_id, spam=spam)
        return CommentOut(
            id=comment.id,
            body=comment.body,
            author=Author(name=comment.author_name or "Anonymous"),
            team=False,
            parent_id=comment.parent_id,
            created_at=iso_z(comment.created_at),
        )

    @get(
        "/changelog", summary="List the published changelog", responses=error_responses(400, 404), security=[]
    )
    async def portal_changelog(
        self,
        request: Request[Any, Any, Any],
        db_session: AsyncSession,
        project_key: ProjectKey,
        page: Page = 1,
        limit: Limit = 20,
    ) -> ChangelogList:
        """Published entries only, newest first."""
        settings = request_settings(request)
        project, _ = await portal_project(db_session, project_key)
        changelog = portal_service(Changelog, db_session, project, settings)
        rows, total = await changelog.list(published_only=True, page=page, limit=limit)
        ids = await changelog.idea_ids_of(rows)
        return ChangelogList(
            entries=[ChangelogOut.of(row, ids[row.id]) for row in rows],
            pagination=Pagination.of(page=page, limit=limit, total=total),
        )
