"""The session class of every session the application opens: it bumps the cache generation after a
commit that changed a project, an access token, an organization, a webhook endpoint, a connected app
(an assistant's OAuth tokens: a refresh or a disconnect) or a survey (the public list of active surveys).

A new organization alone (a sign-up) changes nothing the caches hold: they map project keys and token
digests, and a new organization has neither yet. So only new projects, tokens and webhook endpoints
count as additions; changed or deleted rows of all of them do. Strangers can sign up; they cannot make
every worker drop its caches by doing so.

Tracking the unit of work here, rather than asking each service to remember, means a change made
anywhere (API, console, CLI, tests) invalidates the workers' key and token caches. Bulk UPDATE/DELETE
statements bypass the unit of work: code that changes these tables that way must bump itself
(`session.info[CACHE_GENERATION].bump()` after its commit).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from app.db.models import (
    AccessToken,
    ConnectedApp,
    Membership,
    Organization,
    Project,
    Survey,
    WebhookEndpoint,
)

CACHE_GENERATION = "hearken_cache_generation"
"""Session.info key of the CacheGeneration to bump (set by the session maker's configuration)."""
_CHANGED = "hearken_directory_changed"
_DIRECTORY_MODELS = (Project, AccessToken, Organization, WebhookEndpoint, ConnectedApp, Membership, Survey)
"""Memberships too: a connected app acts with its member's current role, and not at all once they leave."""
_ADDED_TO_DIRECTORY = (Project, AccessToken, WebhookEndpoint, Survey)
"""Surveys too: the public list of a project's active surveys is cached per worker."""


@event.listens_for(Session, "after_flush")
def _note_directory_changes(session: Session, _context: Any) -> None:
    if any(isinstance(row, _ADDED_TO_DIRECTORY) for row in session.new) or any(
        isinstance(row, _DIRECTORY_MODELS) for row in chain(session.dirty, session.deleted)
    ):
        session.info[_CHANGED] = True


@event.listens_for(Session, "after_rollback")
def _forget_directory_changes(session: Session) -> None:
    session.info.pop(_CHANGED, None)


def note_directory_change(session: AsyncSession) -> None:
    """Say that a bulk UPDATE or DELETE changed one of the cached tables: the generation moves after the
    commit, as for a change the unit of work saw."""
    session.info[_CHANGED] = True


class TrackedSession(AsyncSession):
    async def commit(self) -> None:
        await super().commit()
        if self.info.pop(_CHANGED, False) and (generation := self.info.get(CACHE_GENERATION)):
            await generation.bump()
