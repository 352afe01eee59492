"""project retention

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25 15:50:00

How long a project keeps its data (null: forever), and the lease of the periodic job that deletes
older items.
"""

import sqlalchemy as sa
from advanced_alchemy.types import DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.add_column(sa.Column("retention_days", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("retention_due_at", DateTimeUTC(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.drop_column("retention_due_at")
        batch_op.drop_column("retention_days")
