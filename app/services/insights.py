"""Insights of one project: similar items, ranking by meaning, themes and their refresh. Plain methods
on the request's scope and project (the API, the console and other callers use the same); the vectors,
matrices and clustering live in app/insights/."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from uuid import UUID

from sqlalchemy import func, or_, select

from app.db.id_lookups import checked_among
from app.db.models import FeedbackEmbedding, FeedbackItem, ProjectInsight, Theme
from app.errors import InvalidRequest, Unavailable
from app.insights.engine import InsightsEngine, insights_engine
from app.insights.jobs import update_insight
from app.insights.matrix import ProjectMatrix
from app.insights.shown_items import shown
from app.services.projects import ProjectScoped
from app.timestamps import utc_now

MAX_SIMILAR = 20
SEMANTIC_CANDIDATES = 1000
"""A search by meaning lists (and pages through) the project's items nearest the text, this many at most."""
SEMANTIC_MAX_LENGTH = 500
DEFAULT_WINDOW = timedelta(days=30)
SAMPLES = 3
THEMES_READS = 3
"""Reads of a themes report while recomputations keep committing under it; after the last, the report
names the computation seen when that read began (never a newer one than its themes)."""


@dataclass(frozen=True, slots=True)
class ThemeSummary:
    theme: Theme
    count: int
    previous_count: int
    sample_ids: list[UUID]


@dataclass(frozen=True, slots=True)
class ThemesReport:
    themes: list[ThemeSummary]
    computed_at: datetime | None
    pending: int
    since: datetime
    until: datetime


def _earlier(moment: datetime, span: timedelta) -> datetime:
    """`moment - span`, or the first moment a datetime can hold when that would be before year 1 (a
    window that starts in the first centuries)."""
    try:
        return moment - span
    except OverflowError:
        return datetime.min.replace(tzinfo=UTC)


class Insights(ProjectScoped):
    def engine(self) -> InsightsEngine:
        """The process's insights, or 503 `unavailable` saying why not (turned off, model not loaded)."""
        engine = insights_engine()
        status, why = engine.embedder.status()
        if status != "ok":
            raise Unavailable(why or "insights are unavailable")
        return engine

    async def matrix(self) -> ProjectMatrix:
        engine = self.engine()
        return await engine.matrices.of(self.session, self.project.id, engine.embedder.name)

    async def similar(
        self, item: FeedbackItem, limit: int = 5
    ) -> tuple[list[tuple[FeedbackItem, float]], bool]:
        """The items most like this one, best first, with their similarity (0..1), and whether this
        item's vector is still pending (then the list is empty)."""
        if not 1 <= limit <= MAX_SIMILAR:
            raise InvalidRequest("limit", f"must be between 1 and {MAX_SIMILAR}")
        matrix = await self.matrix()
        query = matrix.centred_row(item.id)
        if query is None:
            return [], True
        found: list[tuple[FeedbackItem, float]] = []
        wanted = limit * 3
        while True:
            nearest = matrix.nearest(query, wanted, exclude=item.id)
            found = await self._visible(nearest, limit)
            if len(found) >= limit or len(nearest) < wanted:
                return found, False
            wanted *= 4

    async def ranked(self, text: str) -> list[tuple[UUID, float]]:
        """The project's items nearest to a text, best first (at most SEMANTIC_CANDIDATES)."""
        if len(text) > SEMANTIC_MAX_LENGTH:
            raise InvalidRequest("semantic", f"must be at most {SEMANTIC_MAX_LENGTH} characters")
        engine = self.engine()
        matrix = await self.matrix()
        if len(matrix) == 0:
            return []
        try:
            asked = await engine.query_vectors.of(engine.embedder, self.project.org_id, text)
        except Exception as exc:
            raise Unavailable(f"search by meaning is unavailable: {exc}") from exc
        return matrix.nearest(matrix.centred_query(asked.vector, asked.language), SEMANTIC_CANDIDATES)

    async def theme(self, theme_id: str) -> Theme:
        """A theme of this project, or 400 naming the `theme` parameter."""
        try:
            key = UUID(theme_id)
        except ValueError:
            raise InvalidRequest("theme", "must be the id of a theme of this project") from None
        theme = await self.session.scalar(
            select(Theme).where(Theme.id == key, Theme.project_id == self.project.id)
        )
        if theme is None:
            raise InvalidRequest(
                "theme", "no theme with this id in this project (themes change when recomputed)"
            )
        return theme

    async def themes(self, since: datetime | None, until: datetime | None) -> ThemesReport:
        """The project's themes with their counts in [since, until) and in the window of equal length
        before it (default: the last 30 days), biggest first; themes without items in the window are
        left out.

        Each statement sees the latest commit (READ COMMITTED on PostgreSQL, SQLite outside a write), so
        a recomputation may commit between them. `computed_at` is read first and again at the end, and
        the report read again while it moved: it never names a newer computation than the themes shown,
        and a client waiting for it to move after a refresh sees that computation's themes."""
        end = until or utc_now()
        start = since or _earlier(end, DEFAULT_WINDOW)
        seen = await self._computed_at()
        for _ in range(THEMES_READS):
            computed_at = seen  # as it stood before this read of the themes
            summaries, pending = await self._themes_in(start, end)
            seen = await self._computed_at()
            if seen == computed_at:
                break
        return ThemesReport(summaries, computed_at, pending, start, end)

    async def _computed_at(self) -> datetime | None:
        return await self.session.scalar(
            select(ProjectInsight.themes_computed_at).where(ProjectInsight.project_id == self.project.id)
        )

    async def _themes_in(self, start: datetime, end: datetime) -> tuple[list[ThemeSummary], int]:
        previous_start = _earlier(start, end - start)
        current = await self._counts(start, end)
        previous = await self._counts(previous_start, start)
        themes = list(
            await self.session.scalars(
                select(Theme)
                .where(Theme.project_id == self.project.id)
                .execution_options(populate_existing=True)  # labels as they are now, on a second read
            )
        )
        summaries = [
            ThemeSummary(
                theme, current[theme.id], previous.get(theme.id, 0), await self._samples(theme, start, end)
            )
            for theme in themes
            if current.get(theme.id)
        ]
        summaries.sort(key=lambda summary: (-summary.count, summary.theme.label))
        pending = await self.session.scalar(
            select(func.count())
            .select_from(FeedbackItem)
            .outerjoin(FeedbackEmbedding, FeedbackEmbedding.id == FeedbackItem.id)
            .where(
                *shown([FeedbackItem.project_id == self.project.id]),
                FeedbackItem.created_at >= start,
                FeedbackItem.created_at < end,
                or_(FeedbackEmbedding.id.is_(None), FeedbackEmbedding.vector.is_(None)),
            )
        )
        return summaries, pending or 0

    async def request_refresh(self) -> None:
        """Ask for the themes to be recomputed (by whichever process takes it first); this process looks
        at once."""
        self.engine()
        await update_insight(self.session, self.project.id, themes_requested=True)
        insights_engine().want_themes()

    async def _visible(
        self, nearest: list[tuple[UUID, float]], limit: int
    ) -> list[tuple[FeedbackItem, float]]:
        if not nearest:
            return []
        items = {
            item.id: item
            for item in await self.session.scalars(
                select(FeedbackItem).where(
                    *checked_among(
                        self.session,
                        FeedbackItem.id,
                        [feedback_id for feedback_id, _ in nearest],
                        shown([FeedbackItem.project_id == self.project.id]),
                    )
                )
            )
        }
        found = [(items[i], max(0.0, min(1.0, score))) for i, score in nearest if i in items]
        return found[:limit]

    async def theme_counts(self, start: datetime, end: datetime) -> dict[UUID, int]:
        """Each theme's shown items in [start, end) (themes without any left out)."""
        return await self._counts(start, end)

    async def _counts(self, start: datetime, end: datetime) -> dict[UUID, int]:
        rows = await self.session.execute(
            select(FeedbackEmbedding.theme_id, func.count())
            .join(FeedbackItem, FeedbackItem.id == FeedbackEmbedding.id)
            .where(
                *shown([FeedbackItem.project_id == self.project.id]),
                FeedbackEmbedding.theme_id.is_not(None),
                FeedbackItem.created_at >= start,
                FeedbackItem.created_at < end,
            )
            .group_by(FeedbackEmbedding.theme_id)
        )
        return {theme_id: count for theme_id, count in rows.tuples()}

    async def _samples(self, theme: Theme, start: datetime, end: datetime) -> list[UUID]:
        rows = await self.session.scalars(
            select(FeedbackItem.id)
            .join(FeedbackEmbedding, FeedbackEmbedding.id == FeedbackItem.id)
            .where(
                *shown([FeedbackItem.project_id == self.project.id]),
                FeedbackEmbedding.theme_id == theme.id,
                FeedbackItem.created_at >= start,
                FeedbackItem.created_at < end,
            )
            .order_by(FeedbackItem.created_at.desc(), FeedbackItem.id.desc())
            .limit(SAMPLES)
        )
        return list(rows)
