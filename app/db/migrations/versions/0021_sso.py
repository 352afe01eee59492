"""single sign-on

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27 14:40:00

An organization's OpenID Connect provider (client secret sealed) and the email domains it signs in.
"""

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def _audit_columns() -> list[sa.Column]:
    return [
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "sso_connections",
        *_audit_columns(),
        sa.Column("org_id", GUID(length=16), nullable=False),
        sa.Column("issuer", sa.String(length=500), nullable=False),
        sa.Column("client_id", sa.String(length=300), nullable=False),
        sa.Column("sealed_client_secret", sa.Text(), nullable=False),
        sa.Column("require_sso", sa.Boolean(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], name=op.f("fk_sso_connections_org_id_organizations"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sso_connections")),
        sa.UniqueConstraint("org_id", name=op.f("uq_sso_connections_org_id")),
    )
    op.create_table(
        "sso_domains",
        *_audit_columns(),
        sa.Column("org_id", GUID(length=16), nullable=False),
        sa.Column("domain", sa.String(length=253), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], name=op.f("fk_sso_domains_org_id_organizations"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sso_domains")),
        sa.UniqueConstraint("domain", name=op.f("uq_sso_domains_domain")),
    )
    op.create_index(op.f("ix_sso_domains_org_id"), "sso_domains", ["org_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sso_domains_org_id"), table_name="sso_domains")
    op.drop_table("sso_domains")
    op.drop_table("sso_connections")
