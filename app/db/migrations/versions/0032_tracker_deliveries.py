"""tracker deliveries

Revision ID: 0032
Revises: 0028
Create Date: 2026-11-29 07:30:00

When the change a tracker's webhook last applied to a linked issue was made, so an older one changes
nothing.
"""

import sqlalchemy as sa
from advanced_alchemy.types import DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0032"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("linked_issues") as batch:
        batch.add_column(sa.Column("changed_at", DateTimeUTC(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("linked_issues") as batch:
        batch.drop_column("changed_at")
