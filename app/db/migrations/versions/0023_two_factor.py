"""two factor

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-27 14:45:00

Second factors: an authenticator app (its seed sealed), single-use recovery codes (keyed digests) and
passkeys (public keys); and the organization setting that requires one of them of every member.
"""

import warnings
from typing import Any

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def _common(table: str) -> list[Any]:
    return [
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("user_id", GUID(length=16), nullable=False),
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f(f"fk_{table}_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{table}")),
    ]


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "totp_authenticators",
            *_common("totp_authenticators"),
            sa.Column("sealed_secret", sa.String(length=255), nullable=False),
            sa.Column("confirmed_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("last_used_step", sa.BigInteger(), nullable=True),
            sa.UniqueConstraint("user_id", name=op.f("uq_totp_authenticators_user_id")),
        )
        op.create_table(
            "recovery_codes",
            *_common("recovery_codes"),
            sa.Column("code_digest", sa.String(length=64), nullable=False),
            sa.Column("used_at", DateTimeUTC(timezone=True), nullable=True),
            sa.UniqueConstraint("code_digest", name=op.f("uq_recovery_codes_code_digest")),
        )
        op.create_index(op.f("ix_recovery_codes_user_id"), "recovery_codes", ["user_id"], unique=False)
        op.create_table(
            "passkeys",
            *_common("passkeys"),
            sa.Column("credential_id", sa.String(length=1400), nullable=False),
            sa.Column("public_key", sa.LargeBinary(), nullable=False),
            sa.Column("sign_count", sa.BigInteger(), nullable=False),
            sa.Column("name", sa.String(length=100), nullable=False),
            sa.Column("last_used_at", DateTimeUTC(timezone=True), nullable=True),
            sa.UniqueConstraint("credential_id", name=op.f("uq_passkeys_credential_id")),
        )
        op.create_index(op.f("ix_passkeys_user_id"), "passkeys", ["user_id"], unique=False)
        with op.batch_alter_table("organizations", schema=None) as batch_op:
            batch_op.add_column(
                sa.Column("require_two_factor", sa.Boolean(), server_default="0", nullable=False)
            )


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        # Not in batch mode: SQLite's batch copies the table, and dropping the old organizations table
        # would cascade to every row that names an organization. SQLite drops a column itself since 3.35.
        op.drop_column("organizations", "require_two_factor")
        op.drop_index(op.f("ix_passkeys_user_id"), table_name="passkeys")
        op.drop_table("passkeys")
        op.drop_index(op.f("ix_recovery_codes_user_id"), table_name="recovery_codes")
        op.drop_table("recovery_codes")
        op.drop_table("totp_authenticators")
