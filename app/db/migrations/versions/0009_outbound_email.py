"""outbound email

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 15:30:00

Mail waiting in the outbox (its message encrypted), and the language each user's mail is written in.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "outbound_emails",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("recipient", sa.String(length=320), nullable=False),
            sa.Column("kind", sa.String(length=32), nullable=False),
            sa.Column("sealed_message", sa.Text(), nullable=False),
            sa.Column("sent_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["id"], ["outbox_jobs.id"], name=op.f("fk_outbound_emails_id_outbox_jobs"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound_emails")),
        )
        with op.batch_alter_table("users", schema=None) as batch_op:
            batch_op.add_column(sa.Column("language", sa.String(length=8), server_default="en", nullable=False))


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("users", schema=None) as batch_op:
            batch_op.drop_column("language")
        op.drop_table("outbound_emails")
