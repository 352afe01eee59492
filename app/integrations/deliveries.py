"""A tracker's webhook delivery is acted on once: by its delivery id, and by a digest of its body.

The signature covers the body only, so whoever captured a delivery could send it again under a new
delivery id; the digest of the body makes that copy a repeat too. Both are claims (`claims.py`) in the
delivery's transaction, so of two copies racing, one is acted on.
"""

from __future__ import annotations

import hashlib
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncSession

from app.integrations.claims import claim


async def first_delivery(
    session: AsyncSession, project_id: UUID, tracker: str, delivery: str | None, body: bytes
) -> bool:
    """True when neither this delivery id nor these exact bytes reached the project from `tracker` before."""
    if delivery and not await claim(session, project_id, f"{tracker} delivery", delivery[:255]):
        return False
    return await claim(session, project_id, f"{tracker} body", hashlib.sha256(body).hexdigest())
