"""Rows looked up by their ids, then checked: the items a search by meaning or a list of similar items
found, which the filters then narrow. A thousand ids are a thousand primary key lookups, whatever the
size of the project."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from sqlalchemy import ColumnElement, Uuid, and_, any_, false, func, literal
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession


def checked_among(
    session: AsyncSession, id_column: Any, ids: Sequence[UUID], conditions: Sequence[ColumnElement[bool]]
) -> list[ColumnElement[bool]]:
    """The rows with these ids that meet the conditions (the project's among them).

    The conditions are checked as one expression that no index matches: a planner without statistics
    (SQLite never gathers them unless told to) would take the index of one of them (the project's items,
    the items that are no duplicate) for the cheaper way, and read every row it holds to keep the few
    asked for. PostgreSQL gets the ids as one array: a statement with a thousand parameters costs more to
    build and parse than to run."""
    if session.get_bind().dialect.name == "postgresql":
        found = id_column == any_(literal(list(ids), ARRAY(Uuid())))
    else:
        found = id_column.in_(ids)
    return [found, func.coalesce(and_(*conditions), false())]
