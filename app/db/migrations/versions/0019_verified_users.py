"""verified users

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27 11:30:00

A project's identity secret (sealed) and whether it accepts only verified users; whether the
submitter of each rating, feedback item and contact message was verified (existing rows were not), and
the submitter of a contact message.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

SUBMITTED = ("ratings", "feedback_items", "contact_messages")


def upgrade() -> None:
    # A plain literal default: an expression (sa.false()) makes SQLite's batch mode copy the table, and
    # dropping the old projects table would cascade to every row that names a project.
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sealed_identity_secret", sa.Text(), nullable=True))
        batch_op.add_column(
            sa.Column("require_verified_users", sa.Boolean(), server_default="0", nullable=False)
        )
    with op.batch_alter_table("contact_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("submitted_by", sa.String(length=255), nullable=True))
    for table in SUBMITTED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column("submitted_by_verified", sa.Boolean(), server_default="0", nullable=False)
            )


def downgrade() -> None:
    for table in SUBMITTED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("submitted_by_verified")
    with op.batch_alter_table("contact_messages", schema=None) as batch_op:
        batch_op.drop_column("submitted_by")
    with op.batch_alter_table("projects", schema=None) as batch_op:
        batch_op.drop_column("require_verified_users")
        batch_op.drop_column("sealed_identity_secret")
