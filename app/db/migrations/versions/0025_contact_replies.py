"""contact replies

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-27 14:40:00

Replies to contact messages, kept as each message's thread, and whether a message was answered
(existing messages are open).
"""

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("contact_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("status", sa.String(length=16), server_default="Open", nullable=False))
    op.create_table(
        "contact_replies",
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("contact_message_id", GUID(length=16), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("author", sa.String(length=320), nullable=False),
        sa.Column("reply_to", sa.String(length=320), nullable=True),
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["contact_message_id"],
            ["contact_messages.id"],
            name=op.f("fk_contact_replies_contact_message_id_contact_messages"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contact_replies")),
    )
    op.create_index(
        op.f("ix_contact_replies_contact_message_id"), "contact_replies", ["contact_message_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_contact_replies_contact_message_id"), table_name="contact_replies")
    op.drop_table("contact_replies")
    with op.batch_alter_table("contact_messages", schema=None) as batch_op:
        batch_op.drop_column("status")
