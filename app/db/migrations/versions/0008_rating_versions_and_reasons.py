"""rating counters by version and reason

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 13:20:00

The day counters and totals gain two key columns, the ratings' version and a helpful rating's reason.
Both tables are rebuilt from the rating rows, under the rules the writers count by: each non-archived
rating under ALL_PATHS ('') and its own path, on its UTC day, version '' when it has none, reason = a
helpful rating's metadata.reason when that is a string of 1 to 64 characters, else ''.
"""

import warnings

import sqlalchemy as sa
from advanced_alchemy.types import GUID, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_REASON = {
    "postgresql": (
        "CASE WHEN rating_type = 'helpful' AND jsonb_typeof(metadata -> 'reason') = 'string' "
        "AND length(metadata ->> 'reason') BETWEEN 1 AND 64 THEN metadata ->> 'reason' ELSE '' END"
    ),
    "sqlite": (
        "CASE WHEN rating_type = 'helpful' AND json_type(metadata, '$.reason') = 'text' "
        "AND length(json_extract(metadata, '$.reason')) BETWEEN 1 AND 64 "
        "THEN json_extract(metadata, '$.reason') ELSE '' END"
    ),
}
_DAY = {"postgresql": "CAST(created_at AT TIME ZONE 'UTC' AS DATE)", "sqlite": "date(created_at)"}


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        _rebuild(with_version_and_reason=True)


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        _rebuild(with_version_and_reason=False)


def _rebuild(*, with_version_and_reason: bool) -> None:
    op.drop_table("rating_totals")
    op.drop_table("rating_counters")
    extra = ("version", "reason") if with_version_and_reason else ()
    _create("rating_counters", ("day",), extra)
    _create("rating_totals", (), extra)
    dialect = op.get_bind().dialect.name
    false = "false" if dialect == "postgresql" else "0"
    picked = [f"{_DAY[dialect]} AS day", "COALESCE(max_stars, 0) AS scale", "value"]
    if extra:
        picked += ["COALESCE(version, '') AS version", f"{_REASON[dialect]} AS reason"]
    every_path = (
        f"SELECT project_id, rating_type, '' AS path, {', '.join(picked)} FROM ratings "
        f"WHERE archived = {false}"
    )
    own_path = (
        f"SELECT project_id, rating_type, path, {', '.join(picked)} FROM ratings "
        f"WHERE archived = {false} AND path IS NOT NULL AND path != ''"
    )
    keys = ", ".join(("project_id", "rating_type", "path", "day", "scale", "value", *extra))
    op.execute(
        f"INSERT INTO rating_counters ({keys}, count) SELECT {keys}, COUNT(*) "
        f"FROM ({every_path} UNION ALL {own_path}) AS counted GROUP BY {keys}"
    )
    total_keys = keys.replace("day, ", "")
    op.execute(
        f"INSERT INTO rating_totals ({total_keys}, count) SELECT {total_keys}, SUM(count) "
        f"FROM rating_counters GROUP BY {total_keys}"
    )


def _create(name: str, day: tuple[str, ...], extra: tuple[str, ...]) -> None:
    columns = [
        sa.Column("project_id", GUID(length=16), nullable=False),
        sa.Column("rating_type", sa.String(length=8), nullable=False),
        sa.Column("path", sa.String(length=2048), nullable=False),
        *(sa.Column("day", sa.Date(), nullable=False) for _ in day),
        sa.Column("scale", sa.Integer(), nullable=False),
        sa.Column("value", sa.SmallInteger(), nullable=False),
        *(sa.Column("version", sa.String(length=100), nullable=False) for _ in extra[:1]),
        *(sa.Column("reason", sa.String(length=64), nullable=False) for _ in extra[1:]),
        sa.Column("count", sa.BigInteger(), nullable=False),
    ]
    op.create_table(
        name,
        *columns,
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f(f"fk_{name}_project_id_projects"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint(
            "project_id", "rating_type", "path", *day, "scale", "value", *extra, name=op.f(f"pk_{name}")
        ),
    )
