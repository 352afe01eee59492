"""A real SMTP server on 127.0.0.1 for the mail tests (aiosmtpd, in its own thread): it keeps every
message it accepts, parsed back with the `email` package, can require a login, and can speak TLS (by
STARTTLS or from the first byte) with a self-signed certificate made here."""

from __future__ import annotations

import asyncio
import email
import email.policy
import ipaddress
import re
import ssl
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from app.config import Settings
from tests.server_processes import free_port


@dataclass
class Inbox:
    """What the server accepted; waiting wakes on each arrival instead of polling."""

    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)
    raw: list[bytes] = field(default_factory=list)
    """Each message's DATA as it crossed the wire (what a header injection would show in)."""
    logins: list[tuple[str, bool]] = field(default_factory=list)
    """Each AUTH that reached the server: the user name, and whether the connection was encrypted."""
    _arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._arrived:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
            self.raw.append(bytes(envelope.original_content or envelope.content))
            self._arrived.notify_all()
        return "250 OK"

    def wait(self, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        """The first `count` messages once they have arrived (for tests without an event loop)."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: len(self.messages) >= count, seconds):
                raise AssertionError(f"{len(self.messages)} mails arrived within {seconds} s, not {count}")
            return self.messages[:count]

    def link_to(self, address: str, path: str, seconds: float = 10.0) -> str:
        """The link starting with `path` in the latest mail to `address` that has one, once it arrived."""

        def latest() -> str | None:
            for message in reversed(self.messages):
                if message["To"] == address and path in text_of(message):
                    return link_in(message, path)
            return None

        with self._arrived:
            if not self._arrived.wait_for(lambda: latest() is not None, seconds):
                raise AssertionError(f"no mail to {address} with a {path} link within {seconds} s")
            found = latest()
            assert found is not None
            return found

    async def wait_for(self, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        return await asyncio.to_thread(self.wait, count, seconds)

    def forget(self) -> None:
        """Nothing accepted yet: as new, at the same port."""
        with self._arrived:
            self.messages.clear()
            self.recipients.clear()
            self.raw.clear()
            self.logins.clear()


@dataclass(frozen=True)
class Certificate:
    """A self-signed certificate and its key as PEM files: what the server shows, and what a client
    trusts (e.g. by SSL_CERT_FILE, as an operator would)."""

    cert_file: Path
    key_file: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert_file, self.key_file)
        return context


def self_signed_certificate(
    directory: Path, names: Sequence[str] = ("127.0.0.1", "localhost")
) -> Certificate:
    """A certificate valid for an hour for `names` (IP addresses or host names), written to `directory`."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])])
    alternatives: list[x509.GeneralName] = []
    for name in names:
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternatives.append(x509.DNSName(name))
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    found = Certificate(directory / f"{names[0]}.crt", directory / f"{names[0]}.key")
    found.cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    found.key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return found


@contextmanager
def smtp_server(
    inbox: Inbox | None = None,
    port: int | None = None,
    login: tuple[str, str] | None = None,
    certificate: Certificate | None = None,
    implicit_tls: bool = False,
) -> Iterator[Inbox]:
    """Serve on 127.0.0.1:`port` (a free one when None) until the block ends. With `login`, only that
    user and password may send. With a `certificate` the server offers STARTTLS and takes no login
    before it, or with `implicit_tls` speaks TLS from the first byte; without one, AUTH goes over the
    plain connection (a test server only)."""
    inbox = inbox or Inbox()
    assert certificate is not None or not implicit_tls, "implicit TLS needs a certificate"
    options: dict[str, Any] = {}
    if login is not None:

        def authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            ok = isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == login
            name = data.login.decode() if isinstance(data, LoginPassword) else ""
            inbox.logins.append((name, implicit_tls or session.ssl is not None))
            return AuthResult(success=ok)

        # aiosmtpd counts only STARTTLS as TLS for AUTH; TLS from the first byte is encrypted as well
        starttls = certificate is not None and not implicit_tls
        options = {"authenticator": authenticate, "auth_required": True, "auth_require_tls": starttls}
    if certificate is not None and implicit_tls:
        options["ssl_context"] = certificate.server_context()
    elif certificate is not None:
        options.update(tls_context=certificate.server_context(), require_starttls=True)
    controller = Controller(inbox, hostname="127.0.0.1", port=port or free_port(), **options)
    controller.start()
    try:
        inbox.port = controller.port
        yield inbox
    finally:
        controller.stop()


def text_of(message: EmailMessage, subtype: str = "plain") -> str:
    """The plain (or "html") body, with the wire's CRLF line ends as \\n."""
    part = message.get_body((subtype,))
    assert part is not None, f"no {subtype} part"
    content: str = part.get_content()
    return content.replace("\r\n", "\n")


def link_in(message: EmailMessage, path: str) -> str:
    """The link of the plain text body whose path starts with `path`, e.g. "/password/reset/"."""
    found = re.search(rf"https?://[^/\s]+{re.escape(path)}\S+", text_of(message))
    assert found, f"no {path} link in the mail"
    return found.group(0)


@pytest.fixture(scope="session")
def served_inbox() -> Iterator[Inbox]:
    """The worker's mail server (tests/conftest.py offers it): its port is in the mail tests' settings, so
    that their application is built once per database, not once per test (about half a CPU second)."""
    with smtp_server() as inbox:
        yield inbox


@pytest.fixture(name="inbox")
def inbox_fixture(served_inbox: Inbox) -> Inbox:
    """The worker's mail server, emptied for the test; import this and `mailing_settings` into a module
    whose app sends mail. What a test's application sent has arrived by the test's end: the run's outbox
    dispatcher stops with it, and the next test's database is emptied of queued mail."""
    served_inbox.forget()
    return served_inbox


@pytest.fixture(name="settings")
def mailing_settings(database_url: str, inbox: Inbox) -> Settings:
    """The suite's settings with mail sent to the test's inbox, and a dispatcher that looks every 50 ms.
    No periodic jobs, as in the suite's own settings: the tests of mail a job sends run the job."""
    return Settings(
        embeddings="off",
        database_url=database_url,
        secret_key="test-secret-key-for-the-suite",
        smtp_url=f"smtp://127.0.0.1:{inbox.port}",
        outbox_poll_seconds=0.05,
        periodic_jobs=False,
    )
