"""One alert per episode: a firing finding opens an alert unless its subject already has an unresolved
one, which it updates instead; a subject back within its baseline for a day resolves its alert; the next
firing after that is a new episode. Opening and resolving send `alert.opened` and `alert.resolved` to the
organization's webhooks (Slack among them) and mail the members who chose alerts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from uuid import UUID

import msgspec
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from uuid_utils.compat import uuid7

from app.alerts.examples import examples_of
from app.alerts.finding import Finding
from app.db.models import Alert, Project
from app.notifications.events import queue_notification
from app.schemas.alerts import AlertOut
from app.webhooks.events import Event, record_events

SETTLE_AFTER = timedelta(hours=24)
RESOLVED = "resolved"


def alert_event(kind: str, alert: Alert) -> Event:
    return Event(kind, msgspec.to_builtins(AlertOut.of(alert)), alert.project_id)


async def unresolved(session: AsyncSession, project_id: UUID) -> list[Alert]:
    return list(
        await session.scalars(
            select(Alert)
            .where(Alert.project_id == project_id, Alert.status != RESOLVED)
            .order_by(Alert.opened_at.desc(), Alert.id.desc())
        )
    )


async def apply_findings(
    session: AsyncSession,
    project: Project,
    kinds: Sequence[str],
    findings: Sequence[Finding],
    now: datetime,
) -> list[Event]:
    """Open, update and resolve the project's alerts of these kinds; the events to send."""
    open_alerts = {
        (a.kind, a.subject_key): a for a in await unresolved(session, project.id) if a.kind in kinds
    }
    events = []
    seen = set()
    for finding in findings:
        key = (finding.kind, finding.subject_key)
        seen.add(key)
        alert = open_alerts.get(key)
        if alert is not None:
            alert.unsettled_at = now
            if finding.firing:
                await _update(session, project.id, alert, finding, now)
        elif finding.firing:
            opened = await _open(session, project.id, finding, now)
            if opened is not None:
                events.append(alert_event("alert.opened", opened))
                queue_notification(session, project.id, "alerts", opened.id)
    for key, alert in open_alerts.items():
        if key not in seen and now - alert.unsettled_at >= SETTLE_AFTER:
            alert.status, alert.resolved_at, alert.updated_at = RESOLVED, now, now
            events.append(alert_event("alert.resolved", alert))
    await session.flush()
    return events


async def _update(
    session: AsyncSession, project_id: UUID, alert: Alert, finding: Finding, now: datetime
) -> None:
    alert.title, alert.after, alert.p_value = finding.title, finding.after, finding.p_value
    alert.evidence = _evidence(finding)
    alert.examples = await examples_of(session, project_id, finding) or alert.examples
    alert.updated_at = now


async def _open(session: AsyncSession, project_id: UUID, finding: Finding, now: datetime) -> Alert | None:
    """A new episode; None when another check opened it first (the unique index says so)."""
    alert = Alert(
        id=uuid7(),
        project_id=project_id,
        kind=finding.kind,
        subject_key=finding.subject_key,
        subject=finding.subject,
        status="open",
        title=finding.title,
        before=finding.before,
        after=finding.after,
        p_value=finding.p_value,
        examples=await examples_of(session, project_id, finding),
        evidence=_evidence(finding),
        opened_at=now,
        unsettled_at=now,
        created_at=now,
        updated_at=now,
    )
    try:
        async with session.begin_nested():
            session.add(alert)
    except IntegrityError:
        return None
    return alert


def _evidence(finding: Finding) -> dict[str, object]:
    return {"unit": finding.unit, "series": [list(point) for point in finding.series]}


async def send_events(session: AsyncSession, project: Project, events: list[Event]) -> None:
    await record_events(session, project.org_id, events)
