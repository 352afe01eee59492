"""The work each server process does beside its requests: the outbox dispatcher, with the handler of
every kind of outbox job (webhook deliveries, mail, notifications, embeddings)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import ClientSession
from litestar import Litestar
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.ideas.similar import IdeaEmbedSender
from app.insights.engine import InsightsEngine, insights_engine
from app.insights.jobs import EmbedSender
from app.mail.sender import MailSender
from app.notifications.sender import NotifySender
from app.outbox import Dispatcher, JobHandler
from app.outbox.signal import OutboxSignal
from app.surveys.answer_themes import AnswerEmbedSender
from app.webhooks.delivery import WebhookSender, webhook_client


@asynccontextmanager
async def background_work(app: Litestar) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    session_maker: async_sessionmaker[AsyncSession] = app.state.session_maker
    signal: OutboxSignal = app.state.outbox_signal
    wake = signal.listen()
    async with webhook_client(settings) as client:
        dispatcher = Dispatcher(
            session_maker,
            outbox_handlers(session_maker, settings, client, insights_engine()),
            wake=wake,
            poll_seconds=settings.outbox_poll_seconds,
        )
        dispatcher.start()
        try:
            yield
        finally:
            await dispatcher.stop()
            signal.forget(wake)


def outbox_handlers(
    session_maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    client: ClientSession,
    insights: InsightsEngine,
) -> list[JobHandler]:
    """The handler of every kind of outbox job (docs/architecture.md lists them)."""
    return [
        WebhookSender(session_maker, settings, client),
        MailSender(session_maker, settings),
        NotifySender(session_maker, settings),
        # A process with insights off leaves embedding jobs to the processes that can do them.
        *(
            [
                EmbedSender(session_maker, insights),
                AnswerEmbedSender(session_maker, insights),
                IdeaEmbedSender(session_maker, insights),
            ]
            if insights.enabled
            else []
        ),
    ]
