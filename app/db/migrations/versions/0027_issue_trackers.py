"""issue trackers

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-27 16:00:00

A project's GitHub repository for issues (credentials sealed), and the issues filed for feedback items.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "github_integrations",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("repository", sa.String(length=200), nullable=False),
            sa.Column("sealed_token", sa.Text(), nullable=False),
            sa.Column("sealed_webhook_secret", sa.Text(), nullable=False),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_github_integrations_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_github_integrations")),
            sa.UniqueConstraint("project_id", name=op.f("uq_github_integrations_project_id")),
        )
        op.create_table(
            "linked_issues",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("feedback_id", GUID(length=16), nullable=False),
            sa.Column("tracker", sa.String(length=16), nullable=False),
            sa.Column("key", sa.String(length=255), nullable=False),
            sa.Column("url", sa.String(length=2000), nullable=False),
            sa.Column("state", sa.String(length=16), nullable=False),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_linked_issues_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["feedback_id"],
                ["feedback_items.id"],
                name=op.f("fk_linked_issues_feedback_id_feedback_items"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_linked_issues")),
            sa.UniqueConstraint("project_id", "tracker", "key", name="uq_linked_issue"),
        )
        op.create_index(
            op.f("ix_linked_issues_feedback_id"), "linked_issues", ["feedback_id"], unique=False
        )


def downgrade() -> None:
    op.drop_index(op.f("ix_linked_issues_feedback_id"), table_name="linked_issues")
    op.drop_table("linked_issues")
    op.drop_table("github_integrations")
