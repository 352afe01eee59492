"""The REST bodies of feedback items, similar items and themes, built in one place for the API and the MCP
tools: both answer the same shape (with `duplicate_count`) from the same services."""

from __future__ import annotations

from collections.abc import Sequence

from app.db.models import FeedbackItem
from app.schemas.feedback import FeedbackList, FeedbackOut
from app.schemas.insights import SimilarFeedback, SimilarItem, ThemeOut, ThemesOut
from app.schemas.pagination import Pagination
from app.services.attachments import FeedbackAttachments
from app.services.feedback_items import FeedbackItems
from app.services.insights import Insights, ThemesReport
from app.services.linked_issues import LinkedIssues
from app.services.time_bounds import parse_bounds
from app.timestamps import iso_z


async def feedback_out(items: FeedbackItems, item: FeedbackItem) -> FeedbackOut:
    """One item with how many items are marked as its duplicates and its attachments."""
    return (await feedback_bodies(items, [item]))[0]


async def feedback_page(
    items: FeedbackItems, found: list[FeedbackItem], *, page: int, limit: int, total: int
) -> FeedbackList:
    return FeedbackList(
        feedback=await feedback_bodies(items, found),
        pagination=Pagination.of(page=page, limit=limit, total=total),
    )


async def feedback_bodies(items: FeedbackItems, found: Sequence[FeedbackItem]) -> list[FeedbackOut]:
    """The items' bodies, with their duplicate counts, attachments and linked issues read in one query
    each."""
    counts = await items.duplicate_counts(found)
    attached = await FeedbackAttachments(items.session, items.scope, items.project).of_items(
        item.id for item in found
    )
    linked = await LinkedIssues(items.session, items.scope, items.project).of_items(item.id for item in found)
    return [
        FeedbackOut.of(
            item,
            duplicate_count=counts.get(item.id, 0),
            attachments=attached.get(item.id, ()),
            linked_issues=linked.get(item.id, ()),
        )
        for item in found
    ]


async def similar_items(
    items: FeedbackItems, insights: Insights, item: FeedbackItem, limit: int
) -> SimilarFeedback:
    found, pending = await insights.similar(item, limit)
    bodies = await feedback_bodies(items, [other for other, _ in found])
    return SimilarFeedback(
        items=[SimilarItem(body, round(score, 4)) for body, (_, score) in zip(bodies, found, strict=True)],
        pending=pending,
    )


async def themes(insights: Insights, since: str | None, until: str | None) -> ThemesOut:
    """The project's themes in [since, until), or 503 `unavailable` while insights are off or broken (the
    stored themes are not shown then: nothing keeps them current)."""
    insights.engine()
    start, end = parse_bounds(since, until)
    return _themes_out(await insights.themes(start, end))


def _themes_out(report: ThemesReport) -> ThemesOut:
    return ThemesOut(
        themes=[
            ThemeOut(
                id=str(summary.theme.id),
                label=summary.theme.label,
                keywords=list(summary.theme.keywords),
                count=summary.count,
                previous_count=summary.previous_count,
                sample_ids=[str(sample) for sample in summary.sample_ids],
                name=summary.theme.name,
                share=round(summary.share, 4),
                previous_share=round(summary.previous_share, 4),
                trend=summary.trend,
                confidence=summary.theme.confidence,
            )
            for summary in report.themes
        ],
        computed_at=iso_z(report.computed_at) if report.computed_at else None,
        pending=report.pending,
        unsorted=report.unsorted,
    )
