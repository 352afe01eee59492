"""What the live side of conversations hears: each message stored, once its transaction has committed."""

from __future__ import annotations

from uuid import UUID

from app.live import publish
from app.live.streams import conversation_channel
from app.schemas.conversations import MessageOut


async def message_stored(conversation_id: UUID, message: MessageOut) -> None:
    """Published to the live bus after commit: called once for every message stored (the person's, the
    team's, a contact reply), after the transaction that stored it committed, never for one rolled back.
    Only the id travels: the streams of this conversation, in every process, wake up and read the
    messages after the last one they sent (so a lost notification delays a message, never loses it)."""
    await publish(conversation_channel(conversation_id), str(message.id))
