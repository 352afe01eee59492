"""A person's ideas, votes and comments deleted for good (erasure), and a project's old ones (retention),
in the caller's transaction, with the kept counts of the ideas that remain recounted.

A person is found by the keys the portal knows them by: their user id (as the customer's app signed it,
the same as feedback's `submitted_by`) and their address (confirmed on the portal, or given in a token);
the ideas they suggested go with the votes and comments on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy import ColumnElement, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Idea, IdeaComment, IdeaNotice, IdeaVote, PortalOptOut
from app.db.models.idea import PERSON_KEY_LENGTH
from app.db.row_locks import lock_in_id_order


@dataclass(frozen=True)
class ForgottenIdeas:
    ideas: int = 0
    votes: int = 0
    comments: int = 0


async def forget_person(
    session: AsyncSession, project_ids: Sequence[UUID], user_id: str | None, email: str | None
) -> ForgottenIdeas:
    keys = [f"u:{user_id}"[:PERSON_KEY_LENGTH]] if user_id else []
    address = email.lower() if email else None
    if address:
        keys.append(f"e:{address}"[:PERSON_KEY_LENGTH])
    if not keys or not project_ids:
        return ForgottenIdeas()

    def whose(
        key_column: ColumnElement[str | None], email_column: ColumnElement[str | None]
    ) -> ColumnElement[bool]:
        named = key_column.in_(keys)
        return or_(named, func.lower(email_column) == address) if address else named

    in_projects = Idea.project_id.in_(project_ids)
    ideas = await _delete(session, Idea, [in_projects, whose(Idea.author_key, Idea.author_email)])
    vote_where = [IdeaVote.project_id.in_(project_ids), whose(IdeaVote.voter_key, IdeaVote.email)]
    voted = set(await session.scalars(select(IdeaVote.idea_id).where(*vote_where)))
    votes = (await session.execute(delete(IdeaVote).where(*vote_where))).rowcount  # type: ignore[attr-defined]
    comment_where = [
        IdeaComment.project_id.in_(project_ids),
        whose(IdeaComment.author_key, IdeaComment.author_email),
    ]
    commented = set(await session.scalars(select(IdeaComment.idea_id).where(*comment_where)))
    comments = await _delete(session, IdeaComment, comment_where)
    if address:
        await session.execute(
            delete(IdeaNotice).where(IdeaNotice.project_id.in_(project_ids), IdeaNotice.recipient == address)
        )
        await session.execute(
            delete(PortalOptOut).where(
                PortalOptOut.project_id.in_(project_ids), PortalOptOut.recipient == address
            )
        )
    await recount(session, voted | commented)
    return ForgottenIdeas(ideas=ideas, votes=int(votes or 0), comments=comments)


async def forget_before(session: AsyncSession, project_id: UUID, cutoff: datetime, limit: int) -> int:
    """Up to `limit` of the project's ideas and comments made before `cutoff` (retention): returns how
    many rows went, so that the caller runs batches until fewer than `limit` go."""
    old_ideas = list(
        await session.scalars(
            select(Idea.id).where(Idea.project_id == project_id, Idea.created_at < cutoff).limit(limit)
        )
    )
    gone = await _delete(session, Idea, [Idea.id.in_(old_ideas)]) if old_ideas else 0
    old_comments = list(
        await session.execute(
            select(IdeaComment.id, IdeaComment.idea_id)
            .where(IdeaComment.project_id == project_id, IdeaComment.created_at < cutoff)
            .limit(limit)
        )
    )
    if old_comments:
        gone += await _delete(session, IdeaComment, [IdeaComment.id.in_([row.id for row in old_comments])])
        await recount(session, {row.idea_id for row in old_comments})
    return gone


async def _delete(session: AsyncSession, model: type, where: list[ColumnElement[bool]]) -> int:
    ids = list(await session.scalars(select(model.id).where(*where)))  # type: ignore[attr-defined]
    if not ids:
        return 0
    await lock_in_id_order(session, model.id, [model.id.in_(ids)], deleting=True)  # type: ignore[attr-defined]
    result = await session.execute(delete(model).where(model.id.in_(ids)))  # type: ignore[attr-defined]
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


async def recount(session: AsyncSession, idea_ids: set[UUID]) -> None:
    """Set the kept vote and comment counts of these ideas from their rows."""
    if not idea_ids:
        return
    votes = select(func.count()).where(IdeaVote.idea_id == Idea.id).correlate(Idea).scalar_subquery()
    comments = (
        select(func.count())
        .where(IdeaComment.idea_id == Idea.id, IdeaComment.spam.is_(False))
        .correlate(Idea)
        .scalar_subquery()
    )
    await session.execute(
        update(Idea)
        .where(Idea.id.in_(idea_ids))
        .values(vote_count=votes, comment_count=comments)
        .execution_options(synchronize_session=False)
    )
