"""Each member's choice per project, for new feedback and for contact messages: every item, a daily
digest, or off. Without a choice of their own, owners and admins get every item and members nothing."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Frequency, Membership, NotificationSetting, Role, User
from app.errors import InvalidRequest

KINDS = ("feedback", "contact")


@dataclass(frozen=True)
class Choice:
    user_id: UUID
    email: str
    language: str
    feedback: str
    contact: str
    confirmed: bool = True
    """Whether the address was confirmed (notifications go only to confirmed addresses)."""
    alerts: str = Frequency.OFF.value
    """A mail for each alert opened in the project ("each") or none ("off")."""

    def of(self, kind: str) -> str:
        if kind == "alerts":
            return self.alerts
        return self.feedback if kind == "feedback" else self.contact


def default_frequency(role: str) -> str:
    return Frequency.EACH.value if role in (Role.OWNER.value, Role.ADMIN.value) else Frequency.OFF.value


def alert_default(role: str) -> str:
    """Owners and admins hear of alerts unless they choose otherwise; members when they choose to."""
    return Frequency.EACH.value if role in (Role.OWNER.value, Role.ADMIN.value) else Frequency.OFF.value


async def members_choices(session: AsyncSession, org_id: UUID, project_id: UUID) -> list[Choice]:
    """Every member of the organization with their choice for this project."""
    rows = await session.execute(
        select(
            User.id, User.email, User.language, User.email_verified_at, Membership.role, NotificationSetting
        )
        .join(Membership, Membership.user_id == User.id)
        .outerjoin(
            NotificationSetting,
            (NotificationSetting.user_id == User.id) & (NotificationSetting.project_id == project_id),
        )
        .where(Membership.org_id == org_id)
    )
    choices = []
    for user_id, email, language, verified_at, role, setting in rows.tuples():
        default = default_frequency(role)
        choices.append(
            Choice(
                user_id,
                email,
                language,
                setting.feedback if setting else default,
                setting.contact if setting else default,
                verified_at is not None,
                setting.alerts if setting and setting.alerts else alert_default(role),
            )
        )
    return choices


async def choice_of(session: AsyncSession, org_id: UUID, project_id: UUID, user_id: UUID) -> Choice:
    found = [c for c in await members_choices(session, org_id, project_id) if c.user_id == user_id]
    if not found:
        raise InvalidRequest("user", "is not a member of this organization")
    return found[0]


async def choose(
    session: AsyncSession,
    org_id: UUID,
    project_id: UUID,
    user_id: UUID,
    *,
    feedback: str,
    contact: str,
    alerts: str | None = None,
) -> None:
    """Save a member's choice for a project, in the caller's transaction (alerts: unchanged when None)."""
    for field, value in (("feedback", feedback), ("contact", contact)):
        if value not in {f.value for f in Frequency}:
            raise InvalidRequest(field, "must be each, daily or off")
    if alerts is not None and alerts not in (Frequency.EACH.value, Frequency.OFF.value):
        raise InvalidRequest("alerts", "must be each or off")
    await choice_of(session, org_id, project_id, user_id)  # a member of the project's organization
    setting = await session.scalar(
        select(NotificationSetting).where(
            NotificationSetting.user_id == user_id, NotificationSetting.project_id == project_id
        )
    )
    if setting is None:
        setting = NotificationSetting(
            user_id=user_id, project_id=project_id, feedback=feedback, contact=contact
        )
        session.add(setting)
    setting.feedback, setting.contact = feedback, contact
    if alerts is not None:
        setting.alerts = alerts
    await session.flush()
