"""Helpers for the public endpoint tests: bodies that pass every rule, and row counts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ContactMessage, FeedbackItem, Rating
from app.db.transactions import unit_of_work

ALLOWED = "https://site.example"


def valid_bodies(project_key: str) -> dict[str, dict[str, Any]]:
    """One complete, valid body per public endpoint, every optional field filled."""
    return {
        "/api/v1/rating/submit": {
            "project_key": project_key,
            "value": False,
            "path": "/docs/install",
            "version": "2.4.1",
            "submitted_by": "user_42",
        },
        "/api/v1/ratings": {
            "project_key": project_key,
            "rating": {"type": "star", "value": 4, "max_stars": 5},
            "context": {
                "path": "/pricing",
                "version": "7",
                "submitted_by": "visitor-9",
                "metadata": {"plan": "pro", "seats": 3, "trial": True, "ref": None},
            },
        },
        "/api/v1/feedback/submit": {
            "project_key": project_key,
            "message": "The search box ignores accents",
            "type": "Bug",
            "path": "/search",
            "version": "3.1",
            "submitted_by": "user_7",
        },
        "/api/v1/contact/submit": {
            "project_key": project_key,
            "name": "Ada Lovelace",
            "email": "ada@example.com",
            "subject": "Invoices",
            "message": "Where can I download last year's invoices?",
            "path": "/billing",
            "version": "12",
        },
    }


SUCCESS = {
    "/api/v1/rating/submit": 204,
    "/api/v1/ratings": 201,
    "/api/v1/feedback/submit": 200,
    "/api/v1/contact/submit": 200,
}


async def stored_rows(session_maker: async_sessionmaker[AsyncSession]) -> int:
    """Ratings, feedback items and contact messages, all projects together."""
    async with unit_of_work(session_maker) as session:
        total = 0
        for model in (Rating, FeedbackItem, ContactMessage):
            total += await session.scalar(select(func.count()).select_from(model)) or 0
        return total
