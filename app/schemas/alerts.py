"""Bodies of the alert routes: an alert (one episode), the list, the status change, the project's rules."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from app.db.models import Alert
from app.timestamps import iso_z

AlertKind = Literal["rating_drop", "theme_surge", "negative_spike"]
AlertStatus = Literal["open", "acknowledged", "resolved"]

PValue = Annotated[
    float, msgspec.Meta(gt=0, le=0.2, description="The test's threshold: at most this p-value.")
]
MinCount = Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class AlertExample(msgspec.Struct):
    id: str
    message: str


class AlertOut(msgspec.Struct):
    id: str
    kind: str
    status: str
    subject: dict[str, Any]
    """rating_drop: {"path"} or {"version", "type", "previous_version"}; theme_surge: {"theme_id", "label"};
    negative_spike: {} (the whole project)."""
    title: str
    before: float
    """A share (0-1) or a mean on the rating's own scale, or items per day or hour, as the title says."""
    after: float
    p_value: float
    examples: list[AlertExample]
    opened_at: str
    updated_at: str
    resolved_at: str | None
    acknowledged_by: str | None

    @classmethod
    def of(cls, alert: Alert) -> AlertOut:
        return cls(
            id=str(alert.id),
            kind=alert.kind,
            status=alert.status,
            subject=alert.subject,
            title=alert.title,
            before=alert.before,
            after=alert.after,
            p_value=alert.p_value,
            examples=[AlertExample(str(e["id"]), str(e["message"])) for e in alert.examples],
            opened_at=iso_z(alert.opened_at),
            updated_at=iso_z(alert.updated_at),
            resolved_at=iso_z(alert.resolved_at) if alert.resolved_at else None,
            acknowledged_by=alert.acknowledged_by,
        )


class AlertList(msgspec.Struct):
    alerts: list[AlertOut]


class AlertPatchBody(msgspec.Struct, forbid_unknown_fields=True):
    status: Literal["acknowledged", "resolved"] | None = None
    """Required; an alert of another project is 404 before the body is judged."""


class RatingDropRule(msgspec.Struct, forbid_unknown_fields=True):
    enabled: bool = True
    p_value: PValue = 0.01
    min_answers: MinCount = 30


class ItemsRule(msgspec.Struct, forbid_unknown_fields=True):
    enabled: bool = True
    p_value: PValue = 0.001
    min_items: MinCount = 5


class AlertRules(msgspec.Struct, forbid_unknown_fields=True):
    """Each kind on or off, with its thresholds; a kind left out keeps its defaults."""

    rating_drop: RatingDropRule = msgspec.field(default_factory=RatingDropRule)
    theme_surge: ItemsRule = msgspec.field(default_factory=ItemsRule)
    negative_spike: ItemsRule = msgspec.field(default_factory=ItemsRule)
