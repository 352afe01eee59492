"""linear issues

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-27 16:20:00

A project's Linear team for issues (the API key and the webhook's secret sealed).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "linear_integrations",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("team_id", sa.String(length=100), nullable=False),
            sa.Column("sealed_api_key", sa.Text(), nullable=False),
            sa.Column("sealed_webhook_secret", sa.Text(), nullable=False),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_linear_integrations_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_linear_integrations")),
            sa.UniqueConstraint("project_id", name=op.f("uq_linear_integrations_project_id")),
        )


def downgrade() -> None:
    op.drop_table("linear_integrations")
