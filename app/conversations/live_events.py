"""What the live side of conversations hears: each message stored, once its transaction has committed."""

from __future__ import annotations

from uuid import UUID

from app.schemas.conversations import MessageOut


async def message_stored(conversation_id: UUID, message: MessageOut) -> None:
    """Published to the live bus after commit: called once for every message stored (the person's, the
    team's, a contact reply), after the transaction that stored it committed, never for one rolled back.
    Listeners (the Server-Sent Events streams of the widget and the console) receive it with its id as
    the event id. Nothing listens yet: the readers poll `GET .../conversations/{id}?after=`."""
    return None
