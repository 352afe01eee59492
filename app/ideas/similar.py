"""Ideas that say the same thing, by meaning and in any language, through the insights engine: offered
while someone types a suggestion, and to the team when merging.

Each idea's title and description get an `idea_vectors` row and an outbox job (kind "idea_embed") in the
transaction that stores them (a changed text empties the vector and queues it again); the dispatcher's
`IdeaEmbedSender` embeds off the event loop with the engine's embedder and writes the vectors. A lookup
embeds the typed text (the engine keeps recent texts' vectors), subtracts each language's mean from every
vector as the feedback search does, and ranks the project's visible ideas by cosine similarity.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from uuid import UUID

import numpy as np
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Idea, IdeaStatus, IdeaVector
from app.db.transactions import unit_of_work
from app.insights.embedders import EmbeddingsUnavailable, normalised
from app.insights.engine import insights_engine
from app.insights.vector_jobs import VectorSender, queue_vector_rows
from app.insights.vectors import comparable, to_bytes
from app.outbox import ClaimedJob, Outcome

IDEA_EMBED_JOB = "idea_embed"
MIN_SIMILARITY = 0.2
"""Below this an idea is not offered as the same: on en/de/sv pairs of the local model, ideas that
mean the same scored 0.22 to 0.61 and unrelated ones at most 0.11 (language means subtracted)."""
CANDIDATES = 2000
"""The latest visible ideas a lookup compares with: its cost stops growing there."""


def idea_text(idea: Idea) -> str:
    return f"{idea.title}\n{idea.body}".strip()


async def queue_idea_vectors(session: AsyncSession, ideas: Sequence[Idea]) -> None:
    """Ask for the vectors of these ideas (new, or their text changed) in the caller's transaction; with
    insights off nothing is queued."""
    if not ideas or not insights_engine().enabled:
        return
    ids, projects = [idea.id for idea in ideas], {idea.id: idea.project_id for idea in ideas}
    await queue_vector_rows(
        session,
        IDEA_EMBED_JOB,
        ids,
        select(IdeaVector).where(IdeaVector.idea_id.in_(ids)),
        lambda row: row.idea_id,
        lambda idea_id, job_id: IdeaVector(idea_id=idea_id, project_id=projects[idea_id], job_id=job_id),
    )


class IdeaEmbedSender(VectorSender):
    """The outbox handler of kind "idea_embed": each job's ideas embedded in one batch."""

    kind = IDEA_EMBED_JOB
    share = 2

    async def embed_job(self, job: ClaimedJob) -> Outcome:
        async with self._session_maker() as session:
            rows = list(
                await session.scalars(
                    select(Idea)
                    .join(IdeaVector, IdeaVector.idea_id == Idea.id)
                    .where(IdeaVector.job_id == job.id)
                    .order_by(Idea.id)
                )
            )
            found = [(idea.id, idea_text(idea)) for idea in rows]
        if not found:
            return Outcome(ok=True)
        vectors, languages = await self.embed([text for _, text in found])
        async with unit_of_work(self._session_maker) as session:
            for (idea_id, _), vector, language in zip(found, vectors, languages, strict=True):
                await session.execute(
                    update(IdeaVector)
                    .where(IdeaVector.idea_id == idea_id, IdeaVector.job_id == job.id)
                    .values(vector=to_bytes(vector), model=self.model, text_language=language)
                    .execution_options(synchronize_session=False)
                )
        return Outcome(ok=True)


async def similar_ideas(
    session: AsyncSession,
    org_id: UUID,
    project_id: UUID,
    text: str,
    *,
    limit: int = 5,
    exclude: UUID | None = None,
    include_pending: bool = False,
    minimum: float = MIN_SIMILARITY,
) -> list[tuple[Idea, float]]:
    """The project's ideas nearest in meaning to `text`, best first, at least `minimum` alike; none when
    insights are off or no vectors exist yet."""
    engine = insights_engine()
    if not engine.enabled or not text.strip():
        return []
    where = [
        IdeaVector.project_id == project_id,
        IdeaVector.vector.is_not(None),
        IdeaVector.model == engine.embedder.name,
        Idea.merged_into_id.is_(None),
        Idea.spam.is_(False),
    ]
    if not include_pending:
        where.append(Idea.status != IdeaStatus.PENDING.value)
    if exclude is not None:
        where.append(Idea.id != exclude)
    rows = (
        await session.execute(
            select(IdeaVector.idea_id, IdeaVector.text_language, IdeaVector.vector)
            .join(Idea, Idea.id == IdeaVector.idea_id)
            .where(*where)
            .order_by(Idea.created_at.desc())
            .limit(CANDIDATES)
        )
    ).all()
    if not rows:
        return []
    try:
        asked = await engine.query_vectors.of(engine.embedder, org_id, text[:2000])
    except EmbeddingsUnavailable:
        return []

    def rank() -> list[tuple[UUID, float]]:
        languages = [row.text_language for row in rows]
        ideas, means = comparable([row.vector for row in rows], languages, engine.embedder.name)
        fallback = np.mean(list(means.values()), axis=0)
        query = normalised((asked.vector - means.get(asked.language, fallback))[None, :])[0]
        scores = ideas @ query
        order = np.argsort(-scores)[:limit]
        return [(rows[i].idea_id, float(scores[i])) for i in order if scores[i] >= minimum]

    ranked = await asyncio.to_thread(rank)
    if not ranked:
        return []
    found = {
        idea.id: idea
        for idea in await session.scalars(select(Idea).where(Idea.id.in_([i for i, _ in ranked])))
    }
    return [(found[idea_id], score) for idea_id, score in ranked if idea_id in found]
