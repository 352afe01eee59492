"""Test databases built by the real migrations: a migrated SQLite template copied per test, and one
PostgreSQL database per test run, truncated between tests and dropped at the end."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import psycopg
from advanced_alchemy.alembic.commands import AlembicCommands

from app.config import Settings
from app.db.config import build_db_config
from tests.services import POSTGRES_ADMIN_URL

TABLES = (
    "audit_entries",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_endpoints",
    "notification_digests",
    "notification_events",
    "notification_settings",
    "outbound_emails",
    "outbox_jobs",
    "feedback_changes",
    "feedback_counters",
    "feedback_items",
    "contact_messages",
    "rating_counters",
    "rating_totals",
    "ratings",
    "projects",
    "password_resets",
    "invitations",
    "access_tokens",
    "memberships",
    "users",
    "organizations",
)


def migrate(database_url: str) -> None:
    """Apply every Alembic migration, exactly as `hearken database upgrade` does."""
    config = build_db_config(Settings(database_url=database_url, secret_key="test"))
    AlembicCommands(sqlalchemy_config=config).upgrade("head")


def sqlite_template(folder: Path) -> Path:
    template = folder / "template.db"
    migrate(f"sqlite+aiosqlite:///{template}")
    return template


def sqlite_copy(template: Path, folder: Path) -> str:
    target = folder / f"{uuid.uuid4().hex}.db"
    shutil.copyfile(template, target)
    return f"sqlite+aiosqlite:///{target}"


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def postgres_create() -> str:
    """A fresh migrated database for this test run; returns its SQLAlchemy URL."""
    name = f"hearken_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(_libpq(POSTGRES_ADMIN_URL), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    migrate(url)
    return url


def postgres_truncate(url: str) -> None:
    with psycopg.connect(_libpq(url), autocommit=True) as conn:
        conn.execute(f"TRUNCATE {', '.join(TABLES)} CASCADE")


def analyze(url: str) -> None:
    """Refresh the planner's statistics after a bulk load."""
    with psycopg.connect(_libpq(url), autocommit=True) as conn:
        conn.execute("ANALYZE")


def postgres_drop(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(_libpq(POSTGRES_ADMIN_URL), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
