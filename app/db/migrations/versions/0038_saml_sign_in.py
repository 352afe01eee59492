"""saml sign-in

Revision ID: 0038
Revises: 0032
Create Date: 2026-11-29 08:20:00

Single sign-on over SAML 2.0 beside OpenID Connect: a connection says which protocol it speaks and holds
the identity provider's metadata; the assertions that signed somebody in are kept until they expire, so
that each is used once on every node.
"""

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0038"
down_revision = "0032"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sso_connections") as batch:
        batch.add_column(sa.Column("protocol", sa.String(length=10), nullable=False, server_default="oidc"))
        batch.add_column(sa.Column("saml_metadata", sa.Text(), nullable=True))
        batch.add_column(sa.Column("saml_metadata_url", sa.String(length=2000), nullable=True))
    op.create_table(
        "saml_assertions",
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("org_id", GUID(length=16), nullable=False),
        sa.Column("assertion_id", sa.String(length=256), nullable=False),
        sa.Column("expires_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"], ["organizations.id"], name="fk_saml_assertions_org_id_organizations", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_saml_assertions"),
        sa.UniqueConstraint("org_id", "assertion_id", name="uq_saml_assertions_org_id_assertion_id"),
    )
    op.create_index("ix_saml_assertions_expires_at", "saml_assertions", ["expires_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_saml_assertions_expires_at", table_name="saml_assertions")
    op.drop_table("saml_assertions")
    op.execute("DELETE FROM sso_connections WHERE protocol = 'saml'")
    with op.batch_alter_table("sso_connections") as batch:
        batch.drop_column("saml_metadata_url")
        batch.drop_column("saml_metadata")
        batch.drop_column("protocol")
