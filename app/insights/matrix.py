"""A project's vectors in one numpy matrix, kept per worker and brought up to date by the project's
`embeddings_version`: a changed version loads only the rows written under a newer one, so a busy project
does not reload 100,000 vectors for each new item.

Scores are cosine similarities of language-centred vectors, computed from the raw matrix in one
product: (x·q - m_lang·q) / |x - m_lang|, with the norms refreshed whenever the means move.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

import numpy as np
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackEmbedding, ProjectInsight
from app.insights.embedders import normalised
from app.insights.vectors import OTHER, from_bytes, language_means, reference_means

LOAD_CHUNK = 5000
CACHED_PROJECTS = 4
"""Matrices a worker keeps (least recently used goes first): 100,000 vectors take about 150 MB."""
ANSWERS_KEPT = 16
"""Answers of `nearest` a matrix keeps (a thousand ids each, about 100 KB)."""


@dataclass
class ProjectMatrix:
    model: str
    version: int = -1
    ids: list[UUID] = field(default_factory=list)
    index: dict[UUID, int] = field(default_factory=dict)
    raw: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    languages: list[str | None] = field(default_factory=list)
    means: dict[str | None, np.ndarray] = field(default_factory=dict)
    language_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    mean_table: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    norms: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    answers: OrderedDict[tuple[bytes, int, UUID | None], list[tuple[UUID, float]]] = field(
        default_factory=OrderedDict
    )
    """Recent answers of `nearest`, until the rows change."""

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, rows: Sequence[tuple[UUID, str | None, bytes]]) -> None:
        """Add or replace rows, then refresh the means and norms."""
        self.answers.clear()
        fresh: list[np.ndarray] = []
        for feedback_id, language, data in rows:
            vector = from_bytes(data)
            position = self.index.get(feedback_id)
            if position is not None and self.raw.shape[1] == vector.shape[0]:
                self.raw[position] = vector
                self.languages[position] = language
                continue
            self.index[feedback_id] = len(self.ids)
            self.ids.append(feedback_id)
            self.languages.append(language)
            fresh.append(vector)
        if fresh:
            added = np.vstack(fresh).astype(np.float32)
            self.raw = added if self.raw.size == 0 else np.vstack([self.raw, added])
        self._refresh()

    def _refresh(self) -> None:
        reference = reference_means(self.model)
        self.means = language_means(self.raw, self.languages, reference)
        order = list(self.means)
        self.mean_table = np.stack([self.means[language] for language in order]).astype(np.float32)
        position = {language: i for i, language in enumerate(order)}
        self.language_rows = np.array([position[language] for language in self.languages], dtype=np.int64)
        shifted_dot = np.einsum("ij,ij->i", self.raw, self.mean_table[self.language_rows])
        squares = (
            1.0
            - 2.0 * shifted_dot
            + np.einsum("ij,ij->i", self.mean_table, self.mean_table)[self.language_rows]
        )
        self.norms = np.sqrt(np.maximum(squares, 1e-12)).astype(np.float32)

    def mean_for(self, language: str | None) -> np.ndarray:
        if language in self.means:
            return self.means[language]
        reference = reference_means(self.model)
        if language in reference:
            return reference[language]
        return reference.get(OTHER, self.raw.mean(axis=0) if len(self) else 0.0)  # type: ignore[return-value]

    def centred_query(self, vector: np.ndarray, language: str | None) -> np.ndarray:
        return normalised((vector - self.mean_for(language))[None, :])[0]

    def centred_row(self, feedback_id: UUID) -> np.ndarray | None:
        position = self.index.get(feedback_id)
        if position is None:
            return None
        return (self.raw[position] - self.mean_table[self.language_rows[position]]) / self.norms[position]

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Cosine similarity of every row's centred vector with a centred, normalised query."""
        if len(self) == 0:
            return np.zeros(0, np.float32)
        return (self.raw @ query - (self.mean_table @ query)[self.language_rows]) / self.norms

    def nearest(self, query: np.ndarray, count: int, exclude: UUID | None = None) -> list[tuple[UUID, float]]:
        """The `count` best rows, best first, as (feedback id, similarity). The same question asked again
        before the rows change (the next page of a search) is answered without scoring every row."""
        key = (query.tobytes(), count, exclude)
        answer = self.answers.get(key)
        if answer is None:
            answer = self.answers[key] = self._nearest(query, count, exclude)
            while len(self.answers) > ANSWERS_KEPT:
                self.answers.popitem(last=False)
        self.answers.move_to_end(key)
        return list(answer)

    def _nearest(self, query: np.ndarray, count: int, exclude: UUID | None) -> list[tuple[UUID, float]]:
        scores = self.scores(query)
        if exclude is not None and exclude in self.index:
            scores[self.index[exclude]] = -np.inf
        count = min(count, len(scores))
        if count <= 0:
            return []
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top], kind="stable")]
        top = top[np.isfinite(scores[top])]
        # Whole arrays to Python at once: per-element numpy scalars cost more than the sort.
        return list(zip([self.ids[i] for i in top.tolist()], scores[top].tolist(), strict=True))


class Matrices:
    """The worker's matrices, one per project and embedder."""

    def __init__(self) -> None:
        self._cache: OrderedDict[tuple[UUID, str], ProjectMatrix] = OrderedDict()
        self._lock = asyncio.Lock()

    async def of(self, session: AsyncSession, project_id: UUID, model: str) -> ProjectMatrix:
        version = (
            await session.scalar(
                select(ProjectInsight.embeddings_version).where(ProjectInsight.project_id == project_id)
            )
            or 0
        )
        key = (project_id, model)
        async with self._lock:
            matrix = self._cache.get(key)
            if matrix is not None and matrix.version == version:
                self._cache.move_to_end(key)
                return matrix
            matrix = matrix or ProjectMatrix(model=model)
            rows = await _rows_after(session, project_id, model, matrix.version)
            if rows:
                matrix.add(rows)
            matrix.version = version
            self._cache[key] = matrix
            self._cache.move_to_end(key)
            while len(self._cache) > CACHED_PROJECTS:
                self._cache.popitem(last=False)
            return matrix


async def _rows_after(
    session: AsyncSession, project_id: UUID, model: str, version: int
) -> list[tuple[UUID, str | None, bytes]]:
    """The project's vectors written under a version newer than `version`, read LOAD_CHUNK at a time
    (in id order): a large project's first load is many short statements, none near the timeout."""
    rows: list[tuple[UUID, str | None, bytes]] = []
    last: UUID | None = None
    while True:
        query = (
            select(FeedbackEmbedding.id, FeedbackEmbedding.language, FeedbackEmbedding.vector)
            .where(
                FeedbackEmbedding.project_id == project_id,
                FeedbackEmbedding.version > version,
                FeedbackEmbedding.model == model,
                FeedbackEmbedding.vector.is_not(None),
            )
            .order_by(FeedbackEmbedding.id)
            .limit(LOAD_CHUNK)
        )
        if last is not None:
            query = query.where(FeedbackEmbedding.id > last)
        chunk = [(row[0], row[1], row[2]) for row in await session.execute(query)]
        rows += chunk
        if len(chunk) < LOAD_CHUNK:
            return rows
        last = chunk[-1][0]
