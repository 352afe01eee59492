"""Which of a project's items insights are made of and show: not archived, not marked as a duplicate, not
judged spam. Themes are computed from these alone, and similar items, theme counts, samples and the
items still waiting for a vector are chosen among them, by the API, MCP and the console alike."""

from __future__ import annotations

from sqlalchemy import ColumnElement

from app.db.models import FeedbackItem


def shown(where: list[ColumnElement[bool]]) -> list[ColumnElement[bool]]:
    return [
        *where,
        FeedbackItem.archived.is_(False),
        FeedbackItem.duplicate_of_id.is_(None),
        FeedbackItem.spam.is_(False),
    ]
