"""email confirmation

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25 15:45:00

When each account's address was confirmed. Accounts made before confirmation existed count as
confirmed (from their creation).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("users", schema=None) as batch_op:
            batch_op.add_column(sa.Column("email_verified_at", DateTimeUTC(timezone=True), nullable=True))
        op.execute("UPDATE users SET email_verified_at = created_at")


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("users", schema=None) as batch_op:
            batch_op.drop_column("email_verified_at")
