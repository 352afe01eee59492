"""notifications

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25 16:00:00

Each member's notification choice per project, the news of new items waiting in the outbox, and the
claims of daily digests (one per member and day).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def _audit_columns() -> list[sa.Column]:
    return [
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "notification_settings",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("user_id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("feedback", sa.String(length=8), nullable=False),
            sa.Column("contact", sa.String(length=8), nullable=False),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["user_id"], ["users.id"], name=op.f("fk_notification_settings_user_id_users"), ondelete="CASCADE"
            ),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_notification_settings_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_settings")),
            sa.UniqueConstraint("user_id", "project_id", name=op.f("uq_notification_settings_user_id")),
        )
        op.create_index(
            op.f("ix_notification_settings_project_id"), "notification_settings", ["project_id"], unique=False
        )
        op.create_table(
            "notification_events",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("kind", sa.String(length=16), nullable=False),
            sa.Column("subject_id", GUID(length=16), nullable=False),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["id"], ["outbox_jobs.id"], name=op.f("fk_notification_events_id_outbox_jobs"), ondelete="CASCADE"
            ),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_notification_events_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_events")),
        )
        op.create_table(
            "notification_digests",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("user_id", GUID(length=16), nullable=False),
            sa.Column("day", sa.Date(), nullable=False),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["user_id"], ["users.id"], name=op.f("fk_notification_digests_user_id_users"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_digests")),
            sa.UniqueConstraint("user_id", "day", name=op.f("uq_notification_digests_user_id")),
        )


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.drop_table("notification_digests")
        op.drop_table("notification_events")
        op.drop_index(op.f("ix_notification_settings_project_id"), table_name="notification_settings")
        op.drop_table("notification_settings")
