"""feedback imports: metadata on feedback items, Stripe and Mintlify integrations, imported upstream ids

Revision ID: 0007
Revises: 0004
Create Date: 2026-11-25 13:10:00.000000

"""

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

__all__ = ("downgrade", "upgrade")

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0004"
branch_labels = None
depends_on = None


def _audit_columns() -> list[sa.Column]:
    return [
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
    ]


def _project_column(table: str) -> tuple[sa.Column, sa.ForeignKeyConstraint]:
    return (
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f(f"fk_{table}_project_id_projects"), ondelete="CASCADE"
        ),
    )


def upgrade() -> None:
    with op.batch_alter_table("feedback_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("metadata", JsonB, nullable=True))

    column, foreign_key = _project_column("feedback_imports")
    op.create_table(
        "feedback_imports",
        *_audit_columns(),
        column,
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("external_id", sa.String(length=255), nullable=False),
        foreign_key,
        sa.PrimaryKeyConstraint("id", name=op.f("pk_feedback_imports")),
        sa.UniqueConstraint("project_id", "source", "external_id", name="uq_feedback_import"),
    )

    column, foreign_key = _project_column("stripe_integrations")
    op.create_table(
        "stripe_integrations",
        *_audit_columns(),
        column,
        sa.Column("sealed_signing_secret", sa.Text(), nullable=False),
        foreign_key,
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stripe_integrations")),
        sa.UniqueConstraint("project_id", name=op.f("uq_stripe_integrations_project_id")),
    )

    column, foreign_key = _project_column("mintlify_integrations")
    op.create_table(
        "mintlify_integrations",
        *_audit_columns(),
        column,
        sa.Column("mintlify_project_id", sa.String(length=200), nullable=False),
        sa.Column("sealed_api_key", sa.Text(), nullable=False),
        sa.Column("imported", sa.Integer(), nullable=False),
        sa.Column("newest_created_at", DateTimeUTC(timezone=True), nullable=True),
        sa.Column("last_synced_at", DateTimeUTC(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("next_sync_at", DateTimeUTC(timezone=True), nullable=False),
        foreign_key,
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mintlify_integrations")),
        sa.UniqueConstraint("project_id", name=op.f("uq_mintlify_integrations_project_id")),
    )
    with op.batch_alter_table("mintlify_integrations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_mintlify_integrations_next_sync_at"), ["next_sync_at"], unique=False
        )


def downgrade() -> None:
    op.drop_table("mintlify_integrations")
    op.drop_table("stripe_integrations")
    op.drop_table("feedback_imports")
    with op.batch_alter_table("feedback_items", schema=None) as batch_op:
        batch_op.drop_column("metadata")
