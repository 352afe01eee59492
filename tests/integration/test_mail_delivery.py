"""Mail queued in the outbox reaches a real SMTP server (aiosmtpd on 127.0.0.1) once, in the
recipient's language, as plain text with an HTML alternative, over TLS (STARTTLS or from the first byte)
with the login inside it; an SMTP server that is down, shows a certificate the machine does not trust or
offers no STARTTLS for a login loses nothing and learns nothing; without SMTP the mail is written to the
log."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.config import build_db_config
from app.db.models import JobStatus, OutboundEmail, OutboxJob
from app.mail import Mail, queue_mail
from app.main import create_app
from tests.mail_server import Certificate, free_port, self_signed_certificate, smtp_server, text_of

SMTP_PASSWORD = "s3cret-smtp-pass"
RESET = Mail(
    recipient="ada@example.org",
    language="de",
    kind="password_reset",
    url="http://127.0.0.1:8000/password/reset/abc",
    values={"email": "ada@example.org"},
)


def mail_settings(database_url: str, smtp_url: str | None) -> Settings:
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        smtp_url=smtp_url,
        mail_from="Hearken <mail@hearken.test>",
        outbox_poll_seconds=0.05,
        mail_retry_schedule=(0.05,) * 400,
    )


@dataclass
class Serving:
    """The application with its dispatcher running (in the test client's own event loop), and sessions
    of this test's loop to queue mail and look at it."""

    settings: Settings
    session_maker: async_sessionmaker[AsyncSession]


@asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[Serving]:
    config = build_db_config(settings)
    async with AsyncTestClient(app=create_app(settings)):
        yield Serving(settings, config.create_session_maker())
    await config.get_engine().dispose()


async def send(app: Serving, mail: Mail) -> OutboundEmail:
    async with app.session_maker() as session:
        record = queue_mail(session, app.settings.secret_key, mail)
        await session.commit()
        return record


async def job_of(app: Serving, record: OutboundEmail) -> tuple[OutboxJob, OutboundEmail]:
    async with app.session_maker() as session:
        job = await session.get_one(OutboxJob, record.id)
        stored = await session.scalar(select(OutboundEmail).where(OutboundEmail.id == record.id))
        assert stored is not None
        return job, stored


@pytest.fixture
def certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Certificate:
    """The SMTP server's certificate, trusted the way an operator trusts a private one: SSL_CERT_FILE."""
    made = self_signed_certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", str(made.cert_file))
    return made


TLS_KINDS = [pytest.param("smtp", False, id="starttls"), pytest.param("smtps", True, id="implicit-tls")]


@pytest.mark.parametrize(("scheme", "implicit_tls"), TLS_KINDS)
async def test_a_queued_mail_arrives_in_the_recipients_language(
    database_url: str, certificate: Certificate, scheme: str, implicit_tls: bool
) -> None:
    login = ("hearken", SMTP_PASSWORD)
    with smtp_server(login=login, certificate=certificate, implicit_tls=implicit_tls) as inbox:
        url = f"{scheme}://hearken:{SMTP_PASSWORD}@127.0.0.1:{inbox.port}"
        async with serving(mail_settings(database_url, url)) as app:
            record = await send(app, RESET)
            (message,) = await inbox.wait_for(1)
            assert inbox.recipients == [["ada@example.org"]]
            assert message["Subject"] == "Hearken-Passwort zurücksetzen"
            assert message["From"] == "Hearken <mail@hearken.test>"
            assert message["To"] == "ada@example.org"
            assert "Neues Passwort festlegen:\nhttp://127.0.0.1:8000/password/reset/abc" in text_of(message)
            html = text_of(message, "html")
            assert 'href="http://127.0.0.1:8000/password/reset/abc"' in html
            assert '<html lang="de">' in html
            await _until_succeeded(app, record)
            _, stored = await job_of(app, record)
            assert stored.sent_at is not None and stored.sealed_message == ""
    assert inbox.logins == [("hearken", True)]  # once, encrypted


async def _until_succeeded(app: Serving, record: OutboundEmail) -> OutboxJob:
    """The dispatcher saves a result shortly after the mail went out: wait for that save."""
    for _ in range(400):
        job, _ = await job_of(app, record)
        if job.status == JobStatus.SUCCEEDED:
            return job
        await _pause()
    raise AssertionError(f"the job is still {job.status}")


async def _until_tried(app: Serving, record: OutboundEmail, times: int) -> OutboxJob:
    """The job once its sending failed `times` times."""
    for _ in range(400):
        job, _ = await job_of(app, record)
        if job.attempts >= times:
            return job
        await _pause()
    raise AssertionError(f"the job was tried {job.attempts} times, not {times}")


async def _pause() -> None:
    """Between two looks at a job's row (the dispatcher's progress has no event to await)."""
    await asyncio.sleep(0.025)


class KeptLogs(logging.Handler):
    """Every line the application logs: Litestar configures logging at start, which drops the handler
    pytest's caplog puts on the root logger, so this one sits on the application's own logger."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.fixture
def logs() -> Iterator[KeptLogs]:
    handler, logger = KeptLogs(), logging.getLogger("hearken")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


async def test_mail_waits_while_smtp_is_down_and_is_sent_once_it_is_up(
    database_url: str, logs: KeptLogs, certificate: Certificate
) -> None:
    port = free_port()
    url = f"smtp://hearken:{SMTP_PASSWORD}@127.0.0.1:{port}"
    async with serving(mail_settings(database_url, url)) as app:
        record = await send(app, RESET)
        job = await _until_tried(app, record, 2)  # a few attempts fail while nothing listens
        assert job.status == JobStatus.PENDING and job.last_error
        assert SMTP_PASSWORD not in job.last_error
        with smtp_server(port=port, login=("hearken", SMTP_PASSWORD), certificate=certificate) as inbox:
            (message,) = await inbox.wait_for(1)
            assert message["To"] == "ada@example.org"
            await _until_succeeded(app, record)
            await send(app, Mail("bo@example.org", "en", "password_reset", "http://x.test/r", {"email": "b"}))
            await inbox.wait_for(2)  # the dispatcher went on past the first mail: it did not resend it
            assert [m["To"] for m in inbox.messages] == ["ada@example.org", "bo@example.org"]
    assert "mails wait for their retry" in logs.text
    assert SMTP_PASSWORD not in logs.text


async def _refused_and_waiting(app: Serving, record: OutboundEmail, logs: KeptLogs, reason: str) -> None:
    """Tried twice and given up on by the client, still waiting, its message kept for the retry; the
    error and the log name `reason` and not the password."""
    job = await _until_tried(app, record, 2)
    _, stored = await job_of(app, record)
    assert job.status == JobStatus.PENDING
    assert stored.sent_at is None and stored.sealed_message
    assert job.last_error and reason in job.last_error and SMTP_PASSWORD not in job.last_error
    assert reason in logs.text and "mails wait for their retry" in logs.text
    assert SMTP_PASSWORD not in logs.text


@pytest.mark.parametrize(("scheme", "implicit_tls"), TLS_KINDS)
async def test_a_server_whose_certificate_is_not_trusted_gets_neither_login_nor_mail(
    database_url: str,
    tmp_path: Path,
    logs: KeptLogs,
    monkeypatch: pytest.MonkeyPatch,
    scheme: str,
    implicit_tls: bool,
) -> None:
    shown = self_signed_certificate(tmp_path / "shown")  # right names, but nobody vouches for it
    trusted = self_signed_certificate(tmp_path / "trusted")
    monkeypatch.setenv("SSL_CERT_FILE", str(trusted.cert_file))
    with smtp_server(login=("hearken", SMTP_PASSWORD), certificate=shown, implicit_tls=implicit_tls) as inbox:
        url = f"{scheme}://hearken:{SMTP_PASSWORD}@127.0.0.1:{inbox.port}"
        async with serving(mail_settings(database_url, url)) as app:
            record = await send(app, RESET)
            await _refused_and_waiting(app, record, logs, "certificate verify failed")
            assert inbox.logins == [] and inbox.messages == []
            monkeypatch.setenv("SSL_CERT_FILE", str(shown.cert_file))  # the operator trusts it now
            (message,) = await inbox.wait_for(1)
            assert message["To"] == "ada@example.org"
            await _until_succeeded(app, record)
    assert inbox.logins == [("hearken", True)]


async def test_a_trusted_certificate_for_another_name_gets_neither_login_nor_mail(
    database_url: str, tmp_path: Path, logs: KeptLogs, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = self_signed_certificate(tmp_path, names=("mail.example.com",))
    monkeypatch.setenv("SSL_CERT_FILE", str(elsewhere.cert_file))
    with smtp_server(login=("hearken", SMTP_PASSWORD), certificate=elsewhere) as inbox:
        url = f"smtp://hearken:{SMTP_PASSWORD}@127.0.0.1:{inbox.port}"
        async with serving(mail_settings(database_url, url)) as app:
            record = await send(app, RESET)
            await _refused_and_waiting(app, record, logs, "IP address mismatch")
    assert inbox.logins == [] and inbox.messages == []


async def test_a_login_is_not_sent_to_a_server_that_offers_no_starttls(
    database_url: str, logs: KeptLogs
) -> None:
    with smtp_server(login=("hearken", SMTP_PASSWORD)) as inbox:  # AUTH offered in plain text
        url = f"smtp://hearken:{SMTP_PASSWORD}@127.0.0.1:{inbox.port}"
        async with serving(mail_settings(database_url, url)) as app:
            record = await send(app, RESET)
            await _refused_and_waiting(app, record, logs, "STARTTLS extension not supported")
    assert inbox.logins == [] and inbox.messages == []


async def test_without_smtp_the_mail_is_written_to_the_log(database_url: str, logs: KeptLogs) -> None:
    async with serving(mail_settings(database_url, None)) as app:
        record = await send(app, RESET)
        await _until_succeeded(app, record)
    assert "ada@example.org" in logs.text
    assert "http://127.0.0.1:8000/password/reset/abc" in logs.text


async def test_the_stored_message_is_encrypted(database_url: str) -> None:
    async with serving(mail_settings(database_url, f"smtp://127.0.0.1:{free_port()}")) as app:
        record = await send(app, RESET)
        _, stored = await job_of(app, record)
        assert stored.sealed_message and "password/reset/abc" not in stored.sealed_message
