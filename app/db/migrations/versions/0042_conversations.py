"""conversations

Revision ID: 0042
Revises: 0036
Create Date: 2026-11-29 10:50:00

A private thread per subject (a feedback item or contact message of a person identified with the
project's identity secret) and its messages. The verified subjects already stored get theirs, opening
with the person's own message and holding the contact replies already sent.
"""

import warnings
from datetime import UTC, datetime

import sqlalchemy as sa
from advanced_alchemy.mixins.uuid import uuid7
from advanced_alchemy.types import GUID, DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0042"
down_revision = "0036"
branch_labels = None
depends_on = None

BIGINT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        conversations = op.create_table(
            "conversations",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("person", sa.String(length=255), nullable=False),
            sa.Column("person_email", sa.String(length=320), nullable=True),
            sa.Column("person_language", sa.String(length=8), nullable=True),
            sa.Column("feedback_id", GUID(length=16), nullable=True),
            sa.Column("contact_message_id", GUID(length=16), nullable=True),
            sa.Column("last_message_id", sa.BigInteger(), nullable=False),
            sa.Column("last_message_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("person_read_id", sa.BigInteger(), nullable=False),
            sa.Column("team_read_id", sa.BigInteger(), nullable=False),
            sa.Column("person_mailed_id", sa.BigInteger(), nullable=False),
            sa.Column("person_mailed_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("team_mailed_id", sa.BigInteger(), nullable=False),
            sa.Column("team_mailed_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_conversations_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["feedback_id"],
                ["feedback_items.id"],
                name=op.f("fk_conversations_feedback_id_feedback_items"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["contact_message_id"],
                ["contact_messages.id"],
                name=op.f("fk_conversations_contact_message_id_contact_messages"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_conversations")),
            sa.UniqueConstraint("feedback_id", name=op.f("uq_conversations_feedback_id")),
            sa.UniqueConstraint("contact_message_id", name=op.f("uq_conversations_contact_message_id")),
        )
        op.create_index(
            "ix_conversations_person", "conversations", ["project_id", "person", "last_message_at"]
        )
        op.create_index("ix_conversations_list", "conversations", ["project_id", "last_message_at", "id"])
        messages = op.create_table(
            "conversation_messages",
            sa.Column("id", BIGINT, autoincrement=True, nullable=False),
            sa.Column("conversation_id", GUID(length=16), nullable=False),
            sa.Column("sender", sa.String(length=8), nullable=False),
            sa.Column("message", sa.Text(), nullable=False),
            sa.Column("author", sa.String(length=320), nullable=True),
            sa.Column("contact_reply_id", GUID(length=16), nullable=True),
            sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
            sa.ForeignKeyConstraint(
                ["conversation_id"],
                ["conversations.id"],
                name=op.f("fk_conversation_messages_conversation_id_conversations"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["contact_reply_id"],
                ["contact_replies.id"],
                name=op.f("fk_conversation_messages_contact_reply_id_contact_replies"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_conversation_messages")),
            sa.UniqueConstraint("contact_reply_id", name=op.f("uq_conversation_messages_contact_reply_id")),
        )
        op.create_index("ix_conversation_messages_thread", "conversation_messages", ["conversation_id", "id"])
    _open_for_stored_subjects(conversations, messages)


def _open_for_stored_subjects(conversations: sa.Table, messages: sa.Table) -> None:
    bind = op.get_bind()
    meta = sa.MetaData()
    items = sa.Table("feedback_items", meta, autoload_with=bind)
    contacts = sa.Table("contact_messages", meta, autoload_with=bind)
    replies = sa.Table("contact_replies", meta, autoload_with=bind)
    now = datetime.now(UTC)
    for table, column, email in (
        (items, "feedback_id", items.c.notify_email),
        (contacts, "contact_message_id", contacts.c.email),
    ):
        rows = bind.execute(
            sa.select(
                table.c.id,
                table.c.project_id,
                table.c.submitted_by,
                table.c.message,
                email,
                table.c.created_at,
            )
            .where(table.c.submitted_by_verified.is_(True), table.c.submitted_by.is_not(None))
            .order_by(table.c.created_at, table.c.id)
        ).all()
        for subject, project_id, person, text, address, created_at in rows:
            ident = uuid7()
            bind.execute(
                conversations.insert().values(
                    id=ident,
                    project_id=project_id,
                    person=person,
                    person_email=address,
                    **{column: subject},
                    last_message_id=0,
                    last_message_at=created_at,
                    person_read_id=0,
                    team_read_id=0,
                    person_mailed_id=0,
                    team_mailed_id=0,
                    created_at=now,
                    updated_at=now,
                )
            )
            thread = [(None, "person", text, None, created_at)]
            if column == "contact_message_id":
                thread += bind.execute(
                    sa.select(
                        replies.c.id,
                        sa.literal("team"),
                        replies.c.message,
                        replies.c.author,
                        replies.c.created_at,
                    )
                    .where(replies.c.contact_message_id == subject)
                    .order_by(replies.c.created_at, replies.c.id)
                ).all()
            last = 0
            for reply_id, sender, message, author, at in thread:
                last = bind.execute(
                    messages.insert()
                    .values(
                        conversation_id=ident,
                        sender=sender,
                        message=message,
                        author=author,
                        contact_reply_id=reply_id,
                        created_at=at,
                        updated_at=at,
                    )
                    .returning(messages.c.id)
                ).scalar_one()
            # Everything stored before counts as seen by both sides: no mail about the past.
            bind.execute(
                conversations.update()
                .where(conversations.c.id == ident)
                .values(
                    last_message_id=last,
                    last_message_at=at,
                    person_read_id=last,
                    team_read_id=last,
                    person_mailed_id=last,
                    team_mailed_id=last,
                )
            )


def downgrade() -> None:
    op.drop_index("ix_conversation_messages_thread", table_name="conversation_messages")
    op.drop_table("conversation_messages")
    op.drop_index("ix_conversations_list", table_name="conversations")
    op.drop_index("ix_conversations_person", table_name="conversations")
    op.drop_table("conversations")
