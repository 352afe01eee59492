"""audit log

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25 15:40:00

Who changed an organization's tokens, members, invitations, projects, origins, webhooks and
integrations, and who erased whose data.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "audit_entries",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("org_id", GUID(length=16), nullable=False),
            sa.Column("actor", sa.String(length=320), nullable=False),
            sa.Column("action", sa.String(length=64), nullable=False),
            sa.Column("target_type", sa.String(length=32), nullable=False),
            sa.Column("target_id", sa.String(length=64), nullable=True),
            sa.Column("details", JsonB, nullable=False),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["org_id"], ["organizations.id"], name=op.f("fk_audit_entries_org_id_organizations"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_entries")),
        )
        op.create_index("ix_audit_entries_list", "audit_entries", ["org_id", "created_at", "id"], unique=False)


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.drop_index("ix_audit_entries_list", table_name="audit_entries")
        op.drop_table("audit_entries")
