"""Claims an upstream record (a Stripe event, a Mintlify feedback id) for a project, once.

The claim is an INSERT ... ON CONFLICT DO NOTHING in the caller's transaction: of two deliveries or
syncs racing on the same record, across processes and machines, exactly one gets True; the other waits
for it on the unique key and then gets False.
"""

from __future__ import annotations

from uuid import UUID

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import FeedbackImport

KEY = ("project_id", "source", "external_id")


async def claim(session: AsyncSession, project_id: UUID, source: str, external_id: str) -> bool:
    """True when the record was not imported into this project before."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    table = FeedbackImport.__table__
    statement = (
        dialect.insert(table)
        .values(project_id=project_id, source=source, external_id=external_id)
        .on_conflict_do_nothing(index_elements=[table.c[name] for name in KEY])
        .returning(table.c.id)
    )
    return (await session.execute(statement)).first() is not None
