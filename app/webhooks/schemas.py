"""The webhook resources of the REST API: endpoints, their deliveries and each delivery's attempts."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from app.db.models import JobStatus, WebhookAttempt, WebhookEndpoint
from app.schemas.fields import LABEL_PATTERN
from app.schemas.pagination import Pagination
from app.timestamps import iso_z
from app.webhooks.deliveries import DeliveryState
from app.webhooks.events import EventType

FormatName = Literal["standard", "slack"]
_H = "[0-9A-Fa-f]{1,4}"
IPV6 = (
    rf"(({_H}:){{7}}{_H}|({_H}:){{1,7}}:|({_H}:){{1,6}}:{_H}|({_H}:){{1,5}}(:{_H}){{1,2}}"
    rf"|({_H}:){{1,4}}(:{_H}){{1,3}}|({_H}:){{1,3}}(:{_H}){{1,4}}|({_H}:){{1,2}}(:{_H}){{1,5}}"
    rf"|{_H}:(:{_H}){{1,6}}|:((:{_H}){{1,7}}|:))"
)
"""An IPv6 address without an embedded IPv4 part, as it appears between brackets in a URL."""
URL_PATTERN = (
    r"^[hH][tT][tT][pP][sS]?://([^\x00-\x20\x7f/?#@]*@)?"
    rf"(\[{IPV6}\]|[^\x00-\x20\x7f/?#@:\[\]]+)"
    r"(:([0-9]{0,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
    r"([/?#][^\x00-\x20\x7f]*)?$"
)
"""An absolute http(s) URL with a host, without spaces or control characters (checked again, with the
address rules, when the endpoint is saved)."""
Url = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=2048, pattern=URL_PATTERN, description="http(s) URL; https in production."
    ),
]
Description = Annotated[
    str,
    msgspec.Meta(
        max_length=500, pattern=LABEL_PATTERN, description="A label: one line, without control characters."
    ),
]
Events = Annotated[
    list[EventType],
    msgspec.Meta(max_length=10, description="Event types to receive; empty or absent: every event."),
]
ProjectIds = Annotated[
    list[str],
    msgspec.Meta(
        max_length=100,
        description="Projects (ids) whose events to receive; empty or absent: every project. "
        "An id that is not one of the organization's projects is refused (400).",
        extra_json_schema={"extra": {"items": {"type": "string", "format": "uuid"}}},
    ),
]


class WebhookCreateBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    url: Url
    events: Events = msgspec.field(default_factory=list)
    project_ids: ProjectIds = msgspec.field(default_factory=list)
    description: Description = ""
    format: FormatName = "standard"


class WebhookPatchBody(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Any subset of these fields."""

    url: Url | msgspec.UnsetType = msgspec.UNSET
    events: Events | msgspec.UnsetType = msgspec.UNSET
    project_ids: ProjectIds | msgspec.UnsetType = msgspec.UNSET
    description: Description | msgspec.UnsetType = msgspec.UNSET
    format: FormatName | msgspec.UnsetType = msgspec.UNSET
    enabled: bool | msgspec.UnsetType = msgspec.UNSET


class WebhookOut(msgspec.Struct):
    """An endpoint; never its secret. A read token sees the URL with its credentials masked (`***`)."""

    id: str
    url: str
    events: list[str]
    project_ids: list[str]
    description: str
    format: str
    enabled: bool
    created_at: str

    @classmethod
    def of(cls, endpoint: WebhookEndpoint, url: str) -> WebhookOut:
        """`url`: the endpoint's URL as the reader may see it."""
        return cls(
            id=str(endpoint.id),
            url=url,
            events=list(endpoint.events),
            project_ids=list(endpoint.project_ids),
            description=endpoint.description,
            format=endpoint.format,
            enabled=endpoint.enabled,
            created_at=iso_z(endpoint.created_at),
        )


class WebhookCreated(WebhookOut):
    """The answer to a create: the endpoint and its signing secret, shown this once."""

    secret: str = ""


class SecretRotated(msgspec.Struct):
    """The answer to a rotation: the new signing secret, shown this once, and when the replaced one
    stops signing."""

    secret: str
    previous_secret_expires_at: str

    @classmethod
    def of(cls, secret: str, endpoint: WebhookEndpoint) -> SecretRotated:
        expires = endpoint.previous_secret_expires_at
        assert expires is not None  # set by the rotation
        return cls(secret=secret, previous_secret_expires_at=iso_z(expires))


class WebhookList(msgspec.Struct):
    webhooks: list[WebhookOut]


class DeliveryOut(msgspec.Struct):
    id: str
    """Also the `webhook-id` header of every attempt."""
    event_type: str
    status: str
    attempts: int
    last_status_code: int | None
    last_error: str | None
    created_at: str
    next_attempt_at: str | None
    """When the next attempt is due; null once the delivery succeeded or failed."""

    @classmethod
    def of(cls, state: DeliveryState) -> DeliveryOut:
        delivery, job = state.delivery, state.job
        return cls(
            id=str(delivery.id),
            event_type=delivery.event_type,
            status=job.status,
            attempts=job.attempts,
            last_status_code=state.last_status_code,
            last_error=job.last_error,
            created_at=iso_z(delivery.created_at),
            next_attempt_at=iso_z(job.due_at) if job.status == JobStatus.PENDING else None,
        )


class DeliveryList(msgspec.Struct):
    deliveries: list[DeliveryOut]
    pagination: Pagination


class AttemptOut(msgspec.Struct):
    status_code: int | None
    error: str | None
    duration_ms: int
    response_body: str
    """The first KiB of the receiver's answer."""
    created_at: str

    @classmethod
    def of(cls, attempt: WebhookAttempt) -> AttemptOut:
        return cls(
            status_code=attempt.status_code,
            error=attempt.error,
            duration_ms=attempt.duration_ms,
            response_body=attempt.response_body,
            created_at=iso_z(attempt.created_at),
        )


class AttemptList(msgspec.Struct):
    attempts: list[AttemptOut]
