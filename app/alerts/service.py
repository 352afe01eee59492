"""Alerts of one project, for the API, the console and the MCP tools: the list, a check run now, a person
acknowledging or resolving an alert, and the project's rules."""

from __future__ import annotations

from uuid import UUID

import msgspec
from sqlalchemy import select

from app.alerts.checks import check_project, rules_of, watch_of
from app.alerts.episodes import RESOLVED, alert_event, send_events, unresolved
from app.db.audit_trail import audit
from app.db.models import Alert, AlertWatch
from app.errors import InvalidRequest, NotFound
from app.schemas.alerts import AlertRules
from app.services.projects import ProjectScoped
from app.timestamps import utc_now

STATUSES = ("open", "acknowledged", "resolved")
LISTED = 100
"""The newest alerts listed at most (an episode is rare: a project holds few)."""


class Alerts(ProjectScoped):
    async def list(self, status: str | None = None) -> list[Alert]:
        if status is not None and status not in STATUSES:
            raise InvalidRequest("status", "must be open, acknowledged or resolved")
        query = select(Alert).where(Alert.project_id == self.project.id)
        if status is not None:
            query = query.where(Alert.status == status)
        return list(
            await self.session.scalars(query.order_by(Alert.opened_at.desc(), Alert.id.desc()).limit(LISTED))
        )

    async def check(self) -> list[Alert]:
        """The checks of this project now, as the loop runs them; its unresolved alerts after."""
        await check_project(self.session, self.project, utc_now())
        return await unresolved(self.session, self.project.id)

    async def get(self, alert_id: str) -> Alert:
        try:
            key = UUID(alert_id)
        except ValueError:
            raise NotFound("no such alert in this project") from None
        alert = await self.session.scalar(
            select(Alert).where(Alert.id == key, Alert.project_id == self.project.id).with_for_update()
        )
        if alert is None:
            raise NotFound("no such alert in this project")
        return alert

    async def change(self, alert_id: str, status: str | None) -> Alert:
        """Acknowledge (it stays up to date and resolves itself, quietly) or resolve it by hand."""
        alert = await self.get(alert_id)
        if status is None:
            raise InvalidRequest("status", "is required: acknowledged or resolved")
        if alert.status == status or alert.status == RESOLVED:
            if alert.status != status:
                raise InvalidRequest("status", "the alert is resolved; a new episode opens a new alert")
            return alert
        now = utc_now()
        alert.status, alert.updated_at = status, now
        if status == "acknowledged":
            alert.acknowledged_by = self.scope.actor
        else:
            alert.resolved_at = now
            await send_events(self.session, self.project, [alert_event("alert.resolved", alert)])
        audit(
            self.session,
            self.scope.org_id,
            f"alert.{status}",
            "alert",
            alert.id,
            {"project_id": self.project.id},
        )
        await self.session.flush()
        return alert

    async def rules(self) -> AlertRules:
        watch = await self.session.scalar(select(AlertWatch).where(AlertWatch.project_id == self.project.id))
        return rules_of(watch)

    async def set_rules(self, rules: AlertRules) -> AlertRules:
        watch = await watch_of(self.session, self.project.id)
        watch.rules = msgspec.to_builtins(rules)
        audit(self.session, self.scope.org_id, "alert_rules.updated", "project", self.project.id, watch.rules)
        await self.session.flush()
        return rules
