"""The churn report of a project: the cancellations Stripe and Polar reported, in a window of time.

Counted by month (with the change from the month before), by the reason the customer chose, by theme
of what they wrote (the themes the insights engine found over all the project's feedback, counted over
these items only), with the newest ones. Every cancellation counts, archived or not: archiving triages
the feedback, it does not undo the cancellation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackEmbedding, FeedbackItem, FeedbackReward, Project, Theme
from app.db.models.billing_items import BILLING_SOURCES, reason_of
from app.errors import InvalidRequest
from app.timestamps import utc_now

DEFAULT_MONTHS = 12
MAX_MONTHS = 120
RECENT = 10
THEMES = 8


@dataclass(frozen=True, slots=True)
class MonthCount:
    month: str
    """YYYY-MM (UTC)."""
    cancellations: int
    change: int | None
    """From the month before; None for the first month of the window."""


@dataclass(frozen=True, slots=True)
class ThemeCount:
    theme: Theme
    cancellations: int


@dataclass(frozen=True, slots=True)
class ChurnReport:
    since: datetime
    until: datetime
    cancellations: int
    by_reason: dict[str, int]
    by_month: list[MonthCount]
    themes: list[ThemeCount]
    recent: list[tuple[FeedbackItem, FeedbackReward | None]]


def churn_conditions(project_id: UUID, since: datetime, until: datetime) -> list[ColumnElement[bool]]:
    return [
        FeedbackItem.project_id == project_id,
        FeedbackItem.source.in_(BILLING_SOURCES),
        FeedbackItem.created_at >= since,
        FeedbackItem.created_at < until,
    ]


def churn_window(since: datetime | None, until: datetime | None) -> tuple[datetime, datetime]:
    """[since, until): by default the current month and the eleven before it."""
    end = until or utc_now()
    if since is None:
        months = max(end.year * 12 + end.month - 1 - (DEFAULT_MONTHS - 1), 12)  # not before year 1
        since = datetime(months // 12, months % 12 + 1, 1, tzinfo=UTC)
    if len(_months(since, end)) > MAX_MONTHS:
        raise InvalidRequest("since", f"the window may span at most {MAX_MONTHS} months")
    return since, end


async def churn_report(
    session: AsyncSession, project: Project, since: datetime | None, until: datetime | None
) -> ChurnReport:
    start, end = churn_window(since, until)
    where = churn_conditions(project.id, start, end)
    rows = (
        await session.execute(select(FeedbackItem.created_at, FeedbackItem.custom_data).where(*where))
    ).all()
    per_month = Counter(_month(created_at) for created_at, _ in rows)
    reasons = Counter(reason_of(metadata) for _, metadata in rows)
    by_month: list[MonthCount] = []
    for month in _months(start, end):
        previous = by_month[-1].cancellations if by_month else None
        count = per_month.get(month, 0)
        by_month.append(MonthCount(month, count, None if previous is None else count - previous))
    return ChurnReport(
        since=start,
        until=end,
        cancellations=len(rows),
        by_reason=dict(reasons.most_common()),
        by_month=by_month,
        themes=await _themes(session, where),
        recent=await _recent(session, where),
    )


async def _themes(session: AsyncSession, where: list[ColumnElement[bool]]) -> list[ThemeCount]:
    counted = (
        select(FeedbackEmbedding.theme_id, func.count().label("n"))
        .join(FeedbackItem, FeedbackItem.id == FeedbackEmbedding.id)
        .where(*where, FeedbackEmbedding.theme_id.is_not(None))
        .group_by(FeedbackEmbedding.theme_id)
        .subquery()
    )
    rows = await session.execute(
        select(Theme, counted.c.n)
        .join(counted, counted.c.theme_id == Theme.id)
        .order_by(counted.c.n.desc(), Theme.label)
        .limit(THEMES)
    )
    return [ThemeCount(theme, count) for theme, count in rows.tuples()]


async def _recent(
    session: AsyncSession, where: list[ColumnElement[bool]]
) -> list[tuple[FeedbackItem, FeedbackReward | None]]:
    rows = await session.execute(
        select(FeedbackItem, FeedbackReward)
        .outerjoin(FeedbackReward, FeedbackReward.feedback_id == FeedbackItem.id)
        .where(*where)
        .order_by(FeedbackItem.created_at.desc(), FeedbackItem.id.desc())
        .limit(RECENT)
    )
    return list(rows.tuples())


def _month(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m")


def _months(start: datetime, end: datetime) -> list[str]:
    """Every month [start, end) touches, oldest first."""
    first = start.astimezone(UTC).year * 12 + start.astimezone(UTC).month - 1
    last_moment = end.astimezone(UTC)
    last = last_moment.year * 12 + last_moment.month - 1
    if last_moment.day == 1 and last_moment.time() == datetime.min.time() and last > first:
        last -= 1  # an end at midnight on the 1st touches nothing of that month
    return [f"{n // 12:04d}-{n % 12 + 1:02d}" for n in range(first, last + 1)]
