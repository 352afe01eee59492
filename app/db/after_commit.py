"""Work that must follow a commit, never precede it: a callback registered on a session runs once that
session's transaction commits, and is forgotten if it rolls back (a metric counts only what was stored)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

_PENDING = "hearken_after_commit"
"""Session.info key: the callbacks waiting for the transaction's commit."""


def on_commit(session: AsyncSession, callback: Callable[[], None]) -> None:
    session.info.setdefault(_PENDING, []).append(callback)


@event.listens_for(Session, "after_commit")
def _run_callbacks(session: Session) -> None:
    for callback in session.info.pop(_PENDING, ()):
        callback()


@event.listens_for(Session, "after_rollback")
def _forget_callbacks(session: Session) -> None:
    session.info.pop(_PENDING, None)
