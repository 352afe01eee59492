"""theme names

Revision ID: 0041
Revises: 0042
Create Date: 2026-11-29 11:00:00

Each theme gets a short name (two to five of its members' words in the project's main language) and a
confidence (how close its members sit to its centre, 0..1). Themes stored before get both at their next
recomputation; until then the name is empty and the confidence unknown.
"""

import warnings

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0041"
down_revision = "0042"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("themes", schema=None) as batch_op:
            batch_op.add_column(sa.Column("name", sa.String(length=200), nullable=False, server_default=""))
            batch_op.add_column(sa.Column("confidence", sa.Float(), nullable=True))


def downgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("themes", schema=None) as batch_op:
            batch_op.drop_column("confidence")
            batch_op.drop_column("name")
