"""surveys

Revision ID: 0034
Revises: 0028
Create Date: 2026-11-29 07:50:00

Surveys, their responses, the responses' counters per day, language, question and value, the
single-use links lifecycle events make, and the vectors of open-text answers (their themes).
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0034"
down_revision = "0028"
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


def _survey(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["survey_id"], ["surveys.id"], name=op.f(f"fk_{table}_survey_id_surveys"), ondelete="CASCADE"
    )


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        op.create_table(
            "surveys",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("name", sa.String(length=200), nullable=False),
            sa.Column("status", sa.String(length=16), nullable=False),
            sa.Column("languages", JsonB, nullable=False),
            sa.Column("questions", JsonB, nullable=False),
            sa.Column("display", sa.String(length=16), nullable=False),
            sa.Column("trigger", JsonB, nullable=False),
            sa.Column("audience", JsonB, nullable=False),
            sa.Column("cooldown_days", sa.Integer(), nullable=False),
            sa.Column("ends_at", DateTimeUTC(timezone=True), nullable=True),
            sa.Column("max_responses", sa.Integer(), nullable=True),
            *_audit_columns(),
            _project("surveys"),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_surveys")),
        )
        op.create_index("ix_surveys_list", "surveys", ["project_id", "created_at", "id"], unique=False)
        op.create_index("ix_surveys_status", "surveys", ["status", "project_id"], unique=False)
        op.create_table(
            "survey_responses",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("survey_id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("answers", JsonB, nullable=False),
            sa.Column("language", sa.String(length=16), nullable=False),
            sa.Column("path", sa.String(length=2048), nullable=True),
            sa.Column("completed", sa.Boolean(), nullable=False),
            sa.Column("day", sa.Date(), nullable=False),
            sa.Column("submitted_by", sa.String(length=255), nullable=True),
            sa.Column("submitted_by_verified", sa.Boolean(), nullable=False),
            sa.Column("spam", sa.Boolean(), nullable=False),
            *_audit_columns(),
            _survey("survey_responses"),
            _project("survey_responses"),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_survey_responses")),
        )
        op.create_index(
            "ix_survey_responses_list", "survey_responses", ["survey_id", "created_at", "id"], unique=False
        )
        op.create_index(
            "ix_survey_responses_project", "survey_responses", ["project_id", "created_at"], unique=False
        )
        op.create_index(
            "ix_survey_responses_submitter", "survey_responses", ["project_id", "submitted_by"], unique=False
        )
        op.create_table(
            "survey_counters",
            sa.Column("survey_id", GUID(length=16), nullable=False),
            sa.Column("day", sa.Date(), nullable=False),
            sa.Column("language", sa.String(length=16), nullable=False),
            sa.Column("question_id", sa.String(length=40), nullable=False),
            sa.Column("value", sa.String(length=40), nullable=False),
            sa.Column("count", sa.BigInteger(), nullable=False),
            _survey("survey_counters"),
            sa.PrimaryKeyConstraint(
                "survey_id", "day", "language", "question_id", "value", name=op.f("pk_survey_counters")
            ),
        )
        op.create_table(
            "survey_links",
            sa.Column("id", GUID(length=16), nullable=False),
            sa.Column("survey_id", GUID(length=16), nullable=False),
            sa.Column("project_id", GUID(length=16), nullable=False),
            sa.Column("token_digest", sa.String(length=64), nullable=False),
            sa.Column("user_id", sa.String(length=255), nullable=False),
            sa.Column("language", sa.String(length=16), nullable=True),
            sa.Column("expires_at", DateTimeUTC(timezone=True), nullable=False),
            sa.Column("used_at", DateTimeUTC(timezone=True), nullable=True),
            *_audit_columns(),
            _survey("survey_links"),
            _project("survey_links"),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_survey_links")),
            sa.UniqueConstraint("token_digest", name=op.f("uq_survey_links_token_digest")),
        )
        op.create_index(op.f("ix_survey_links_survey_id"), "survey_links", ["survey_id"], unique=False)
        op.create_index(op.f("ix_survey_links_project_id"), "survey_links", ["project_id"], unique=False)
        op.create_table(
            "survey_answer_vectors",
            sa.Column("response_id", GUID(length=16), nullable=False),
            sa.Column("question_id", sa.String(length=40), nullable=False),
            sa.Column("survey_id", GUID(length=16), nullable=False),
            sa.Column("day", sa.Date(), nullable=False),
            sa.Column("language", sa.String(length=16), nullable=False),
            sa.Column("job_id", GUID(length=16), nullable=True),
            sa.Column("model", sa.String(length=100), nullable=True),
            sa.Column("text_language", sa.String(length=8), nullable=True),
            sa.Column("vector", sa.LargeBinary(), nullable=True),
            sa.ForeignKeyConstraint(
                ["response_id"],
                ["survey_responses.id"],
                name=op.f("fk_survey_answer_vectors_response_id_survey_responses"),
                ondelete="CASCADE",
            ),
            _survey("survey_answer_vectors"),
            sa.PrimaryKeyConstraint("response_id", "question_id", name=op.f("pk_survey_answer_vectors")),
        )
        op.create_index(
            "ix_survey_answer_vectors_question",
            "survey_answer_vectors",
            ["survey_id", "question_id", "day"],
            unique=False,
        )
        op.create_index(
            op.f("ix_survey_answer_vectors_job_id"), "survey_answer_vectors", ["job_id"], unique=False
        )


def downgrade() -> None:
    op.drop_table("survey_answer_vectors")
    op.drop_table("survey_links")
    op.drop_table("survey_counters")
    op.drop_table("survey_responses")
    op.drop_table("surveys")
