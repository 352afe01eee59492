"""ideas portal

Revision ID: 0040
Revises: 0041
Create Date: 2026-11-29 10:50:00

The public ideas portal: ideas, their votes, comments, tags and vectors, changelog entries and the
ideas they name, feedback items linked to ideas as demand, the record of "done" mails sent and of
addresses that unsubscribed from them, and each project's portal settings.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0040"
down_revision = "0041"
branch_labels = None
depends_on = None


def _audit_columns() -> list[sa.Column]:
    return [
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
    ]


def _project(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["project_id"], ["projects.id"], name=op.f(f"fk_{table}_project_id_projects"), ondelete="CASCADE"
    )


def _idea(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["idea_id"], ["ideas.id"], name=op.f(f"fk_{table}_idea_id_ideas"), ondelete="CASCADE"
    )


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        _upgrade()


def _upgrade() -> None:
    # A plain ADD COLUMN: on SQLite a batch would copy `projects` into a new table, and dropping the old
    # one deletes every row that references a project (ON DELETE CASCADE with foreign keys on).
    op.add_column("projects", sa.Column("portal", JsonB, nullable=True))
    op.create_table(
        "ideas",
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("title", sa.String(length=120), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("response", sa.Text(), nullable=True),
        sa.Column("vote_count", sa.Integer(), nullable=False),
        sa.Column("comment_count", sa.Integer(), nullable=False),
        sa.Column("demand_count", sa.Integer(), nullable=False),
        sa.Column("pinned", sa.Boolean(), nullable=False),
        sa.Column("spam", sa.Boolean(), nullable=False),
        sa.Column("merged_into_id", GUID(length=16), nullable=True),
        sa.Column("author_key", sa.String(length=200), nullable=True),
        sa.Column("author_name", sa.String(length=200), nullable=False),
        sa.Column("author_email", sa.String(length=320), nullable=True),
        sa.Column("author_language", sa.String(length=8), nullable=False),
        *_audit_columns(),
        _project("ideas"),
        sa.ForeignKeyConstraint(
            ["merged_into_id"], ["ideas.id"], name=op.f("fk_ideas_merged_into_id_ideas"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ideas")),
    )
    op.create_index("ix_ideas_project_votes", "ideas", ["project_id", "vote_count", "id"])
    op.create_index("ix_ideas_project_created", "ideas", ["project_id", "created_at"])
    op.create_index("ix_ideas_author", "ideas", ["project_id", "author_key"])
    op.create_index(op.f("ix_ideas_merged_into_id"), "ideas", ["merged_into_id"])
    op.create_table(
        "idea_votes",
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.Column("voter_key", sa.String(length=200), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        _idea("idea_votes"),
        _project("idea_votes"),
        sa.PrimaryKeyConstraint("idea_id", "voter_key", name=op.f("pk_idea_votes")),
    )
    op.create_index("ix_idea_votes_voter", "idea_votes", ["project_id", "voter_key"])
    op.create_table(
        "idea_comments",
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("parent_id", GUID(length=16), nullable=True),
        sa.Column("author_key", sa.String(length=200), nullable=True),
        sa.Column("author_name", sa.String(length=200), nullable=False),
        sa.Column("author_email", sa.String(length=320), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("team", sa.Boolean(), nullable=False),
        sa.Column("spam", sa.Boolean(), nullable=False),
        *_audit_columns(),
        _idea("idea_comments"),
        _project("idea_comments"),
        sa.ForeignKeyConstraint(
            ["parent_id"],
            ["idea_comments.id"],
            name=op.f("fk_idea_comments_parent_id_idea_comments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idea_comments")),
    )
    op.create_index("ix_idea_comments_idea", "idea_comments", ["idea_id", "created_at"])
    op.create_index("ix_idea_comments_author", "idea_comments", ["project_id", "author_key"])
    op.create_table(
        "idea_tags",
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.Column("tag", sa.String(length=40), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        _idea("idea_tags"),
        _project("idea_tags"),
        sa.PrimaryKeyConstraint("idea_id", "tag", name=op.f("pk_idea_tags")),
    )
    op.create_index("ix_idea_tags_project_tag", "idea_tags", ["project_id", "tag"])
    op.create_table(
        "idea_vectors",
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("job_id", GUID(length=16), nullable=True),
        sa.Column("model", sa.String(length=100), nullable=True),
        sa.Column("text_language", sa.String(length=8), nullable=True),
        sa.Column("vector", sa.LargeBinary(), nullable=True),
        _idea("idea_vectors"),
        _project("idea_vectors"),
        sa.PrimaryKeyConstraint("idea_id", name=op.f("pk_idea_vectors")),
    )
    op.create_index(op.f("ix_idea_vectors_project_id"), "idea_vectors", ["project_id"])
    op.create_index(op.f("ix_idea_vectors_job_id"), "idea_vectors", ["job_id"])
    op.create_table(
        "changelog_entries",
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("published_at", DateTimeUTC(timezone=True), nullable=True),
        *_audit_columns(),
        _project("changelog_entries"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_changelog_entries")),
    )
    op.create_index("ix_changelog_entries_published", "changelog_entries", ["project_id", "published_at"])
    op.create_table(
        "changelog_ideas",
        sa.Column("entry_id", GUID(length=16), nullable=False),
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["changelog_entries.id"],
            name=op.f("fk_changelog_ideas_entry_id_changelog_entries"),
            ondelete="CASCADE",
        ),
        _idea("changelog_ideas"),
        sa.PrimaryKeyConstraint("entry_id", "idea_id", name=op.f("pk_changelog_ideas")),
    )
    op.create_index(op.f("ix_changelog_ideas_idea_id"), "changelog_ideas", ["idea_id"])
    op.create_table(
        "idea_demands",
        sa.Column("feedback_id", GUID(length=16), nullable=False),
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["feedback_id"],
            ["feedback_items.id"],
            name=op.f("fk_idea_demands_feedback_id_feedback_items"),
            ondelete="CASCADE",
        ),
        _idea("idea_demands"),
        _project("idea_demands"),
        sa.PrimaryKeyConstraint("feedback_id", name=op.f("pk_idea_demands")),
    )
    op.create_index(op.f("ix_idea_demands_idea_id"), "idea_demands", ["idea_id"])
    op.create_table(
        "idea_notices",
        sa.Column("idea_id", GUID(length=16), nullable=False),
        sa.Column("recipient", sa.String(length=320), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        _idea("idea_notices"),
        _project("idea_notices"),
        sa.PrimaryKeyConstraint("idea_id", "recipient", name=op.f("pk_idea_notices")),
    )
    op.create_index(op.f("ix_idea_notices_project_id"), "idea_notices", ["project_id"])
    op.create_table(
        "portal_opt_outs",
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("recipient", sa.String(length=320), nullable=False),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        _project("portal_opt_outs"),
        sa.PrimaryKeyConstraint("project_id", "recipient", name=op.f("pk_portal_opt_outs")),
    )


def downgrade() -> None:
    for table in (
        "portal_opt_outs",
        "idea_notices",
        "idea_demands",
        "changelog_ideas",
        "changelog_entries",
        "idea_vectors",
        "idea_tags",
        "idea_comments",
        "idea_votes",
        "ideas",
    ):
        op.drop_table(table)
    with op.batch_alter_table("projects") as batch:
        batch.drop_column("portal")
