"""Upstream values fitted to the rules every feedback item keeps (message length, path shape,
submitted_by characters, metadata value length, no NUL characters): an import never stores what the API
would refuse.

A request holding a NUL character is refused (400), since its sender can send it again without; an
upstream record cannot be, so an import strips NUL characters from every text it keeps (PostgreSQL can
store none, and no field needs one)."""

from __future__ import annotations

from typing import Any

from app.db.models.field_rules import MESSAGE_MAX_LENGTH, METADATA_TEXT_MAX_LENGTH, is_page_path, is_submitter


def text(value: str) -> str:
    """The text without NUL characters."""
    return value.replace("\x00", "")


def message_text(value: object) -> str | None:
    """A non-blank message cut to the longest a feedback item holds, or None."""
    if not isinstance(value, str) or not text(value).strip():
        return None
    return text(value).strip()[:MESSAGE_MAX_LENGTH]


def external_id(value: object) -> str | None:
    """An upstream record's id as its claim keeps it, or None when it has none."""
    return text(value)[:255] or None if isinstance(value, str) else None


def page_path(value: object) -> str | None:
    return text(value) if isinstance(value, str) and is_page_path(text(value)) else None


def submitter(value: object) -> str | None:
    return text(value) if isinstance(value, str) and is_submitter(text(value)) else None


def metadata_of(values: dict[str, Any]) -> dict[str, str | int | float | bool] | None:
    """The present scalar values, texts cut to the metadata limit; None when nothing is left."""
    kept: dict[str, str | int | float | bool] = {}
    for key, value in values.items():
        if isinstance(value, str) and text(value):
            kept[key] = text(value)[:METADATA_TEXT_MAX_LENGTH]
        elif isinstance(value, bool | int | float):
            kept[key] = value
    return kept or None


def reason_sentence(reason: str | None) -> str | None:
    """A cancellation's reason code as the message of an item without a comment: `too_expensive` →
    "Cancelled: too expensive" (Stripe and Polar share the codes)."""
    if not reason or not reason.strip():
        return None
    return message_text(f"Cancelled: {reason.strip().replace('_', ' ')}")
