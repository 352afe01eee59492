"""password resets

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 15:20:00

One-time links to set a new password, kept as digests of their secrets.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "password_resets",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("user_id", GUID(length=16), nullable=False),
            sa.Column("token_digest", sa.String(length=64), nullable=False),
            sa.Column("expires_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("used_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["user_id"], ["users.id"], name=op.f("fk_password_resets_user_id_users"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_password_resets")),
            sa.UniqueConstraint("token_digest", name=op.f("uq_password_resets_token_digest")),
        )
        op.create_index(op.f("ix_password_resets_user_id"), "password_resets", ["user_id"], unique=False)


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.drop_index(op.f("ix_password_resets_user_id"), table_name="password_resets")
        op.drop_table("password_resets")
