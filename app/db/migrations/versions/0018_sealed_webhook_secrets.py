"""sealed webhook secrets

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27 11:30:00

Webhook endpoints' signing secrets are stored encrypted (app.db.secret_box, under HEARKEN_SECRET_KEY),
and the secret a rotation replaced is kept, encrypted too, while it still signs. Existing secrets are
sealed here, so the server's HEARKEN_SECRET_KEY must be set when this runs; the downgrade opens them
again (one sealed under another key cannot be opened, and stops the downgrade).
"""

import sqlalchemy as sa
from advanced_alchemy.types import DateTimeUTC, GUID
from alembic import op

from app.config import get_settings
from app.db.secret_box import WEBHOOK_SECRETS, SecretBox, secret_box

# revision identifiers, used by Alembic.
revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

ENDPOINTS = sa.table(
    "webhook_endpoints",
    sa.column("id", GUID(length=16)),
    sa.column("secret", sa.String(64)),
    sa.column("sealed_secret", sa.Text()),
)


def _box() -> SecretBox:
    return secret_box(get_settings().secret_key, WEBHOOK_SECRETS)


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.add_column(sa.Column("sealed_secret", sa.Text(), nullable=True))
        batch.add_column(sa.Column("sealed_previous_secret", sa.Text(), nullable=True))
        batch.add_column(sa.Column("previous_secret_expires_at", DateTimeUTC(timezone=True), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.select(ENDPOINTS.c.id, ENDPOINTS.c.secret)).all()
    if rows:
        box = _box()
        for ident, secret in rows:
            bind.execute(
                ENDPOINTS.update().where(ENDPOINTS.c.id == ident).values(sealed_secret=box.seal(secret))
            )
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.alter_column("sealed_secret", existing_type=sa.Text(), nullable=False)
        batch.drop_column("secret")


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.add_column(sa.Column("secret", sa.String(length=64), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(sa.select(ENDPOINTS.c.id, ENDPOINTS.c.sealed_secret)).all()
    if rows:
        box = _box()
        for ident, sealed in rows:
            secret = box.open(sealed)
            if secret is None:
                raise RuntimeError(
                    f"webhook endpoint {ident}: its secret was sealed under another HEARKEN_SECRET_KEY"
                )
            bind.execute(ENDPOINTS.update().where(ENDPOINTS.c.id == ident).values(secret=secret))
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.alter_column("secret", existing_type=sa.String(length=64), nullable=False)
        batch.drop_column("previous_secret_expires_at")
        batch.drop_column("sealed_previous_secret")
        batch.drop_column("sealed_secret")
