"""A matrix answers the same question again (the next page of a search) from memory, until its rows
change: then the new rows are found."""

from __future__ import annotations

from uuid import UUID, uuid4

import numpy as np
import pytest

from app.insights.embedders import normalised
from app.insights.matrix import ProjectMatrix
from app.insights.vectors import to_bytes


def rows(vectors: np.ndarray) -> list[tuple[UUID, str | None, bytes]]:
    return [(uuid4(), "en", to_bytes(vector)) for vector in normalised(vectors)]


def test_an_answer_is_kept_until_the_rows_change(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    matrix = ProjectMatrix(model="test")
    matrix.add(rows(rng.normal(size=(50, 8)).astype(np.float32)))
    query = matrix.centred_query(normalised(rng.normal(size=(1, 8)).astype(np.float32))[0], "en")
    scored = []
    monkeypatch.setattr(matrix, "scores", lambda q: scored.append(q) or ProjectMatrix.scores(matrix, q))

    first = matrix.nearest(query, 10)
    assert matrix.nearest(query, 10) == first and len(scored) == 1
    assert matrix.nearest(query, 5) == first[:5] and len(scored) == 2  # another question

    twin = rows(np.stack([query] * 2))  # two rows pointing where the query points
    matrix.add(twin)
    again = matrix.nearest(query, 10)
    assert {feedback_id for feedback_id, _ in again[:2]} == {row[0] for row in twin}
    assert len(scored) == 3
