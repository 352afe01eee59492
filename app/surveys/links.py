"""Single-use links to the hosted survey page, made for one user when the customer's backend reports a
lifecycle event (POST /projects/{pid}/lifecycle-events), for the customer's own mailer.

A link's token is 256 random bits, in the link only: the row keeps its SHA-256 digest. A link is valid
for LINK_DAYS days and opens the survey until its answers are submitted: that submit stores the response
as the link's user (submitted_by, verified: the customer's backend named them) and uses the link up, in
one transaction with the link row locked, so two submits of one link store one response.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Project, Survey, SurveyLink, SurveyResponse, SurveyStatus
from app.db.row_locks import lock_rows
from app.errors import ApiError
from app.services.projects import ProjectScoped
from app.surveys.responses import Submission, SurveyResponses
from app.timestamps import utc_now
from tenants.permissions import require
from tenants.scope import Access, widget_scope

LINK_DAYS = 30
LINK_PATH = "/survey/"
"""The hosted page's path, before the token."""


class LinkGone(ApiError):
    """The link cannot be answered (any more): used, expired, unknown, or its survey is not active."""

    status_code = 410
    code = "gone"

    def __init__(self, reason: str) -> None:
        super().__init__(f"this survey link {reason}")
        self.reason = reason


@dataclass(frozen=True)
class IssuedLink:
    survey_id: UUID
    url: str


class SurveyLinks(ProjectScoped):
    async def issue(self, event: str, user_id: str, language: str | None, base_url: str) -> list[IssuedLink]:
        """One new link per active survey of the project whose trigger names `event`."""
        require(self.scope, Access.WRITE)
        surveys = await self.session.scalars(
            select(Survey)
            .where(Survey.project_id == self.project.id, Survey.status == SurveyStatus.ACTIVE.value)
            .order_by(Survey.created_at, Survey.id)
        )
        issued = []
        expires_at = utc_now() + timedelta(days=LINK_DAYS)
        for survey in surveys:
            if survey.trigger.get("lifecycle_event") != event:
                continue
            token = secrets.token_urlsafe(32)
            self.session.add(
                SurveyLink(
                    survey_id=survey.id,
                    project_id=self.project.id,
                    token_digest=token_digest(token),
                    user_id=user_id,
                    language=language if language in survey.languages else None,
                    expires_at=expires_at,
                )
            )
            issued.append(IssuedLink(survey.id, f"{base_url}{LINK_PATH}{token}"))
        await self.session.flush()
        return issued


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class OpenedLink:
    link: SurveyLink
    survey: Survey
    language: str
    """The user's language when the survey has it, else the survey's default."""


async def open_link(session: AsyncSession, token: str, *, lock: bool = False) -> OpenedLink:
    """The link and its survey, or LinkGone saying why it opens nothing; `lock` locks the link row for
    the submit that uses it up."""
    where = [SurveyLink.token_digest == token_digest(token)]
    if lock:
        rows = await lock_rows(session, SurveyLink, where, [SurveyLink.id])
        link = rows[0] if rows else None
    else:
        link = await session.scalar(select(SurveyLink).where(*where))
    if link is None:
        raise LinkGone("is not valid")
    if link.used_at is not None:
        raise LinkGone("has been used")
    if link.expires_at <= utc_now():
        raise LinkGone("has expired")
    survey = await session.get(Survey, link.survey_id)
    if survey is None or survey.status != SurveyStatus.ACTIVE.value:
        raise LinkGone("belongs to a survey that is closed")
    language = link.language if link.language in survey.languages else survey.languages[0]
    return OpenedLink(link, survey, language)


async def answer_by_link(session: AsyncSession, token: str, submission: Submission) -> SurveyResponse:
    """Store the answers as the link's user, verified, and use the link up; raises LinkGone or the
    response's 400."""
    opened = await open_link(session, token, lock=True)
    project = await session.get(Project, opened.link.project_id)
    assert project is not None  # the link goes with its project
    submission.submitted_by = opened.link.user_id
    submission.submitted_by_verified = True
    submission.language = opened.language
    submission.completed = True
    response = await SurveyResponses(session, widget_scope(project.org_id), project).submit(
        opened.survey.id, submission
    )
    opened.link.used_at = utc_now()
    await session.flush()
    return response
