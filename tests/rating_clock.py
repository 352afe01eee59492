"""Ratings stamped at a chosen moment, so tests can spread them over days and weeks.

The writers take their one timestamp from `utc_now`; rows and counters both follow it (as does the
updated_at an archive sets).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from app.ingest import rating_rows, rating_writer


def rate_at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(rating_rows, "utc_now", lambda: moment)
    monkeypatch.setattr(rating_writer, "utc_now", lambda: moment)
