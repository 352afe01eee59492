"""feedback attachments

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-27 15:00:00

Images attached to feedback items, stored in the database (every node serves them, backups hold them),
and each project's bytes of images, for its quota.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "feedback_attachments",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("organization_id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("feedback_id", GUID(length=16), nullable=False),
            sa.Column("content_type", sa.String(length=16), nullable=False),
            sa.Column("bytes", sa.Integer(), nullable=False),
            sa.Column("width", sa.Integer(), nullable=False),
            sa.Column("height", sa.Integer(), nullable=False),
            sa.Column("data", sa.LargeBinary(), nullable=False),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["organization_id"],
                ["organizations.id"],
                name=op.f("fk_feedback_attachments_organization_id_organizations"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_feedback_attachments_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["feedback_id"],
                ["feedback_items.id"],
                name=op.f("fk_feedback_attachments_feedback_id_feedback_items"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_feedback_attachments")),
        )
        op.create_index(
            op.f("ix_feedback_attachments_project_id"), "feedback_attachments", ["project_id"], unique=False
        )
        op.create_index(
            op.f("ix_feedback_attachments_feedback_id"), "feedback_attachments", ["feedback_id"], unique=False
        )
        op.create_table(
            "attachment_usage",
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("bytes", sa.BigInteger(), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_attachment_usage_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("project_id", name=op.f("pk_attachment_usage")),
        )


def downgrade() -> None:
    op.drop_table("attachment_usage")
    op.drop_index(op.f("ix_feedback_attachments_feedback_id"), table_name="feedback_attachments")
    op.drop_index(op.f("ix_feedback_attachments_project_id"), table_name="feedback_attachments")
    op.drop_table("feedback_attachments")
