"""What each export holds: the list's JSON form of a row (its NDJSON line) and the same fields as CSV
columns, read from the model's columns without building ORM objects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import Select, inspect, select
from sqlalchemy.orm import DeclarativeBase

from app.db.models import ContactMessage, FeedbackItem, FeedbackReward, Rating, SurveyResponse, User
from app.schemas.churn import ChurnExportOut
from app.schemas.contact_message import ContactMessageOut
from app.schemas.feedback import FeedbackExportOut
from app.schemas.rating import TypedRatingOut
from app.surveys.bodies import SurveyResponseOut


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
    joined: Callable[[Select[Any]], Select[Any]] = lambda query: query
    """Adds what `record` needs besides the model's columns."""
    attached: bool = False
    """Its records are feedback items, given their images (`with_attachments`) before they are written."""

    def select(self) -> Select[Any]:
        """Every mapped column by its attribute name: rows that `record` reads like model objects."""
        mapper = inspect(self.model)
        return self.joined(select(*(getattr(self.model, attr.key) for attr in mapper.column_attrs)))

    def cells(self, record: msgspec.Struct) -> list[Any]:
        fields = self.flat(msgspec.to_builtins(record))
        return [fields.get(column) for column in self.columns]


def _struct_fields(struct: type[msgspec.Struct]) -> tuple[str, ...]:
    return tuple(f.encode_name for f in msgspec.structs.fields(struct))


def _flat_rating(fields: dict[str, Any]) -> dict[str, Any]:
    """The typed form's `value` object becomes the value and max_stars columns."""
    value = fields.pop("value")
    return {**fields, "value": value["value"], "max_stars": value.get("max_stars")}


def _flat_feedback(fields: dict[str, Any]) -> dict[str, Any]:
    """The assignee object becomes the assignee_id and assignee_email columns."""
    assignee = fields.pop("assignee", None) or {}
    return {**fields, "assignee_id": assignee.get("id"), "assignee_email": assignee.get("email")}


FEEDBACK = ExportKind(
    "feedback",
    FeedbackItem,
    lambda row: FeedbackExportOut.of(row, row.assignee_email),
    tuple(
        column
        for name in _struct_fields(FeedbackExportOut)
        for column in (("assignee_id", "assignee_email") if name == "assignee" else (name,))
        if column != "linked_issues"  # not read for exports: the item's page and the API show them
    ),
    _flat_feedback,
    lambda query: query.add_columns(User.email.label("assignee_email")).outerjoin(
        User, User.id == FeedbackItem.assignee_id
    ),
    attached=True,
)
CHURN = ExportKind(
    "churn",
    FeedbackItem,
    ChurnExportOut.of,
    _struct_fields(ChurnExportOut),
    joined=lambda query: query.add_columns(
        FeedbackReward.coupon.label("reward_coupon"), FeedbackReward.created_at.label("rewarded_at")
    ).outerjoin(FeedbackReward, FeedbackReward.feedback_id == FeedbackItem.id),
)
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
SURVEY_RESPONSES = ExportKind(
    "survey-responses", SurveyResponse, SurveyResponseOut.of, _struct_fields(SurveyResponseOut)
)
"""The answers are one JSON column: [{"question_id", "value"}], as the list shows them."""
