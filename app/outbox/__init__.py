"""The outbox: work written in the same transaction as the change that calls for it (`enqueue`), and a
dispatcher in every server process that claims due work, does it and retries it (`Dispatcher`)."""

from app.outbox.dispatcher import Dispatcher
from app.outbox.handler import ClaimedJob, JobHandler, Outcome, not_now
from app.outbox.queue import enqueue, retry_now

__all__ = ["ClaimedJob", "Dispatcher", "JobHandler", "Outcome", "enqueue", "not_now", "retry_now"]
