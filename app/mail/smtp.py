"""The SMTP server named by HEARKEN_SMTP_URL, and a connection to it through aiosmtplib.

`smtp://` upgrades with STARTTLS whenever the server offers it; `smtps://` speaks TLS from the first
byte. Certificates are checked. The password is used to log in and nowhere else: it is never part of an
error or a log line.
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
            start_tls=False if self.implicit_tls else None,  # None: STARTTLS when the server offers it
            timeout=TIMEOUT_SECONDS,
        )

    def __str__(self) -> str:
        return f"{'smtps' if self.implicit_tls else 'smtp'}://{self.host}:{self.port}"
