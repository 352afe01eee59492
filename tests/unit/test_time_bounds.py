"""since/until parsing: dates, date-times, offsets, naive as UTC, clear errors naming the field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.errors import InvalidRequest
from app.services.time_bounds import parse_bounds


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.mark.parametrize(
    ("since", "until", "expected"),
    [
        (None, None, (None, None)),
        ("2026-03-01", "2026-03-31", (utc(2026, 3, 1), utc(2026, 4, 1))),
        ("2026-03-01", "2026-03-01", (utc(2026, 3, 1), utc(2026, 3, 2))),
        ("2026-03-01T10:30:00Z", None, (utc(2026, 3, 1, 10, 30), None)),
        ("2026-03-01T10:30:00", None, (utc(2026, 3, 1, 10, 30), None)),
        (None, "2026-03-01T01:00:00+02:00", (None, utc(2026, 2, 28, 23))),
        (
            "2026-12-31T23:59:59.5Z",
            "2027-01-01T00:00:00Z",
            (utc(2026, 12, 31, 23, 59, 59, 500000), utc(2027, 1, 1)),
        ),
    ],
)
def test_bounds(
    since: str | None, until: str | None, expected: tuple[datetime | None, datetime | None]
) -> None:
    assert parse_bounds(since, until) == expected


@pytest.mark.parametrize(
    ("since", "until", "field"),
    [
        ("yesterday", None, "since"),
        ("2026-02-30", None, "since"),
        ("", None, "since"),
        (None, "2026-03-01T25:00", "until"),
        (None, "9999-12-31", "until"),
        ("2026-03-02", "2026-03-01T23:59:59Z", "until"),
    ],
)
def test_bad_bounds_name_the_field(since: str | None, until: str | None, field: str) -> None:
    with pytest.raises(InvalidRequest) as raised:
        parse_bounds(since, until)
    assert raised.value.field == field
