"""reporter addresses

Revision ID: 0030
Revises: 0028
Create Date: 2026-11-29 07:40:00

A reporter's address is confirmed before any "resolved" mail goes to it (per project),
and each queued mail names the item or contact message it is about, so deleting that row voids its mail.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "reporter_addresses",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("address", sa.String(length=320), nullable=False),
            sa.Column("asked_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("confirmed_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_reporter_addresses_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_reporter_addresses")),
            sa.UniqueConstraint(
                "project_id", "address", name=op.f("uq_reporter_addresses_project_id")
            ),
        )
        with op.batch_alter_table("reporter_addresses", schema=None) as batch_op:
            batch_op.create_index(
                batch_op.f("ix_reporter_addresses_address"), ["address"], unique=False
            )
        with op.batch_alter_table("outbound_emails", schema=None) as batch_op:
            batch_op.add_column(sa.Column("about_id", GUID(length=16), nullable=True))
            batch_op.create_index(batch_op.f("ix_outbound_emails_about_id"), ["about_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("outbound_emails", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbound_emails_about_id"))
        batch_op.drop_column("about_id")
    op.drop_table("reporter_addresses")
