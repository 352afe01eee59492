"""What each export holds: the list's JSON form of a row (its NDJSON line) and the same fields as CSV
columns, read from the model's columns without building ORM objects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Select, inspect, select
from sqlalchemy.orm import DeclarativeBase

from app.db.models import ContactMessage, FeedbackItem, Rating
from app.schemas.contact_message import ContactMessageOut
from app.schemas.feedback import FeedbackOut
from app.schemas.rating import TypedRatingOut


@dataclass(frozen=True)
class ExportKind:
    name: str
    """The file name's word for it."""
    model: type[DeclarativeBase]
    record: Callable[[Any], msgspec.Struct]
    """A row as the list endpoint shows it."""
    columns: tuple[str, ...] = field(default=())
    """CSV columns: the record's fields, nested objects flattened by `flat`."""
    flat: Callable[[dict[str, Any]], dict[str, Any]] = lambda fields: fields

    def select(self) -> Select[Any]:
        """Every mapped column by its attribute name: rows that `record` reads like model objects."""
        mapper = inspect(self.model)
        return select(*(getattr(self.model, attr.key) for attr in mapper.column_attrs))

    def cells(self, record: msgspec.Struct) -> list[Any]:
        fields = self.flat(msgspec.to_builtins(record))
        return [fields.get(column) for column in self.columns]


def _struct_fields(struct: type[msgspec.Struct]) -> tuple[str, ...]:
    return tuple(f.encode_name for f in msgspec.structs.fields(struct))


def _flat_rating(fields: dict[str, Any]) -> dict[str, Any]:
    """The typed form's `value` object becomes the value and max_stars columns."""
    value = fields.pop("value")
    return {**fields, "value": value["value"], "max_stars": value.get("max_stars")}


FEEDBACK = ExportKind("feedback", FeedbackItem, FeedbackOut.of, _struct_fields(FeedbackOut))
CONTACT_MESSAGES = ExportKind(
    "contact-messages", ContactMessage, ContactMessageOut.of, _struct_fields(ContactMessageOut)
)
RATINGS = ExportKind(
    "ratings",
    Rating,
    TypedRatingOut.of,
    tuple(
        column
        for name in _struct_fields(TypedRatingOut)
        for column in (("value", "max_stars") if name == "value" else (name,))
    ),
    _flat_rating,
)
