"""Test databases built by the real migrations: a migrated SQLite template copied per test, and one
PostgreSQL database per test process (each xdist worker has its own), emptied before each test and
dropped at the end."""

from __future__ import annotations

import os
import shutil
import sqlite3
import uuid
from contextlib import closing
from pathlib import Path

import psycopg
from advanced_alchemy.alembic.commands import AlembicCommands

from app.config import Settings
from app.db.config import build_db_config
from tests.services import POSTGRES_ADMIN_URL

TABLES = (
    "scim_users",
    "scim_tokens",
    "alerts",
    "alert_watches",
    "conversation_messages",
    "conversations",
    "connected_apps",
    "oauth_authorizations",
    "oauth_clients",
    "audit_entries",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_endpoints",
    "notification_digests",
    "notification_events",
    "notification_settings",
    "outbound_emails",
    "outbox_jobs",
    "feedback_embeddings",
    "themes",
    "project_insights",
    "linked_issues",
    "feedback_attachments",
    "attachment_usage",
    "feedback_rewards",
    "feedback_changes",
    "feedback_counters",
    "feedback_items",
    "reporter_addresses",
    "contact_replies",
    "contact_messages",
    "survey_answer_vectors",
    "survey_links",
    "survey_counters",
    "survey_responses",
    "surveys",
    "rating_counters",
    "rating_totals",
    "ratings",
    "feedback_imports",
    "mintlify_integrations",
    "polar_integrations",
    "stripe_integrations",
    "tracker_integrations",
    "projects",
    "passkeys",
    "recovery_codes",
    "totp_authenticators",
    "password_resets",
    "saml_assertions",
    "sso_domains",
    "sso_connections",
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


def sqlite_worker(template: Path, folder: Path) -> str:
    """This test process's SQLite database: a copy of the template, emptied before each test (as the
    PostgreSQL one is), so that every test's settings, and so its application, are the same."""
    target = folder / "worker.db"
    shutil.copyfile(template, target)
    with closing(sqlite3.connect(target)) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        missing = {row[0] for row in rows if not row[0].startswith("sqlite_")} - {*TABLES, "alembic_version"}
    assert not missing, f"add {sorted(missing)} to TABLES in tests/databases.py: tests would leave rows there"
    return f"sqlite+aiosqlite:///{target}"


def sqlite_empty(url: str) -> bool:
    """Delete every row of the tables that hold any (foreign keys are off in a plain connection); False
    when a connection that an earlier test left open still holds the database's write lock."""
    filled = " UNION ALL ".join(f"SELECT * FROM (SELECT '{table}' FROM {table} LIMIT 1)" for table in TABLES)
    try:
        with closing(sqlite3.connect(url.split("///", 1)[1], timeout=5, isolation_level=None)) as conn:
            conn.execute("BEGIN IMMEDIATE")  # the write lock, even when every table is empty already
            for (table,) in conn.execute(filled).fetchall():
                conn.execute(f"DELETE FROM {table}")
            conn.execute("COMMIT")
    except sqlite3.OperationalError as error:
        if "locked" not in str(error):
            raise
        return False
    return True


def sqlite_copy(template: Path, folder: Path) -> str:
    target = folder / f"{uuid.uuid4().hex}.db"
    shutil.copyfile(template, target)
    return f"sqlite+aiosqlite:///{target}"


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def postgres_create() -> str:
    """A fresh migrated database for this test process; returns its SQLAlchemy URL."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"hearken_test_{worker}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(_libpq(POSTGRES_ADMIN_URL), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    migrate(url)
    with psycopg.connect(_libpq(url)) as conn:
        # partitions are emptied with their table (ratings' months)
        rows = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND NOT EXISTS "
            "(SELECT 1 FROM pg_inherits WHERE inhrelid = CAST(quote_ident(tablename) AS regclass))"
        )
        missing = {row[0] for row in rows} - {*TABLES, "alembic_version"}
    assert not missing, f"add {sorted(missing)} to TABLES in tests/databases.py: tests would leave rows there"
    return url


def postgres_empty(url: str) -> None:
    """Delete every row of the tables that hold any. A test leaves a few rows in a few tables; deleting
    them takes milliseconds, where TRUNCATE replaces every table's files (most of a second per test).
    Foreign keys are not checked meanwhile (replica role), since every table ends empty."""
    filled = " UNION ALL ".join(f"(SELECT '{table}' FROM {table} LIMIT 1)" for table in TABLES)
    with psycopg.connect(_libpq(url), autocommit=True) as conn:
        tables = [row[0] for row in conn.execute(filled)]
        if not tables:
            return
        with conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            for table in tables:
                conn.execute(f"DELETE FROM {table}")


def analyze(url: str) -> None:
    """Refresh the planner's statistics after a bulk load."""
    with psycopg.connect(_libpq(url), autocommit=True) as conn:
        conn.execute("ANALYZE")


def postgres_drop(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(_libpq(POSTGRES_ADMIN_URL), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
