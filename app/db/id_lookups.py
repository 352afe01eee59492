"""Rows of a project looked up by their ids: the items a search by meaning or a list of similar items
found, which the filters then narrow. A thousand ids are a thousand primary key lookups, whatever the
size of the project."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from sqlalchemy import ColumnElement, func


def among_ids(model: Any, project_id: UUID, ids: Sequence[UUID]) -> list[ColumnElement[bool]]:
    """`model`'s rows with these ids, if they belong to the project. The project is compared through an
    expression no index matches: otherwise a planner without statistics (SQLite never gathers them unless
    told to) takes the project's own indexes for the cheaper way and reads every row of the project to
    keep the few asked for."""
    return [func.coalesce(model.project_id, model.project_id) == project_id, model.id.in_(ids)]
