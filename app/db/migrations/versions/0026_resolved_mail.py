"""resolved mail

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-27 14:50:00

A feedback item's reporter may leave an address to be told once when the item is resolved.
"""

import sqlalchemy as sa
from advanced_alchemy.types import DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("feedback_items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("notify_email", sa.String(length=320), nullable=True))
        batch_op.add_column(sa.Column("resolved_mail_at", DateTimeUTC(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("feedback_items", schema=None) as batch_op:
        batch_op.drop_column("resolved_mail_at")
        batch_op.drop_column("notify_email")
