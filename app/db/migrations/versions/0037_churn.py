"""churn

Revision ID: 0037
Revises: 0032
Create Date: 2026-11-29 08:20:00

Polar cancellation feedback beside Stripe's, the restricted API key of each (sealed) for thank-you
discounts, and the discounts applied (one per feedback item).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0037"
down_revision = "0039"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "polar_integrations",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("sealed_webhook_secret", sa.Text(), nullable=False),
            sa.Column("sealed_api_key", sa.Text(), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_polar_integrations_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_polar_integrations")),
            sa.UniqueConstraint("project_id", name=op.f("uq_polar_integrations_project_id")),
        )
        op.create_table(
            "feedback_rewards",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("feedback_id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("provider", sa.String(length=16), nullable=False),
            sa.Column("coupon", sa.String(length=255), nullable=False),
            sa.Column("applied_by", sa.String(length=320), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["feedback_id"],
                ["feedback_items.id"],
                name=op.f("fk_feedback_rewards_feedback_id_feedback_items"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_feedback_rewards_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_feedback_rewards")),
            sa.UniqueConstraint("feedback_id", name=op.f("uq_feedback_rewards_feedback_id")),
        )
        op.create_index(
            op.f("ix_feedback_rewards_project_id"), "feedback_rewards", ["project_id"], unique=False
        )
    with op.batch_alter_table("stripe_integrations") as batch:
        batch.add_column(sa.Column("sealed_api_key", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("stripe_integrations") as batch:
        batch.drop_column("sealed_api_key")
    op.drop_index(op.f("ix_feedback_rewards_project_id"), table_name="feedback_rewards")
    op.drop_table("feedback_rewards")
    op.drop_table("polar_integrations")
