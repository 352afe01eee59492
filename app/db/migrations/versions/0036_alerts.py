"""alerts

Revision ID: 0036
Revises: 0032
Create Date: 2026-11-29 08:20:00

Alerts (one row per episode, at most one unresolved per project, kind and subject) and each project's
alert watch (rules, the check's lease, hourly readings of its answers).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0036"
down_revision = "0037"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "alerts",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("kind", sa.String(length=16), nullable=False),
            sa.Column("subject_key", sa.String(length=64), nullable=False),
            sa.Column("subject", JsonB, nullable=False),
            sa.Column("status", sa.String(length=16), nullable=False),
            sa.Column("title", sa.String(length=400), nullable=False),
            sa.Column("before", sa.Float(), nullable=False),
            sa.Column("after", sa.Float(), nullable=False),
            sa.Column("p_value", sa.Float(), nullable=False),
            sa.Column("examples", JsonB, nullable=False),
            sa.Column("evidence", JsonB, nullable=False),
            sa.Column("opened_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("unsettled_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("resolved_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("acknowledged_by", sa.String(length=320), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"], ["projects.id"], name=op.f("fk_alerts_project_id_projects"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_alerts")),
        )
        op.create_index("ix_alerts_project_status", "alerts", ["project_id", "status"])
        unresolved = sa.text("status != 'resolved'")
        op.create_index(
            "uq_alerts_episode",
            "alerts",
            ["project_id", "kind", "subject_key"],
            unique=True,
            postgresql_where=unresolved,
            sqlite_where=unresolved,
        )
        op.create_table(
            "alert_watches",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("rules", JsonB, nullable=True),
            sa.Column("readings", JsonB, nullable=False),
            sa.Column("checked_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("locked_until", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_alert_watches_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_watches")),
            sa.UniqueConstraint("project_id", name=op.f("uq_alert_watches_project_id")),
        )
        with op.batch_alter_table("notification_settings") as batch:
            batch.add_column(sa.Column("alerts", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notification_settings") as batch:
        batch.drop_column("alerts")
    op.drop_table("alert_watches")
    op.drop_index("uq_alerts_episode", table_name="alerts")
    op.drop_index("ix_alerts_project_status", table_name="alerts")
    op.drop_table("alerts")
