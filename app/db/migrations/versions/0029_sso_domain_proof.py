"""sso domain proof

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-29 07:30:00

A single sign-on domain is proven by a DNS TXT record before it sends anybody to a provider: each claim
gets its token and the time it was proven. Claims made before are unproven until an admin verifies them.
A domain is unique among proven claims only, so a squatter's claim cannot block the domain's owner.
"""

import secrets

import sqlalchemy as sa
from advanced_alchemy.types import DateTimeUTC
from alembic import op

# revision identifiers, used by Alembic.
revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None

DOMAINS = sa.table("sso_domains", sa.column("id"), sa.column("verification_token", sa.String()))
PROVEN = sa.text("verified_at IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("sso_domains") as batch:
        batch.add_column(sa.Column("verification_token", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("verified_at", DateTimeUTC(timezone=True), nullable=True))
        batch.drop_constraint("uq_sso_domains_domain", type_="unique")
        batch.create_unique_constraint("uq_sso_domains_org_id_domain", ["org_id", "domain"])
    bind = op.get_bind()
    for (ident,) in bind.execute(sa.select(DOMAINS.c.id)).all():
        token = secrets.token_hex(16)
        bind.execute(DOMAINS.update().where(DOMAINS.c.id == ident).values(verification_token=token))
    with op.batch_alter_table("sso_domains") as batch:
        batch.alter_column("verification_token", existing_type=sa.String(length=64), nullable=False)
    op.create_index("ix_sso_domains_domain", "sso_domains", ["domain"], unique=False)
    op.create_index(
        "uq_sso_domains_proven_domain",
        "sso_domains",
        ["domain"],
        unique=True,
        postgresql_where=PROVEN,
        sqlite_where=PROVEN,
    )


def downgrade() -> None:
    op.drop_index("uq_sso_domains_proven_domain", table_name="sso_domains")
    op.drop_index("ix_sso_domains_domain", table_name="sso_domains")
    # one claim per domain again: the unproven claims of a domain claimed more than once go
    op.execute(
        "DELETE FROM sso_domains WHERE verified_at IS NULL AND domain IN "
        "(SELECT domain FROM sso_domains GROUP BY domain HAVING COUNT(*) > 1)"
    )
    with op.batch_alter_table("sso_domains") as batch:
        batch.drop_constraint("uq_sso_domains_org_id_domain", type_="unique")
        batch.create_unique_constraint("uq_sso_domains_domain", ["domain"])
        batch.drop_column("verified_at")
        batch.drop_column("verification_token")
