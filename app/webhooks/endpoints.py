"""An organization's webhook endpoints: every query here is filtered by the scope's organization, so
another organization's endpoint is simply not found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.ids import parse_uuid
from app.db.models import Project, WebhookDelivery, WebhookEndpoint, WebhookFormat
from app.db.url_credentials import masked_url
from app.errors import InvalidRequest, NotFound
from app.outbox.queue import delete_jobs
from app.schemas.fields import NOT_ONE_LINE, is_one_line
from app.timestamps import utc_now
from app.webhooks.events import EVENT_TYPES, TEST_EVENT, Event, queue_delivery
from app.webhooks.signing import ROTATION_OVERLAP, new_secret, webhook_box
from app.webhooks.urls import checked_url
from tenants.permissions import require
from tenants.scope import Access, OrgScope, OrgScoped

MAX_DESCRIPTION = 500
MAX_ENDPOINTS = 20
"""Endpoints one organization may have: each event is delivered to every one, and the deliveries of
all organizations share the outbox."""


@dataclass(frozen=True)
class Issued:
    """An endpoint and its new signing secret in plain text: only the answer that issued it holds it."""

    endpoint: WebhookEndpoint
    secret: str


class WebhookEndpoints(OrgScoped):
    def __init__(self, session: AsyncSession, scope: OrgScope, settings: Settings) -> None:
        super().__init__(session, scope)
        self.settings = settings
        self._box = webhook_box(settings.secret_key)

    def shown_url(self, endpoint: WebhookEndpoint) -> str:
        """The URL as this scope may see it: whole for those who may change it (admins and write
        tokens), its credentials masked for everyone else."""
        return endpoint.url if self.scope.access >= Access.ADMIN else masked_url(endpoint.url)

    async def list(self) -> list[WebhookEndpoint]:
        rows = await self.session.scalars(
            select(WebhookEndpoint)
            .where(WebhookEndpoint.org_id == self.scope.org_id)
            .order_by(WebhookEndpoint.created_at, WebhookEndpoint.id)
        )
        return list(rows)

    async def get(self, endpoint_id: str | UUID) -> WebhookEndpoint:
        ident = endpoint_id if isinstance(endpoint_id, UUID) else parse_uuid(endpoint_id, "webhook_id")
        endpoint = await self.session.scalar(
            select(WebhookEndpoint).where(
                WebhookEndpoint.id == ident, WebhookEndpoint.org_id == self.scope.org_id
            )
        )
        if endpoint is None:
            raise NotFound("no webhook with this id in your organization")
        return endpoint

    async def create(
        self,
        *,
        url: str,
        events: Sequence[str] = (),
        project_ids: Sequence[str] = (),
        description: str = "",
        format: str = WebhookFormat.STANDARD,
    ) -> Issued:
        """A new enabled endpoint with a new secret, stored sealed; at most MAX_ENDPOINTS per
        organization."""
        require(self.scope, Access.ADMIN)
        count = await self.session.scalar(
            select(func.count())
            .select_from(WebhookEndpoint)
            .where(WebhookEndpoint.org_id == self.scope.org_id)
        )
        if (count or 0) >= MAX_ENDPOINTS:
            raise InvalidRequest(
                "url", f"an organization may have at most {MAX_ENDPOINTS} webhook endpoints; delete one first"
            )
        secret = new_secret()
        endpoint = WebhookEndpoint(
            org_id=self.scope.org_id,
            url=await checked_url(url, self.settings),
            events=checked_events(events),
            project_ids=await self._checked_projects(project_ids),
            description=checked_description(description),
            format=checked_format(format),
            enabled=True,
            sealed_secret=self._box.seal(secret),
        )
        self.session.add(endpoint)
        await self.session.flush()
        return Issued(endpoint, secret)

    async def rotate_secret(self, endpoint: WebhookEndpoint) -> Issued:
        """A new secret; the one it replaces keeps signing for ROTATION_OVERLAP beside it. A rotation
        within the overlap ends the overlap of the secret before (only the last two ever sign)."""
        require(self.scope, Access.ADMIN)
        secret = new_secret()
        endpoint.sealed_previous_secret = endpoint.sealed_secret
        endpoint.previous_secret_expires_at = utc_now() + ROTATION_OVERLAP
        endpoint.sealed_secret = self._box.seal(secret)
        await self.session.flush()
        return Issued(endpoint, secret)

    async def update(self, endpoint: WebhookEndpoint, changes: dict[str, Any]) -> WebhookEndpoint:
        """Change any of url, events, project_ids, description, format, enabled; all checked first."""
        require(self.scope, Access.ADMIN)
        checked: dict[str, Any] = {}
        if "url" in changes:
            checked["url"] = await checked_url(changes["url"], self.settings)
        if "events" in changes:
            checked["events"] = checked_events(changes["events"])
        if "project_ids" in changes:
            checked["project_ids"] = await self._checked_projects(changes["project_ids"])
        if "description" in changes:
            checked["description"] = checked_description(changes["description"])
        if "format" in changes:
            checked["format"] = checked_format(changes["format"])
        if "enabled" in changes:
            checked["enabled"] = bool(changes["enabled"])
        for field, value in checked.items():
            setattr(endpoint, field, value)
        await self.session.flush()
        return endpoint

    async def delete(self, endpoint: WebhookEndpoint) -> None:
        """The endpoint, its deliveries and their queued work."""
        require(self.scope, Access.ADMIN)
        await delete_jobs(
            self.session, select(WebhookDelivery.id).where(WebhookDelivery.endpoint_id == endpoint.id)
        )
        await self.session.delete(endpoint)
        await self.session.flush()

    async def send_test(self, endpoint: WebhookEndpoint) -> WebhookDelivery:
        """Queue a webhook.test event for this endpoint alone, whatever events it subscribes to."""
        require(self.scope, Access.ADMIN)
        event = Event(TEST_EVENT, {"webhook_id": str(endpoint.id), "message": "A test event from Hearken."})
        delivery = queue_delivery(self.session, endpoint.id, TEST_EVENT, event.body())
        await self.session.flush()
        return delivery

    async def _checked_projects(self, project_ids: Sequence[str]) -> list[str]:
        wanted = list(dict.fromkeys(parse_uuid(value, "project_ids") for value in project_ids))
        if not wanted:
            return []
        known = set(
            await self.session.scalars(
                select(Project.id).where(Project.org_id == self.scope.org_id, Project.id.in_(wanted))
            )
        )
        unknown = [ident for ident in wanted if ident not in known]
        if unknown:
            raise InvalidRequest("project_ids", f"no project with id {unknown[0]} in this organization")
        return [str(ident) for ident in wanted]


def checked_events(events: Sequence[str]) -> list[str]:
    for event in events:
        if event not in EVENT_TYPES:
            raise InvalidRequest("events", f"unknown event {event!r:.60}; known: {', '.join(EVENT_TYPES)}")
    return list(dict.fromkeys(events))


def checked_description(description: str) -> str:
    """The endpoint's label: one line, at most 500 characters."""
    if not is_one_line(description):
        raise InvalidRequest("description", NOT_ONE_LINE)
    description = description.strip()
    if len(description) > MAX_DESCRIPTION:
        raise InvalidRequest("description", f"must be at most {MAX_DESCRIPTION} characters")
    return description


def checked_format(format: str) -> str:
    if format not in {f.value for f in WebhookFormat}:
        raise InvalidRequest("format", "must be standard or slack")
    return format
