"""The audit log written by the unit of work: every flush that adds, changes or deletes a token, a membership,
an invitation, a project (and its allowed origins), a webhook endpoint, an integration, a survey (its name and
status: who activated, paused or completed it), the single sign-on settings, a SCIM token or what an identity
provider said of a user over SCIM adds the entries that say so to the same flush, so they commit or roll back
with the change itself.

Watching the session rather than asking each service to remember means a change made anywhere (API,
console, command line) is recorded. Bulk UPDATE/DELETE statements bypass the unit of work; code that
changes these tables that way records its own entry (`audit`). Secrets are never written: a changed
secret is recorded as "changed", and a webhook URL with its credentials masked.

Every entry names its target. A new row's id is its column's default, which the flush fills only after
this listener has run, so the listener fills it first (`_id_of`), the same value the flush would have.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from app.db.actor import current_actor
from app.db.models import (
    AccessToken,
    AuditEntry,
    ConnectedApp,
    Invitation,
    Membership,
    MintlifyIntegration,
    PolarIntegration,
    Project,
    ScimToken,
    ScimUser,
    SsoConnection,
    SsoDomain,
    StripeIntegration,
    Survey,
    TrackerIntegration,
    User,
    WebhookEndpoint,
)
from app.db.url_credentials import masked_url
from app.timestamps import iso_z


@dataclass(frozen=True)
class Audited:
    target_type: str
    fields: tuple[str, ...]
    """Recorded with their values."""
    secrets: tuple[str, ...] = ()
    """Recorded as changed, never with a value."""
    events: tuple[tuple[str, str], ...] = ()
    """(field, action): a change of this field from empty to set is that action instead of "updated"."""
    urls: tuple[str, ...] = ()
    """Recorded with the credentials inside them masked (app.db.url_credentials)."""
    rotation: str | None = None
    """A secret whose change is the action `secret_rotated` instead of "updated"."""

    def shown(self, name: str, value: Any) -> Any:
        return masked_url(value) if name in self.urls and isinstance(value, str) else value


def _own_org(session: Session, row: Any) -> UUID | None:
    return row.org_id  # type: ignore[no-any-return]


def _project_org(session: Session, row: Any) -> UUID | None:
    with session.no_autoflush:
        project = session.get(Project, row.project_id)
    return project.org_id if project is not None else None


AUDITED: dict[type, tuple[Audited, Callable[[Session, Any], UUID | None]]] = {
    AccessToken: (
        Audited("token", ("label", "scope", "prefix", "revoked_at"), events=(("revoked_at", "revoked"),)),
        _own_org,
    ),
    Membership: (Audited("member", ("user_id", "role")), _own_org),
    ConnectedApp: (
        Audited("connected_app", ("client_id", "user_id", "revoked_at"), events=(("revoked_at", "revoked"),)),
        _own_org,
    ),
    Invitation: (
        Audited(
            "invitation",
            ("email", "role", "expires_at", "accepted_at"),
            events=(("accepted_at", "accepted"),),
        ),
        _own_org,
    ),
    Project: (
        Audited(
            "project",
            ("name", "description", "retention_days", "require_verified_users"),
            ("sealed_identity_secret",),
        ),
        _own_org,
    ),
    WebhookEndpoint: (
        Audited(
            "webhook",
            (
                "url",
                "description",
                "events",
                "project_ids",
                "format",
                "enabled",
                "previous_secret_expires_at",
            ),
            ("sealed_secret", "sealed_previous_secret"),
            urls=("url",),
            rotation="secret",
        ),
        _own_org,
    ),
    SsoConnection: (
        Audited(
            "sso",
            ("protocol", "issuer", "client_id", "require_sso", "saml_metadata_url"),
            # the metadata is long and public: recorded as changed, like the secret
            ("sealed_client_secret", "saml_metadata"),
            urls=("saml_metadata_url",),
        ),
        _own_org,
    ),
    ScimToken: (
        Audited("scim_token", ("prefix", "revoked_at"), events=(("revoked_at", "revoked"),)),
        _own_org,
    ),
    ScimUser: (Audited("scim_user", ("user_id", "user_name", "external_id", "active")), _own_org),
    SsoDomain: (
        Audited("sso_domain", ("domain", "verified_at"), events=(("verified_at", "verified"),)),
        _own_org,
    ),
    StripeIntegration: (
        Audited("integration", ("project_id",), ("sealed_signing_secret", "sealed_api_key")),
        _project_org,
    ),
    PolarIntegration: (
        Audited("integration", ("project_id",), ("sealed_webhook_secret", "sealed_api_key")),
        _project_org,
    ),
    MintlifyIntegration: (
        Audited("integration", ("project_id", "mintlify_project_id"), ("sealed_api_key",)),
        _project_org,
    ),
    TrackerIntegration: (
        Audited("integration", ("project_id", "settings"), ("sealed_credential", "sealed_webhook_secret")),
        _project_org,
    ),
    Survey: (Audited("survey", ("project_id", "name", "status")), _project_org),
}
KINDS = {StripeIntegration: "stripe", PolarIntegration: "polar", MintlifyIntegration: "mintlify"}
"""The `kind` of an integration's entries; a tracker integration's is its tracker ("github", "jira")."""


def _kind(row: Any) -> str | None:
    return row.tracker if isinstance(row, TrackerIntegration) else KINDS.get(type(row))


def audit(
    session: Session | Any,
    org_id: UUID,
    action: str,
    target_type: str,
    target_id: object = None,
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    """Add one entry, by the current actor, to the caller's transaction."""
    entry = AuditEntry(
        org_id=org_id,
        actor=current_actor.get(),
        action=action,
        target_type=target_type,
        target_id=None if target_id is None else str(target_id),
        details={key: plain(value) for key, value in (details or {}).items()},
    )
    session.add(entry)
    return entry


def plain(value: Any) -> Any:
    """A value as JSON holds it: ids as text, times in ISO 8601."""
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return iso_z(value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


@event.listens_for(Session, "before_flush")
def _record_changes(session: Session, _context: Any, _instances: Any) -> None:
    for row in list(session.new):
        _record(session, row, "created")
    for row in list(session.dirty):
        if session.is_modified(row, include_collections=False):
            _record(session, row, "updated")
    for row in list(session.deleted):
        _record(session, row, "deleted")


def _record(session: Session, row: Any, happened: str) -> None:
    known = AUDITED.get(type(row))
    if known is None:
        return
    spec, org_of = known
    org_id = org_of(session, row)
    if org_id is None:
        return
    details = _snapshot(session, row, spec) if happened != "updated" else _changes(row, spec)
    if happened == "updated":
        if not details:
            if isinstance(row, Project):
                _record_origins(session, row, org_id)
            return
        happened = _event_of(row, spec, details) or happened
    elif isinstance(row, Project) and happened == "created":
        details["allowed_origins"] = list(row.allowed_origins or [])
    audit(session, org_id, f"{spec.target_type}.{happened}", spec.target_type, _id_of(row), details)
    if isinstance(row, Project) and happened not in ("created", "deleted"):
        _record_origins(session, row, org_id)


def _id_of(row: Any) -> Any:
    """The row's id; a new row's is given now, from its primary key's own default."""
    if row.id is None:
        row.id = inspect(type(row)).primary_key[0].default.arg(None)
    return row.id


def _snapshot(session: Session, row: Any, spec: Audited) -> dict[str, Any]:
    details = {name: spec.shown(name, getattr(row, name)) for name in spec.fields if name != "revoked_at"}
    details = {name: value for name, value in details.items() if value is not None}
    if (kind := _kind(row)) is not None:
        details["kind"] = kind
    if isinstance(row, Membership):
        with session.no_autoflush:
            user = session.get(User, row.user_id)
        if user is not None:
            details["email"] = user.email
    return details


def _changes(row: Any, spec: Audited) -> dict[str, Any]:
    state = inspect(row)
    changed: dict[str, Any] = {}
    for name in spec.fields:
        history = state.attrs[name].history
        if history.has_changes():
            before = history.deleted[0] if history.deleted else None
            after = history.added[0] if history.added else None
            if before != after:
                changed[name] = {
                    "from": plain(spec.shown(name, before)),
                    "to": plain(spec.shown(name, after)),
                }
    for name in spec.secrets:
        if state.attrs[name].history.has_changes():
            changed[name.removeprefix("sealed_")] = "changed"
    if changed and (kind := _kind(row)) is not None:
        changed["kind"] = kind
    return changed


def _event_of(row: Any, spec: Audited, changed: dict[str, Any]) -> str | None:
    if spec.rotation is not None and changed.get(spec.rotation) == "changed":
        return "secret_rotated"
    for name, action in spec.events:
        change = changed.get(name)
        if isinstance(change, dict) and change["from"] is None and change["to"] is not None:
            return action
    if isinstance(row, Membership) and set(changed) == {"role"}:
        return "role_changed"
    return None


def _record_origins(session: Session, project: Project, org_id: UUID) -> None:
    history = inspect(project).attrs.allowed_origins.history
    if not history.has_changes():
        return
    before = set(_only(history.deleted) or [])
    after = set(_only(history.added) or [])
    for origin, action in [
        *((o, "added") for o in sorted(after - before)),
        *((o, "removed") for o in sorted(before - after)),
    ]:
        audit(
            session,
            org_id,
            f"origin.{action}",
            "origin",
            project.id,
            {"origin": origin, "project": project.name},
        )


def _only(values: Iterable[Any]) -> Any:
    values = list(values)
    return values[0] if values else None
