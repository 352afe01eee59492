"""One transaction per request and one per unit of background work.

Services add and change rows and flush; they never commit. A request's session is committed once, after
the handler has answered and before the answer is sent: a 2xx or 3xx answer commits, any other answer
rolls back. When that commit fails the client gets 503 `{"error": "unavailable", ...}` instead of the
success it would otherwise have seen, so an acknowledged write is always a stored one. Everything a
request writes (rows, counters, history, webhook outbox rows) is therefore stored together or not at all.

Work outside a request (the outbox dispatcher, imports, the command line) opens `unit_of_work()`, which
commits when the block ends and rolls back when it raises. The public rating path does not use either:
group commit has its own writer (`app/ingest/`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from advanced_alchemy.extensions.litestar._utils import delete_aa_scope_state, get_aa_scope_state
from advanced_alchemy.extensions.litestar.plugins.init.config.common import SESSION_TERMINUS_ASGI_EVENTS
from litestar.types import Message, Scope
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.read_routing import ReadRouting

logger = logging.getLogger("hearken.db")

UNAVAILABLE_BODY = msgspec.json.encode(
    {"error": "unavailable", "details": "the change could not be stored; nothing was changed, try again"}
)
_REPLACED = "hearken_commit_failed"
"""ASGI scope key: the answer's start was replaced by a 503, so its body is replaced too."""


def commit_before_send(session_scope_key: str) -> Callable[[Message, Scope], Coroutine[Any, Any, None]]:
    """advanced-alchemy's `before_send_handler`: commit or roll back the request's session as the answer
    starts, and close it."""

    async def handler(message: Message, scope: Scope) -> None:
        if message["type"] == "http.response.body":
            _replace_body(message, scope)
            return
        session: AsyncSession | None = get_aa_scope_state(scope, session_scope_key)
        if session is None:
            await _note_answer(message, scope)
            return
        try:
            if message["type"] == "http.response.start" and 200 <= message["status"] < 400:
                try:
                    await session.commit()
                except Exception:
                    logger.exception("the request's commit failed; answering 503")
                    await session.rollback()
                    answer_unavailable(message, scope)
                await _note_answer(message, scope)
            else:
                await session.rollback()
        finally:
            if message["type"] in SESSION_TERMINUS_ASGI_EVENTS:
                await session.close()
                delete_aa_scope_state(scope, session_scope_key)

    return handler


async def _note_answer(message: Message, scope: Scope) -> None:
    """Before the answer leaves: a stored change sends its caller's next reads to the primary."""
    routing: ReadRouting | None = scope["litestar_app"].state.get("read_routing")
    if routing is not None and message["type"] == "http.response.start":
        await routing.answered(scope, message["status"])


def answer_unavailable(message: Message, scope: Scope) -> None:
    """Turn an answer that has not started yet into 503 `unavailable`, its body included."""
    message["status"] = 503  # type: ignore[typeddict-unknown-key]
    message["headers"] = [  # type: ignore[typeddict-unknown-key]
        (b"content-type", b"application/json"),
        (b"content-length", str(len(UNAVAILABLE_BODY)).encode()),
        (b"cache-control", b"no-store"),
    ]
    scope[_REPLACED] = [UNAVAILABLE_BODY]  # type: ignore[typeddict-unknown-key]


def _replace_body(message: Message, scope: Scope) -> None:
    pending: list[bytes] | None = scope.get(_REPLACED)  # type: ignore[call-overload]
    if pending is None:
        return
    message["body"] = pending.pop() if pending else b""  # type: ignore[typeddict-unknown-key]


@asynccontextmanager
async def unit_of_work(session_maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """One transaction of background work: committed when the block ends, rolled back if it raises."""
    async with session_maker() as session:
        yield session
        await session.commit()
