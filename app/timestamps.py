"""Timestamps leave the service as ISO 8601 in UTC with a Z suffix and milliseconds."""

from __future__ import annotations

from datetime import UTC, datetime


def iso_z(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def utc_now() -> datetime:
    return datetime.now(UTC)
