"""insights

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 08:00:00

Feedback messages as vectors, the themes found among them, each project's progress on both, and the
link from a duplicate feedback item to its original.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _audit_columns() -> list[sa.Column]:
    return [
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "themes",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("label", sa.String(length=200), nullable=False),
            sa.Column("keywords", JsonB, nullable=False),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["project_id"], ["projects.id"], name=op.f("fk_themes_project_id_projects"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_themes")),
        )
        op.create_index(op.f("ix_themes_project_id"), "themes", ["project_id"], unique=False)
        op.create_table(
            "feedback_embeddings",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("job_id", GUID(length=16), nullable=True),
            sa.Column("model", sa.String(length=100), nullable=True),
            sa.Column("language", sa.String(length=8), nullable=True),
            sa.Column("vector", sa.LargeBinary(), nullable=True),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("theme_id", GUID(length=16), nullable=True),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["id"], ["feedback_items.id"], name=op.f("fk_feedback_embeddings_id_feedback_items"), ondelete="CASCADE"
            ),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_feedback_embeddings_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.ForeignKeyConstraint(
                ["theme_id"], ["themes.id"], name=op.f("fk_feedback_embeddings_theme_id_themes"), ondelete="SET NULL"
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_feedback_embeddings")),
        )
        op.create_index("ix_feedback_embeddings_version", "feedback_embeddings", ["project_id", "version"], unique=False)
        op.create_index(op.f("ix_feedback_embeddings_job_id"), "feedback_embeddings", ["job_id"], unique=False)
        op.create_index(op.f("ix_feedback_embeddings_theme_id"), "feedback_embeddings", ["theme_id"], unique=False)
        op.create_table(
            "project_insights",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("embeddings_version", sa.Integer(), nullable=False),
            sa.Column("themes_version", sa.Integer(), nullable=False),
            sa.Column("themes_computed_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("themes_requested", sa.Boolean(), nullable=False),
            sa.Column("themes_locked_until", DateTimeUTC(timezone=True), nullable=True),
            *_audit_columns(),
            sa.ForeignKeyConstraint(
                ["project_id"],
                ["projects.id"],
                name=op.f("fk_project_insights_project_id_projects"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_project_insights")),
            sa.UniqueConstraint("project_id", name=op.f("uq_project_insights_project_id")),
        )
        with op.batch_alter_table("feedback_items", schema=None) as batch_op:
            batch_op.add_column(sa.Column("duplicate_of_id", GUID(length=16), nullable=True))
            batch_op.create_index(batch_op.f("ix_feedback_items_duplicate_of_id"), ["duplicate_of_id"], unique=False)
            batch_op.create_foreign_key(
                batch_op.f("fk_feedback_items_duplicate_of_id_feedback_items"),
                "feedback_items",
                ["duplicate_of_id"],
                ["id"],
                ondelete="SET NULL",
            )


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("feedback_items", schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f("fk_feedback_items_duplicate_of_id_feedback_items"), type_="foreignkey")
            batch_op.drop_index(batch_op.f("ix_feedback_items_duplicate_of_id"))
            batch_op.drop_column("duplicate_of_id")
        op.drop_table("project_insights")
        op.drop_index(op.f("ix_feedback_embeddings_theme_id"), table_name="feedback_embeddings")
        op.drop_index(op.f("ix_feedback_embeddings_job_id"), table_name="feedback_embeddings")
        op.drop_index("ix_feedback_embeddings_version", table_name="feedback_embeddings")
        op.drop_table("feedback_embeddings")
        op.drop_index(op.f("ix_themes_project_id"), table_name="themes")
        op.drop_table("themes")
