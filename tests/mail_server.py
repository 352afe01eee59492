"""A real SMTP server on 127.0.0.1 for the mail tests (aiosmtpd, in its own thread): it keeps every
message it accepts, parsed back with the `email` package, and can require a login."""

from __future__ import annotations

import asyncio
import email
import email.policy
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
    """What the server accepted; `wait_for` wakes on each arrival instead of polling."""

    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
            waiters = list(self._waiters)
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)
        return "250 OK"

    async def wait_for(self, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        """The first `count` messages once they have arrived."""
        event = asyncio.Event()
        waiter = (asyncio.get_running_loop(), event)
        with self._lock:
            self._waiters.append(waiter)
        try:
            async with asyncio.timeout(seconds):
                while len(self.messages) < count:
                    await event.wait()
                    event.clear()
        except TimeoutError:
            raise AssertionError(
                f"{len(self.messages)} mails arrived within {seconds} s, not {count}"
            ) from None
        finally:
            with self._lock:
                self._waiters.remove(waiter)
        return self.messages[:count]


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
