"""The `after` query parameter of a conversation's messages, declared once for both sides that read
them: the team's API and the identified person's calls."""

from __future__ import annotations

from typing import Annotated

from litestar.params import Parameter

from app.schemas.conversations import MESSAGE_ID_LIMIT

After = Annotated[
    int,
    Parameter(
        ge=0,
        le=MESSAGE_ID_LIMIT,
        description="Only the messages after this message id (a poll, a resume); 0: all of them.",
    ),
]
