"""feedback assignee

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25 16:00:00

The member a feedback item is assigned to.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("feedback_items", schema=None) as batch_op:
            batch_op.add_column(sa.Column("assignee_id", GUID(length=16), nullable=True))
            batch_op.create_index(batch_op.f("ix_feedback_items_assignee_id"), ["assignee_id"], unique=False)
            batch_op.create_foreign_key(
                batch_op.f("fk_feedback_items_assignee_id_users"), "users", ["assignee_id"], ["id"], ondelete="SET NULL"
            )


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("feedback_items", schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f("fk_feedback_items_assignee_id_users"), type_="foreignkey")
            batch_op.drop_index(batch_op.f("ix_feedback_items_assignee_id"))
            batch_op.drop_column("assignee_id")
