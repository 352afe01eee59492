"""scim

Revision ID: 0039
Revises: 0032
Create Date: 2026-11-29 08:10:00

SCIM provisioning: each organization's SCIM tokens (digests only) and what its identity provider said of
each user (userName, externalId, names, active).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0039"
down_revision = "0034"
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
            "scim_tokens",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("org_id", GUID(length=16), nullable=False),
            sa.Column("token_digest", sa.String(length=64), nullable=False),
            sa.Column("prefix", sa.String(length=12), nullable=False),
            sa.Column("last_used_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("revoked_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("created_by", GUID(length=16), nullable=True),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["org_id"],
                ["organizations.id"],
                name=op.f("fk_scim_tokens_org_id_organizations"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["created_by"],
                ["users.id"],
                name=op.f("fk_scim_tokens_created_by_users"),
                ondelete="SET NULL",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_scim_tokens")),
            sa.UniqueConstraint("token_digest", name=op.f("uq_scim_tokens_token_digest")),
        )
        op.create_index(op.f("ix_scim_tokens_org_id"), "scim_tokens", ["org_id"])
        op.create_table(
            "scim_users",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("org_id", GUID(length=16), nullable=False),
            sa.Column("user_id", GUID(length=16), nullable=False),
            sa.Column("user_name", sa.String(length=200), nullable=False),
            sa.Column("external_id", sa.String(length=200), nullable=True),
            sa.Column("given_name", sa.String(length=200), nullable=True),
            sa.Column("family_name", sa.String(length=200), nullable=True),
            sa.Column("display_name", sa.String(length=200), nullable=True),
            sa.Column("active", sa.Boolean(), server_default="1", nullable=False),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["org_id"],
                ["organizations.id"],
                name=op.f("fk_scim_users_org_id_organizations"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["user_id"], ["users.id"], name=op.f("fk_scim_users_user_id_users"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_scim_users")),
            sa.UniqueConstraint("org_id", "user_id", name=op.f("uq_scim_users_org_id")),
        )
        op.create_index(op.f("ix_scim_users_org_id"), "scim_users", ["org_id"])
        op.create_index(op.f("ix_scim_users_user_id"), "scim_users", ["user_id"])
        op.create_index(op.f("ix_scim_users_external_id"), "scim_users", ["external_id"])


def downgrade() -> None:
    op.drop_table("scim_users")
    op.drop_table("scim_tokens")
