"""tracker integrations

Revision ID: 0032
Revises: 0028
Create Date: 2026-11-29 07:30:00

One table for every issue tracker's integration (GitHub, Linear, Jira Cloud): the GitHub and Linear rows
move into it with their ids (the webhook URLs pasted into the trackers name them) and their sealed
credentials and secrets as they are (the same key seals them). Linked issues remember when the change
their tracker's webhook last applied was made, so an older one changes nothing.
"""

import warnings
from typing import Any

import sqlalchemy as sa
from advanced_alchemy.types import GUID, DateTimeUTC, JsonB
from alembic import op

# revision identifiers, used by Alembic.
revision = "0032"
down_revision = "0030"
branch_labels = None
depends_on = None

TIMES = ("created_at", "updated_at")
OLD = {
    # tracker: (table, its setting column, its sealed credential column)
    "github": ("github_integrations", "repository", "sealed_token"),
    "linear": ("linear_integrations", "team_id", "sealed_api_key"),
}
SETTING_LENGTHS = {"repository": 200, "team_id": 100}
TRACKERS = sa.table(
    "tracker_integrations",
    sa.column("id", GUID(length=16)),
    sa.column("project_id", GUID(length=16)),
    sa.column("tracker", sa.String()),
    sa.column("settings", JsonB),
    sa.column("sealed_credential", sa.Text()),
    sa.column("sealed_webhook_secret", sa.Text()),
    *(sa.column(name, DateTimeUTC(timezone=True)) for name in TIMES),
)


def _old_table(tracker: str) -> sa.TableClause:
    name, setting, credential = OLD[tracker]
    return sa.table(
        name,
        sa.column("id", GUID(length=16)),
        sa.column("project_id", GUID(length=16)),
        sa.column(setting, sa.String()),
        sa.column(credential, sa.Text()),
        sa.column("sealed_webhook_secret", sa.Text()),
        *(sa.column(column, DateTimeUTC(timezone=True)) for column in TIMES),
    )


def _integration_table(name: str, unique: sa.UniqueConstraint, *columns: sa.Column[Any]) -> None:
    op.create_table(
        name,
        sa.Column("id", GUID(length=16), nullable=False),
        sa.Column("project_id", GUID(length=16), nullable=False),
        *columns,
        sa.Column("sealed_webhook_secret", sa.Text(), nullable=False),
        sa.Column("sa_orm_sentinel", sa.Integer(), nullable=True),
        sa.Column("created_at", DateTimeUTC(timezone=True), nullable=False),
        sa.Column("updated_at", DateTimeUTC(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"], ["projects.id"], name=op.f(f"fk_{name}_project_id_projects"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{name}")),
        unique,
    )


def upgrade() -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        with op.batch_alter_table("linked_issues") as batch:
            batch.add_column(sa.Column("changed_at", DateTimeUTC(timezone=True), nullable=True))
        _integration_table(
            "tracker_integrations",
            sa.UniqueConstraint("project_id", "tracker", name="uq_tracker_integration"),
            sa.Column("tracker", sa.String(length=16), nullable=False),
            sa.Column("settings", JsonB, nullable=False),
            sa.Column("sealed_credential", sa.Text(), nullable=False),
        )
    connection = op.get_bind()
    for tracker, (name, setting, credential) in OLD.items():
        old = _old_table(tracker)
        rows = connection.execute(sa.select(old)).mappings().all()
        if rows:
            connection.execute(
                sa.insert(TRACKERS),
                [
                    {
                        "id": row["id"],
                        "project_id": row["project_id"],
                        "tracker": tracker,
                        "settings": {setting: row[setting]},
                        "sealed_credential": row[credential],
                        "sealed_webhook_secret": row["sealed_webhook_secret"],
                        **{column: row[column] for column in TIMES},
                    }
                    for row in rows
                ],
            )
        op.drop_table(name)


def downgrade() -> None:
    """GitHub and Linear go back to their own tables; Jira integrations have none and are dropped."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        for name, setting, credential in OLD.values():
            _integration_table(
                name,
                sa.UniqueConstraint("project_id", name=op.f(f"uq_{name}_project_id")),
                sa.Column(setting, sa.String(length=SETTING_LENGTHS[setting]), nullable=False),
                sa.Column(credential, sa.Text(), nullable=False),
            )
    connection = op.get_bind()
    for tracker, (_name, setting, credential) in OLD.items():
        rows = connection.execute(sa.select(TRACKERS).where(TRACKERS.c.tracker == tracker)).mappings().all()
        if rows:
            connection.execute(
                sa.insert(_old_table(tracker)),
                [
                    {
                        "id": row["id"],
                        "project_id": row["project_id"],
                        setting: row["settings"][setting],
                        credential: row["sealed_credential"],
                        "sealed_webhook_secret": row["sealed_webhook_secret"],
                        **{column: row[column] for column in TIMES},
                    }
                    for row in rows
                ],
            )
    op.drop_table("tracker_integrations")
    with op.batch_alter_table("linked_issues") as batch:
        batch.drop_column("changed_at")
