"""The since/until bounds of statistics: an ISO 8601 date or date-time, read as UTC.

Bounds are half-open, [since, until). A date `until` means the whole of that day, so
since=2026-03-01&until=2026-03-31 covers all of March.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from app.errors import InvalidRequest


def parse_bounds(since: str | None, until: str | None) -> tuple[datetime | None, datetime | None]:
    start = _parse(since, "since", whole_day_end=False)
    end = _parse(until, "until", whole_day_end=True)
    if start is not None and end is not None and end < start:
        raise InvalidRequest("until", "must not be earlier than since")
    return start, end


def start_of_day(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def _parse(text: str | None, field: str, *, whole_day_end: bool) -> datetime | None:
    if text is None:
        return None
    try:
        return _parse_date(text.strip(), whole_day_end) or _parse_datetime(text.strip())
    except (ValueError, OverflowError):
        raise InvalidRequest(
            field,
            f"must be an ISO 8601 date or date-time (2026-03-01, 2026-03-01T12:00:00Z), got {text!r:.40}",
        ) from None


def _parse_date(text: str, whole_day_end: bool) -> datetime | None:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return None
    return start_of_day(day + timedelta(days=1) if whole_day_end else day)


def _parse_datetime(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
