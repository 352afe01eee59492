"""The MCP tools: each calls the service its REST route calls and answers the REST body's shape.

A tool runs in one database session of its own with the caller's `OrgScope`, so tenancy, validation,
permissions, the audit log and the webhook events are exactly the API's; a tool that changes data commits
before it answers, as a REST request does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from app.alerts.service import Alerts
from app.config import Settings
from app.db.models import FeedbackSource, Project, RatingType
from app.dependencies import Service, build
from app.ideas.bodies import IdeaPatchBody, TeamIdeaList, TeamIdeaOut
from app.ideas.service import Ideas
from app.mcp.tool_arguments import (
    AlertListArguments,
    Arguments,
    ContactMessageListArguments,
    FeedbackArguments,
    FeedbackCreateArguments,
    FeedbackListArguments,
    FeedbackUpdateArguments,
    IdeaListArguments,
    IdeaUpdateArguments,
    ProjectArguments,
    RatingListArguments,
    RatingStatsArguments,
    RatingVersionsArguments,
    SimilarFeedbackArguments,
    SurveyCreateArguments,
    SurveyListArguments,
    SurveyResultsArguments,
    SurveyStatusArguments,
    ThemeListArguments,
    WorstPagesArguments,
)
from app.schemas.alerts import AlertList, AlertOut
from app.schemas.contact_message import ContactMessageList, ContactMessageOut
from app.schemas.feedback import FeedbackList, FeedbackOut
from app.schemas.insights import SimilarFeedback, ThemesOut
from app.schemas.pagination import Pagination
from app.schemas.project import ProjectList, ProjectOut
from app.schemas.rating import TypedRatingList, TypedRatingOut
from app.schemas.rating_stats import RatingStats, RatingVersions
from app.services.contact_messages import ContactMessages
from app.services.feedback_bodies import feedback_out, feedback_page, similar_items, themes
from app.services.feedback_items import FeedbackChanges, FeedbackFilter, FeedbackItems
from app.services.helpful_pages import HelpfulPages
from app.services.insights import Insights
from app.services.projects import Projects, parse_uuid
from app.services.rating_stats import RatingStatistics
from app.services.ratings import Ratings
from app.services.time_bounds import parse_bounds
from app.surveys.bodies import SurveyCreateBody, SurveyList, SurveyOut, SurveyResults
from app.surveys.results import survey_results
from app.surveys.service import Surveys
from tenants.scope import OrgScope

A = TypeVar("A", bound=msgspec.Struct)


@dataclass(frozen=True, slots=True)
class ToolCall:
    """What a tool works with: the call's session and the caller's organization scope."""

    session: AsyncSession
    scope: OrgScope
    settings: Settings | None = None

    def service(self, service: type[Service], project: Project | None = None) -> Service:
        """A service in this call's session and scope, built the way a request's dependencies build it."""
        return build(service, self.session, self.scope, project, self.settings)

    async def project(self, ref: str) -> Project:
        """The project named by id or key, within the caller's organization (another's is not found)."""
        return await self.service(Projects).get(ref)


Answer = tuple[msgspec.Struct, str]
"""The REST body and a one-line summary for the assistant."""


@dataclass(frozen=True, slots=True)
class Tool(Generic[A]):
    name: str
    title: str
    description: str
    arguments: type[A]
    run: Callable[[ToolCall, A], Awaitable[Answer]]
    output: Any = None
    """The type whose JSON schema is the tool's output schema."""
    writes: bool = False
    """Changes data: needs write access, and a read token does not see it."""
    destructive: bool = False


async def list_projects(call: ToolCall, _: Arguments) -> Answer:
    projects = call.service(Projects)
    items = await projects.list()
    counts = await projects.feedback_counts(items)
    body = ProjectList(projects=[ProjectOut.of(p, counts[p.id]) for p in items])
    names = ", ".join(f"{p.name} ({p.id})" for p in body.projects)
    return body, f"{len(items)} projects: {names}" if items else "No projects yet."


async def get_project(call: ToolCall, args: ProjectArguments) -> Answer:
    project = await call.project(args.project_id)
    counts = await call.service(Projects).feedback_counts([project])
    body = ProjectOut.of(project, counts[project.id])
    return body, f"Project {body.name} ({body.id}) with {body.feedback_count} feedback items."


async def list_feedback(call: ToolCall, args: FeedbackListArguments) -> Answer:
    project = await call.project(args.project_id)
    items = call.service(FeedbackItems, project)
    where = FeedbackFilter(
        status=args.status,
        type=args.type,
        source=args.source,
        path=args.path,
        search=args.search,
        archived=args.archived,
        semantic=args.semantic,
    )
    if args.theme is not None:
        where = replace(where, theme=(await call.service(Insights, project).theme(args.theme)).id)
    found, total = await items.list(where, page=args.page, limit=args.limit)
    body = await feedback_page(items, found, page=args.page, limit=args.limit, total=total)
    return body, _page_text(len(found), total, args.page, "feedback items")


async def get_feedback(call: ToolCall, args: FeedbackArguments) -> Answer:
    items = call.service(FeedbackItems, await call.project(args.project_id))
    item = await feedback_out(items, await items.get(parse_uuid(args.feedback_id, "feedback_id")))
    return item, f"{item.type} feedback {item.id}, status {item.status}: {_excerpt(item.message)}"


async def create_feedback(call: ToolCall, args: FeedbackCreateArguments) -> Answer:
    items = call.service(FeedbackItems, await call.project(args.project_id))
    created = await items.create(
        message=args.message,
        type=args.type,
        status=args.status,
        source=FeedbackSource.MANUAL,
        path=args.path,
        version=args.version,
        submitted_by=args.submitted_by,
        metadata=args.metadata,
    )
    item = FeedbackOut.of(created)
    return item, f"Created {item.type} feedback {item.id} with status {item.status}."


async def update_feedback(call: ToolCall, args: FeedbackUpdateArguments) -> Answer:
    items = call.service(FeedbackItems, await call.project(args.project_id))
    item = await items.get(parse_uuid(args.feedback_id, "feedback_id"))
    changes: FeedbackChanges = {
        key: value  # type: ignore[misc]
        for key, value in msgspec.structs.asdict(args).items()
        if value is not msgspec.UNSET and key not in ("project_id", "feedback_id")
    }
    body = await feedback_out(items, await items.update(item, changes))
    changed = ", ".join(f"{key} {value}" for key, value in changes.items() if key != "message") or "nothing"
    return body, f"Updated feedback {body.id}: {changed}."


async def list_ratings(call: ToolCall, args: RatingListArguments) -> Answer:
    ratings = call.service(Ratings, await call.project(args.project_id))
    found, total = await ratings.page(RatingType(args.type), page=args.page, limit=args.limit, path=args.path)
    body = TypedRatingList(
        ratings=[TypedRatingOut.of(r) for r in found],
        pagination=Pagination.of(page=args.page, limit=args.limit, total=total),
    )
    return body, _page_text(len(found), total, args.page, f"{args.type} ratings")


async def rating_stats_tool(call: ToolCall, args: RatingStatsArguments) -> Answer:
    project = await call.project(args.project_id)
    start, end = parse_bounds(args.since, args.until)
    stats = await call.service(RatingStatistics, project).stats(RatingType(args.type), args.path, start, end)
    return stats, f"{args.type} rating statistics of {project.name}: {msgspec.json.encode(stats).decode()}"


async def rating_versions(call: ToolCall, args: RatingVersionsArguments) -> Answer:
    project = await call.project(args.project_id)
    body = await call.service(RatingStatistics, project).versions(RatingType(args.type), args.path)
    return body, f"{len(body.versions)} versions with {args.type} ratings in {project.name}."


class WorstPage(msgspec.Struct):
    path: str
    not_helpful: int
    helpful: int
    percentage: float
    """The helpful share in percent."""


class WorstPages(msgspec.Struct):
    pages: list[WorstPage]


async def worst_pages(call: ToolCall, args: WorstPagesArguments) -> Answer:
    project = await call.project(args.project_id)
    pages = await call.service(HelpfulPages, project).most_not_helpful(args.limit)
    body = WorstPages(
        pages=[WorstPage(p.path, p.not_helpful, p.helpful, p.percentage) for p in pages],
    )
    lines = "; ".join(f"{p.path}: {p.not_helpful} not helpful, {p.percentage}% helpful" for p in pages)
    return body, f"Pages with the most 'not helpful' votes: {lines}" if pages else "No 'not helpful' votes."


async def list_contact_messages(call: ToolCall, args: ContactMessageListArguments) -> Answer:
    messages = call.service(ContactMessages, await call.project(args.project_id))
    found, total = await messages.list(
        search=args.search, archived=args.archived, page=args.page, limit=args.limit
    )
    body = ContactMessageList(
        contact_messages=[ContactMessageOut.of(r) for r in found],
        pagination=Pagination.of(page=args.page, limit=args.limit, total=total),
    )
    return body, _page_text(len(found), total, args.page, "contact messages")


async def list_themes(call: ToolCall, args: ThemeListArguments) -> Answer:
    insights = call.service(Insights, await call.project(args.project_id))
    body = await themes(insights, args.since, args.until)
    lines = "; ".join(
        f"{t.name or t.label} ({t.count}, previously {t.previous_count}, {t.trend}, theme {t.id})"
        for t in body.themes
    )
    return body, f"{len(body.themes)} themes: {lines}" if body.themes else "No themes in this period."


async def similar_feedback(call: ToolCall, args: SimilarFeedbackArguments) -> Answer:
    project = await call.project(args.project_id)
    items = call.service(FeedbackItems, project)
    item = await items.get(parse_uuid(args.feedback_id, "feedback_id"))
    body = await similar_items(items, call.service(Insights, project), item, args.limit)
    if body.pending:
        return body, "This item's meaning is not computed yet; ask again in a moment."
    lines = "; ".join(
        f"{s.feedback.id} ({s.similarity}): {_excerpt(s.feedback.message, 80)}" for s in body.items
    )
    return body, f"{len(body.items)} similar items: {lines}" if body.items else "No similar items."


async def list_surveys(call: ToolCall, args: SurveyListArguments) -> Answer:
    surveys = call.service(Surveys, await call.project(args.project_id))
    found, total = await surveys.list(status=args.status, page=args.page, limit=args.limit)
    counts = await surveys.response_counts(found)
    body = SurveyList(
        surveys=[SurveyOut.of(survey, counts[survey.id]) for survey in found],
        pagination=Pagination.of(page=args.page, limit=args.limit, total=total),
    )
    return body, _page_text(len(found), total, args.page, "surveys")


async def survey_results_tool(call: ToolCall, args: SurveyResultsArguments) -> Answer:
    surveys = call.service(Surveys, await call.project(args.project_id))
    survey = await surveys.get(parse_uuid(args.survey_id, "survey_id"))
    body = await survey_results(
        call.session, survey, since=args.since, until=args.until, language=args.language
    )
    scores = [f"NPS {q.nps.score}" for q in body.questions if q.nps is not None and q.nps.score is not None]
    means = [f"{q.id} mean {q.mean}" for q in body.questions if q.mean is not None]
    summary = ", ".join([*scores, *means])
    return body, f"{body.responses} responses, {body.completed} completed" + (
        f": {summary}." if summary else "."
    )


async def create_survey(call: ToolCall, args: SurveyCreateArguments) -> Answer:
    surveys = call.service(Surveys, await call.project(args.project_id))
    survey = await surveys.create(SurveyCreateBody(template=args.template, name=args.name))
    body = SurveyOut.of(survey, 0)
    return body, f"Created the draft survey {body.name} ({body.id}) from the {args.template} template."


async def set_survey_status(call: ToolCall, args: SurveyStatusArguments) -> Answer:
    surveys = call.service(Surveys, await call.project(args.project_id))
    survey = await surveys.set_status(await surveys.get(parse_uuid(args.survey_id, "survey_id")), args.status)
    body = SurveyOut.of(survey, (await surveys.response_counts([survey]))[survey.id])
    return body, f"Survey {body.name} ({body.id}) is {body.status}."


async def list_alerts(call: ToolCall, args: AlertListArguments) -> Answer:
    alerts = call.service(Alerts, await call.project(args.project_id))
    body = AlertList([AlertOut.of(alert) for alert in await alerts.list(args.status)])
    lines = "; ".join(f"{a.status}: {a.title} (since {a.opened_at}, alert {a.id})" for a in body.alerts)
    return body, f"{len(body.alerts)} alerts: {lines}" if body.alerts else "No alerts."


async def list_ideas(call: ToolCall, args: IdeaListArguments) -> Answer:
    ideas = call.service(Ideas, await call.project(args.project_id))
    rows, total = await ideas.list(
        status=args.status,
        tag=args.tag,
        search=args.search,
        sort=args.sort,
        page=args.page,
        limit=args.limit,
        team=True,
    )
    tags = await ideas.tags_of(rows)
    body = TeamIdeaList(
        ideas=[TeamIdeaOut.of(row, tags[row.id]) for row in rows],
        pagination=Pagination.of(page=args.page, limit=args.limit, total=total),
    )
    lines = "; ".join(f"{i.title} ({i.status}, {i.votes} votes, idea {i.id})" for i in body.ideas)
    return body, _page_text(len(rows), total, args.page, "ideas") + (f" {lines}" if lines else "")


async def update_idea(call: ToolCall, args: IdeaUpdateArguments) -> Answer:
    ideas = call.service(Ideas, await call.project(args.project_id))
    idea = await ideas.get(parse_uuid(args.idea_id, "idea_id"))
    change = IdeaPatchBody(
        status=args.status, response=args.response, tags=args.tags, title=args.title, pinned=args.pinned
    )
    await ideas.update(idea, change)
    body = TeamIdeaOut.of(idea, (await ideas.tags_of([idea]))[idea.id])
    return body, f"Idea {body.title} ({body.id}) is {body.status} with {body.votes} votes."


def _page_text(shown: int, total: int, page: int, what: str) -> str:
    return f"{shown} of {total} {what} (page {page})."


def _excerpt(text: str, length: int = 200) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


TOOLS: tuple[Tool[Any], ...] = (
    Tool(
        "list_projects",
        "List projects",
        "Every project of the organization, with its id, public key and feedback count.",
        Arguments,
        list_projects,
        ProjectList,
    ),
    Tool(
        "get_project",
        "Get a project",
        "One project by id or public key.",
        ProjectArguments,
        get_project,
        ProjectOut,
    ),
    Tool(
        "list_feedback",
        "List feedback",
        "Feedback items of a project, newest first, one page at a time (limit at most 100). Filters combine; "
        "archived items only with archived=true.",
        FeedbackListArguments,
        list_feedback,
        FeedbackList,
    ),
    Tool(
        "get_feedback",
        "Get a feedback item",
        "One feedback item of a project, archived or not.",
        FeedbackArguments,
        get_feedback,
        FeedbackOut,
    ),
    Tool(
        "create_feedback",
        "Create a feedback item",
        "Store a feedback item entered by hand (source Manual), status New unless another is given.",
        FeedbackCreateArguments,
        create_feedback,
        FeedbackOut,
        writes=True,
    ),
    Tool(
        "update_feedback",
        "Update a feedback item",
        "Change a feedback item's status, type, assignee (a member's user id, or null), message, "
        "resolution note, archived flag or duplicate_of (the id of the item it repeats, which closes "
        "it; null unlinks); only the fields given change and each change is recorded in its history. "
        "archived=true hides it from lists (archived=false restores it).",
        FeedbackUpdateArguments,
        update_feedback,
        FeedbackOut,
        writes=True,
        destructive=True,
    ),
    Tool(
        "list_ratings",
        "List ratings",
        "Ratings of one type (helpful, star or nps) of a project, newest first, one page at a time.",
        RatingListArguments,
        list_ratings,
        TypedRatingList,
    ),
    Tool(
        "rating_stats",
        "Rating statistics",
        "Statistics of one rating type over a time range (since inclusive, until exclusive): counts, "
        "averages or NPS, and the reasons given with a 'not helpful'.",
        RatingStatsArguments,
        rating_stats_tool,
        RatingStats,
    ),
    Tool(
        "rating_versions",
        "Ratings per version",
        "All-time statistics of each version of the project's content or app, in the order first seen, "
        "so a release can be compared with the one before it.",
        RatingVersionsArguments,
        rating_versions,
        RatingVersions,
    ),
    Tool(
        "worst_pages",
        "Least helpful pages",
        "The pages with the most 'not helpful' votes, with their helpful share: where to work first.",
        WorstPagesArguments,
        worst_pages,
        WorstPages,
    ),
    Tool(
        "list_contact_messages",
        "List contact messages",
        "Contact messages of a project, newest first, one page at a time; search looks in name, email, "
        "subject and message.",
        ContactMessageListArguments,
        list_contact_messages,
        ContactMessageList,
    ),
    Tool(
        "list_themes",
        "List themes",
        "Groups of feedback that say the same thing, biggest first, with their counts against the previous "
        "period of equal length.",
        ThemeListArguments,
        list_themes,
        ThemesOut,
    ),
    Tool(
        "similar_feedback",
        "Similar feedback",
        "The feedback items of the project closest in meaning to one item, most similar first (at most 20).",
        SimilarFeedbackArguments,
        similar_feedback,
        SimilarFeedback,
    ),
    Tool(
        "list_surveys",
        "List surveys",
        "Surveys of a project, newest first, one page at a time, each with its status, questions, trigger, "
        "audience and response count.",
        SurveyListArguments,
        list_surveys,
        SurveyList,
    ),
    Tool(
        "survey_results",
        "Survey results",
        "A survey's results over whole UTC days (since inclusive, until through its day), every language in "
        "one unless language is given: responses, completed, and per question the answers with a "
        "distribution and mean (rating), the NPS score (nps) or counts per choice.",
        SurveyResultsArguments,
        survey_results_tool,
        SurveyResults,
    ),
    Tool(
        "create_survey",
        "Create a survey from a template",
        "A draft survey from a template (nps, csat, ces, pmf or churn_reason) with its questions in English, "
        "German and Swedish; activate it with set_survey_status.",
        SurveyCreateArguments,
        create_survey,
        SurveyOut,
        writes=True,
    ),
    Tool(
        "set_survey_status",
        "Set a survey's status",
        "Activate (active), pause (paused) or complete (completed) a survey. Activating checks that every "
        "text exists in each of its languages and that skip logic only goes forward.",
        SurveyStatusArguments,
        set_survey_status,
        SurveyOut,
        writes=True,
        destructive=True,
    ),
    Tool(
        "list_alerts",
        "List alerts",
        "The project's alerts, newest first: one per episode of a page's or version's ratings falling, a "
        "theme surging or negative answers spiking, with before and after, p-value and example items.",
        AlertListArguments,
        list_alerts,
        AlertList,
    ),
    Tool(
        "list_ideas",
        "List ideas",
        "Ideas of a project's public portal, pinned first, by votes (top), newest (new) or trend (trending), "
        "one page at a time, each with its status, vote and comment counts, tags and the team's response; "
        "pending suggestions are included.",
        IdeaListArguments,
        list_ideas,
        TeamIdeaList,
    ),
    Tool(
        "update_idea",
        "Update an idea",
        "Change an idea's status (pending, open, planned, in_progress, done, declined), the team's public "
        "response, tags, title or pin; only the fields given change. Done tells its voters once by mail.",
        IdeaUpdateArguments,
        update_idea,
        TeamIdeaOut,
        writes=True,
        destructive=True,
    ),
)
