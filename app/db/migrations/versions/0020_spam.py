"""spam

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27 12:00:00

Feedback items and contact messages judged spam: kept, but out of lists, counts and events until a
member says otherwise. Existing rows are not spam.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

TABLES = ("feedback_items", "contact_messages")


def upgrade() -> None:
    # A plain literal default: an expression (sa.false()) makes SQLite's batch mode copy the table.
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("spam", sa.Boolean(), server_default="0", nullable=False))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("spam")
