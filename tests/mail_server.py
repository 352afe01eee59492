"""A real SMTP server on 127.0.0.1 for the mail tests (aiosmtpd, in its own thread): it keeps every
message it accepts, parsed back with the `email` package, and can require a login."""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


@dataclass
class Inbox:
    """What the server accepted; waiting wakes on each arrival instead of polling."""

    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)
    _arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._arrived:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def smtp_server(
    inbox: Inbox | None = None, port: int | None = None, login: tuple[str, str] | None = None
) -> Iterator[Inbox]:
    """Serve on 127.0.0.1:`port` (a free one when None) until the block ends. With `login`, only that
    user and password may send (AUTH over the plain connection: a test server only)."""
    inbox = inbox or Inbox()
    options: dict[str, Any] = {}
    if login is not None:

        def authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            ok = isinstance(data, LoginPassword) and (data.login.decode(), data.password.decode()) == login
            return AuthResult(success=ok)

        options = {"authenticator": authenticate, "auth_required": True, "auth_require_tls": False}
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
