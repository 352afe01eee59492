"""The public list of a project's active surveys, encoded once per worker and served from memory.

The widget's loader asks for it on every page view, so it costs no query: each worker keeps the encoded
body and its ETag per project, and drops them all when the cache generation moves (any change to a
survey moves it, app/db/tracked_session.py), so a survey activated, paused or completed in any process
is served by every worker from the next request on.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple
from uuid import UUID

import msgspec
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.directory_cache import DirectoryCache
from app.db.models import Survey, SurveyStatus
from app.surveys.bodies import ActiveSurvey, ActiveSurveys


class ActiveList(NamedTuple):
    content: bytes
    etag: str
    """A strong validator of `content`, quoted as the header carries it."""


class ActiveSurveyLists:
    def __init__(self, session_maker: async_sessionmaker[AsyncSession]) -> None:
        self._session_maker = session_maker
        self._cache: DirectoryCache[UUID, ActiveList] = DirectoryCache(max_found=20_000, max_missing=1)

    async def of(self, project_id: UUID, generation: int) -> ActiveList:
        self._cache.sync(generation)
        _, found = self._cache.get(project_id)
        if found is None:
            found = await self._load(project_id)
            self._cache.put(project_id, found, generation)
        return found

    async def _load(self, project_id: UUID) -> ActiveList:
        async with self._session_maker() as session:
            surveys = await session.scalars(
                select(Survey)
                .where(Survey.project_id == project_id, Survey.status == SurveyStatus.ACTIVE.value)
                .order_by(Survey.created_at, Survey.id)
            )
            body = ActiveSurveys(
                surveys=[
                    ActiveSurvey(
                        id=str(survey.id),
                        trigger=_given(survey.trigger),
                        audience=survey.audience,
                        cooldown_days=survey.cooldown_days,
                        display=survey.display,
                        languages=survey.languages,
                    )
                    for survey in surveys
                ]
            )
        content = msgspec.json.encode(body)
        return ActiveList(content, f'"{hashlib.sha256(content).hexdigest()[:32]}"')


def _given(trigger: dict[str, object]) -> dict[str, object]:
    """The trigger's conditions that are set: the loader reads less."""
    return {name: value for name, value in trigger.items() if value not in (None, [])}
