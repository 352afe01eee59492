"""Ratings stamped at a chosen moment, so tests can spread them over days and weeks.

The writer takes its one timestamp from `utc_now`; rows and counters both follow it.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from app.services import rating_writer


def rate_at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(rating_writer, "utc_now", lambda: moment)
