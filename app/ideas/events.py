"""The webhook events of ideas: `idea.created` (the team's idea, or a suggestion that is not spam) and
`idea.status_changed` (with the change, from and to)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Idea
from app.ideas.bodies import IdeaOut
from app.webhooks.events import Event, FieldChange, record_events


def _data(idea: Idea, tags: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(IdeaOut.of(idea, tags))
    return data


def idea_created(idea: Idea, tags: list[str]) -> Event:
    return Event("idea.created", _data(idea, tags), idea.project_id)


def idea_status_changed(idea: Idea, tags: list[str], before: str) -> Event:
    return Event(
        "idea.status_changed",
        _data(idea, tags),
        idea.project_id,
        [FieldChange("status", before, idea.status)],
    )


async def record_idea_events(session: AsyncSession, org_id: UUID, events: Sequence[Event]) -> None:
    await record_events(session, org_id, events)
