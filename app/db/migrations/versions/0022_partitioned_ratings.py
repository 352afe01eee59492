"""partitioned ratings

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27 15:00:00

On PostgreSQL `ratings` becomes partitioned by month of created_at (app/db/rating_partitions.py): a
filled table is attached as the partition of every moment before next month, without copying a row and
without stopping submissions (docs/scale.md). SQLite keeps its plain table.
"""

from alembic import op
from sqlalchemy import text

from app.db.rating_partitions import TABLE, is_partitioned, partition_table
from app.timestamps import utc_now

# revision identifiers, used by Alembic.
revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    # Outside a transaction: the unique index is built CONCURRENTLY and each later step is its own
    # short transaction, so writes go on meanwhile.
    with op.get_context().autocommit_block():
        partition_table(op.get_bind(), utc_now())


def downgrade() -> None:
    """A plain table again, copied from the partitions: the database is offline for this."""
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or not is_partitioned(bind):
        return
    for statement in (
        f"CREATE TABLE ratings_plain (LIKE {TABLE} INCLUDING DEFAULTS)",
        f"INSERT INTO ratings_plain SELECT * FROM {TABLE}",
        f"DROP TABLE {TABLE}",
        f"ALTER TABLE ratings_plain RENAME TO {TABLE}",
        f"ALTER TABLE {TABLE} ADD CONSTRAINT pk_ratings PRIMARY KEY (id)",
        f"ALTER TABLE {TABLE} ADD CONSTRAINT fk_ratings_project_id_projects FOREIGN KEY (project_id) "
        "REFERENCES projects (id) ON DELETE CASCADE",
        f"CREATE INDEX ix_ratings_list ON {TABLE} (project_id, rating_type, archived, created_at, id)",
        f"CREATE INDEX ix_ratings_path ON {TABLE} (project_id, rating_type, path, archived, created_at)",
    ):
        bind.execute(text(statement))
