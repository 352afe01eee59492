"""The SMTP server named by HEARKEN_SMTP_URL, and a connection to it through aiosmtplib.

`smtps://` speaks TLS from the first byte. `smtp://` upgrades with STARTTLS whenever the server offers
it, and with a user name in the URL it requires STARTTLS: a server (or anyone between) that does not offer
it gets no login, so the password never crosses in plain text, and the mail waits for its retry.
Certificates are checked against the system's trusted authorities (OpenSSL's, so SSL_CERT_FILE names
another bundle, e.g. a private CA's) and the host name of the URL, when each connection is made; a
certificate that does not pass ends the connection before anything is sent. The password is used to log
in and nowhere else: it is never part of an error or a log line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import aiosmtplib

TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    implicit_tls: bool
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        implicit_tls = parts.scheme == "smtps"
        return cls(
            host=parts.hostname or "localhost",
            port=parts.port or (465 if implicit_tls else 587),
            implicit_tls=implicit_tls,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password is not None else None,
        )

    def client(self) -> aiosmtplib.SMTP:
        return aiosmtplib.SMTP(
            hostname=self.host,
            port=self.port,
            username=self.username,
            password=self.password,
            use_tls=self.implicit_tls,
            start_tls=self._starttls(),
            timeout=TIMEOUT_SECONDS,
        )

    def _starttls(self) -> bool | None:
        """True: STARTTLS or no connection; None: STARTTLS when the server offers it."""
        if self.implicit_tls:
            return False
        return True if self.username is not None else None

    def __str__(self) -> str:
        return f"{'smtps' if self.implicit_tls else 'smtp'}://{self.host}:{self.port}"
