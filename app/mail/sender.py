"""Sending queued mail: the outbox handler of kind "email".

The mails claimed together go out over one SMTP connection; once it is made, a mail deleted meanwhile
(the person it is about erased, its item past retention) is dropped, not sent. A mail the server takes
is marked sent at once (its message emptied), before the dispatcher saves the job: a job claimed again
after a crash finds it sent and does not send it twice. A refusal that names the mail (5xx) fails it for
good, and so does a mail that cannot be made into a message (its stored form unreadable, a value no
header can carry): that one mail, never the others claimed with it. Anything else (no connection, a
4xx, a timeout) is retried after HEARKEN_MAIL_RETRY_SCHEDULE's delays. Without HEARKEN_SMTP_URL each
mail is written to the log instead and counts as sent: an account mail or a reporter's confirmation
with its text and links outside production, a notification by its subject only (it quotes visitors'
messages).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from uuid import UUID

import aiosmtplib
import msgspec
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import OutboundEmail
from app.db.transactions import unit_of_work
from app.mail.compose import ComposedMail, email_message
from app.mail.outbox import MAIL_JOB, open_mail
from app.mail.smtp import SmtpServer
from app.outbox import ClaimedJob, Outcome
from app.timestamps import utc_now

logger = logging.getLogger("hearken.mail")

Ready = tuple[ClaimedJob, str, ComposedMail, str]
ACCOUNT_MAIL = frozenset({"password_reset", "invitation", "confirm_email", "confirm_reporter"})
"""The mails whose text (links included) is logged outside production when there is no SMTP server
(none of them holds a visitor's words)."""


class MailSender:
    kind = MAIL_JOB
    share = 16
    """Mails sent at once by one process, whatever the webhooks are doing."""

    def __init__(self, session_maker: async_sessionmaker[AsyncSession], settings: Settings) -> None:
        self._session_maker = session_maker
        self._secret_key = settings.secret_key
        self._sender = settings.mail_sender
        self._server = SmtpServer.parse(settings.smtp_url) if settings.smtp_url else None
        self._delays = settings.mail_retry_schedule
        self._log_text = not settings.is_production
        """Outside production the text is logged, for trying sign-up and invitations locally; in
        production it may hold a reset or invitation link, and links are secrets."""

    @property
    def retry_delays(self) -> Sequence[float]:
        return self._delays

    async def run(self, jobs: Sequence[ClaimedJob]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        ready: list[Ready] = []
        async for job, outcome in self._read(jobs, ready):
            yield job, outcome
        if not ready:
            return
        sending = self._send(ready) if self._server is not None else self._log(ready)
        async for job, outcome in sending:
            yield job, outcome

    async def _read(
        self, jobs: Sequence[ClaimedJob], ready: list[Ready]
    ) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        async with self._session_maker() as session:
            rows = await session.scalars(
                select(OutboundEmail).where(OutboundEmail.id.in_([j.id for j in jobs]))
            )
            found = {row.id: (row.recipient, row.sealed_message, row.sent_at, row.kind) for row in rows}
        for job in jobs:
            if job.id not in found:
                yield job, Outcome(ok=False, error="the mail was deleted", final=True)
                continue
            recipient, sealed, sent_at, kind = found[job.id]
            if sent_at is not None:  # sent by an attempt whose result was not saved
                yield job, Outcome(ok=True)
                continue
            try:
                composed = open_mail(self._secret_key, sealed)
            except msgspec.MsgspecError:
                yield job, self._cannot_compose(job, "the stored message cannot be read")
                continue
            if composed is None:
                yield job, Outcome(ok=False, error="sealed under another HEARKEN_SECRET_KEY", final=True)
                continue
            ready.append((job, recipient, composed, kind))

    async def _log(self, ready: list[Ready]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        for _, recipient, composed, kind in ready:
            # A notification quotes visitors' messages, which never go to the log: its subject says enough.
            text = composed.text if self._log_text else "(the text is not logged in production)"
            if kind not in ACCOUNT_MAIL:
                text = "(a notification: its text is not logged)"
            logger.info(
                "mail not sent (HEARKEN_SMTP_URL is not set) to %s: %s\n%s", recipient, composed.subject, text
            )
        await self._mark_sent([job.id for job, _, _, _ in ready])
        for job, _, _, _ in ready:
            yield job, Outcome(ok=True)

    async def _send(self, ready: list[Ready]) -> AsyncIterator[tuple[ClaimedJob, Outcome]]:
        assert self._server is not None
        done = 0
        try:
            async with self._server.client() as smtp:
                kept = await self._still_queued([job.id for job, _, _, _ in ready])
                for job, recipient, composed, _ in ready:
                    if job.id not in kept:  # deleted while connecting (an erasure, retention): not sent
                        outcome = Outcome(ok=False, error="the mail was deleted", final=True)
                    else:
                        outcome = await self._send_one(smtp, job, recipient, composed)
                    if outcome.ok:
                        await self._mark_sent([job.id])
                    done += 1
                    yield job, outcome
        except (aiosmtplib.SMTPException, OSError) as exc:
            error = f"{self._server}: {_describe(exc)}"
            logger.warning("mail: %s; %d mails wait for their retry", error, len(ready) - done)
            for job, _, _, _ in ready[done:]:
                yield job, Outcome(ok=False, error=error)

    async def _still_queued(self, ids: list[UUID]) -> set[UUID]:
        """Which of these mails are still there once the connection is made: a server that was down for
        a while may come back after the person a mail is about was erased."""
        async with self._session_maker() as session:
            return set(await session.scalars(select(OutboundEmail.id).where(OutboundEmail.id.in_(ids))))

    async def _send_one(
        self, smtp: aiosmtplib.SMTP, job: ClaimedJob, recipient: str, composed: ComposedMail
    ) -> Outcome:
        """A refusal of this mail is its outcome, and so is a mail that cannot be made into a message; a
        lost connection raises (every mail left waits)."""
        try:
            message = email_message(composed, self._sender, recipient)
        except (ValueError, TypeError) as exc:
            return self._cannot_compose(job, f"the mail cannot be composed ({type(exc).__name__})")
        try:
            await smtp.send_message(message, recipients=[message["To"]])  # never a header's other names
        except (ValueError, aiosmtplib.SMTPNotSupported) as exc:  # this mail's form, not the server
            return self._cannot_compose(job, f"the mail cannot be sent as it is ({type(exc).__name__})")
        except aiosmtplib.SMTPRecipientsRefused as exc:
            code = exc.recipients[0].code if exc.recipients else 550
            return Outcome(ok=False, error=f"recipient refused: {code}", final=code >= 500)
        except (aiosmtplib.SMTPSenderRefused, aiosmtplib.SMTPDataError) as exc:
            return Outcome(ok=False, error=_describe(exc), final=exc.code >= 500)
        return Outcome(ok=True)

    def _cannot_compose(self, job: ClaimedJob, error: str) -> Outcome:
        """A mail no retry can send fails for good, alone; its content stays out of the log."""
        logger.warning("mail: job %s failed for good: %s", job.id, error)
        return Outcome(ok=False, error=error, final=True)

    async def _mark_sent(self, ids: list[UUID]) -> None:
        """Sent, so never sent again, and the message (its links) is no longer kept."""
        try:
            async with unit_of_work(self._session_maker) as session:
                await session.execute(
                    update(OutboundEmail)
                    .where(OutboundEmail.id.in_(ids))
                    .values(sent_at=utc_now(), sealed_message="")
                    .execution_options(synchronize_session=False)
                )
        except Exception:  # the job's own result is saved next; only a crash in between could resend
            logger.exception("mail: marking %d sent mails failed", len(ids))


def _describe(exc: BaseException) -> str:
    code = getattr(exc, "code", None)
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return f"{code} {message}" if code else message
