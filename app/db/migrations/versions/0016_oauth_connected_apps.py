"""oauth connected apps

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 08:00:00

OAuth clients that AI assistants register, their authorization requests and codes, and the apps a member
connected to an organization (access and refresh tokens as SHA-256 digests).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
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
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "oauth_clients",
            sa.Column("name", sa.String(length=100), nullable=False),
            sa.Column("registration", JsonB, nullable=False),
            *_audit_columns(),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_clients")),
        )
        op.create_table(
            "oauth_authorizations",
            sa.Column("request_digest", sa.String(length=64), nullable=False),
            sa.Column("client_id", GUID(length=16), nullable=False),
            sa.Column("redirect_uri", sa.Text(), nullable=False),
            sa.Column("redirect_uri_provided_explicitly", sa.Boolean(), nullable=False),
            sa.Column("code_challenge", sa.String(length=128), nullable=False),
            sa.Column("state", sa.Text(), nullable=True),
            sa.Column("resource", sa.Text(), nullable=True),
            sa.Column("expires_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("code_digest", sa.String(length=64), nullable=True),
            sa.Column("org_id", GUID(length=16), nullable=True),
            sa.Column("user_id", GUID(length=16), nullable=True),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["client_id"], ["oauth_clients.id"],
                name=op.f("fk_oauth_authorizations_client_id_oauth_clients"), ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["org_id"], ["organizations.id"],
                name=op.f("fk_oauth_authorizations_org_id_organizations"), ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["user_id"], ["users.id"], name=op.f("fk_oauth_authorizations_user_id_users"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_oauth_authorizations")),
            sa.UniqueConstraint("request_digest", name=op.f("uq_oauth_authorizations_request_digest")),
            sa.UniqueConstraint("code_digest", name=op.f("uq_oauth_authorizations_code_digest")),
        )
        with op.batch_alter_table("oauth_authorizations", schema=None) as batch_op:
            batch_op.create_index(batch_op.f("ix_oauth_authorizations_client_id"), ["client_id"], unique=False)
            batch_op.create_index(batch_op.f("ix_oauth_authorizations_org_id"), ["org_id"], unique=False)
        op.create_table(
            "connected_apps",
            sa.Column("org_id", GUID(length=16), nullable=False),
            sa.Column("client_id", GUID(length=16), nullable=False),
            sa.Column("user_id", GUID(length=16), nullable=False),
            sa.Column("access_digest", sa.String(length=64), nullable=False),
            sa.Column("access_expires_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("refresh_digest", sa.String(length=64), nullable=False),
            sa.Column("refresh_expires_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("last_used_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("revoked_at", DateTimeUTC(timezone=True), nullable=True),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["client_id"], ["oauth_clients.id"],
                name=op.f("fk_connected_apps_client_id_oauth_clients"), ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["org_id"], ["organizations.id"], name=op.f("fk_connected_apps_org_id_organizations"), ondelete="CASCADE"
            ),
            sa.ForeignKeyConstraint(
                ["user_id"], ["users.id"], name=op.f("fk_connected_apps_user_id_users"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_connected_apps")),
            sa.UniqueConstraint("access_digest", name=op.f("uq_connected_apps_access_digest")),
            sa.UniqueConstraint("refresh_digest", name=op.f("uq_connected_apps_refresh_digest")),
        )
        with op.batch_alter_table("connected_apps", schema=None) as batch_op:
            batch_op.create_index(batch_op.f("ix_connected_apps_org_id"), ["org_id"], unique=False)
            batch_op.create_index(batch_op.f("ix_connected_apps_client_id"), ["client_id"], unique=False)
            batch_op.create_index(batch_op.f("ix_connected_apps_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_table("connected_apps")
    op.drop_table("oauth_authorizations")
    op.drop_table("oauth_clients")
