"""A mail as the code that causes it describes it (`Mail`), and as it is sent: subject, plain text and
simple HTML in the recipient's language, from the texts and the two templates.

No value can break a header, whatever the patch level of Python's `email` package: every header value
built from data (a visitor's subject, a project's or an organization's name, an address) is made plain
text here, each run of control characters or line breaks becoming one space and every `=?` that could
open an RFC 2047 encoded word becoming `= ?`. The email package decodes encoded words in the values it
is given (on some patch levels into a line break that it then writes as it is, CVE-2024-6923): given
none, it decodes nothing, and it encodes only our plain text when a value needs it. The message, as the
SMTP policy writes it, is checked to carry exactly the headers that were set before it is sent."""

from __future__ import annotations

import email.policy
import re
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID

import jinja2
import msgspec

from app.mail.texts import FOOTER, TEXTS, UNSUBSCRIBE
from tenants.languages import check_language

ADDRESSES = frozenset({"Reply-To"})
"""The extra headers that hold one bare address (a name or a group there could name another address)."""
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def one_line(text: str) -> str:
    """`text` as one plain header line: control characters and line breaks become a space, and no
    encoded word can start in it (`=?` becomes `= ?`), so nothing in it is decoded into a line break."""
    return _BREAKS.sub(" ", text).replace("=?", "= ?").strip()


@dataclass(frozen=True)
class Mail:
    recipient: str
    language: str
    kind: str
    """A key of the texts: "password_reset", ..."""
    url: str
    """Where the mail's link leads; empty: a mail without a link (a reply to a visitor)."""
    values: dict[str, str] = field(default_factory=dict)
    """What the texts' `{name}` placeholders stand for."""
    items: tuple[str, ...] = ()
    """Lines listed after the first paragraphs (a digest's projects and counts, a message quoted)."""
    reply_to: str | None = None
    """Where the recipient's answers go (the Reply-To header), when not to the From address."""
    unsubscribe_url: str | None = None
    """Where one click stops mail of this kind: shown in the mail and given in the RFC 8058 headers
    (`List-Unsubscribe` and `List-Unsubscribe-Post`), so mail programs offer it too."""
    about: UUID | None = None
    """The feedback item or contact message the mail is about: deleting it deletes the mail, sent or not."""


class ComposedMail(msgspec.Struct, frozen=True):
    """What is stored (encrypted) until the mail is sent."""

    subject: str
    text: str
    html: str
    headers: dict[str, str] = {}


@cache
def _templates() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def compose(mail: Mail) -> ComposedMail:
    language = check_language(mail.language)
    text = TEXTS[mail.kind][language]
    context: dict[str, Any] = {
        "language": language,
        "subject": one_line(text.subject.format(**mail.values)),
        "before": [p for paragraph in text.before if (p := paragraph.format(**mail.values))],
        "action": text.action.format(**mail.values),
        "after": [paragraph.format(**mail.values) for paragraph in text.after],
        "url": mail.url,
        "items": mail.items,
        "footer": FOOTER[language],
        "unsubscribe": UNSUBSCRIBE[language],
        "unsubscribe_url": mail.unsubscribe_url,
    }
    headers = {}
    if mail.reply_to:
        headers["Reply-To"] = mail.reply_to
    if mail.unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return ComposedMail(
        subject=context["subject"],
        text=_templates().get_template("message.txt").render(context),
        html=_templates().get_template("message.html").render(context),
        headers=headers,
    )


def email_message(composed: ComposedMail, sender: str, recipient: str) -> EmailMessage:
    """The MIME message: plain text with an HTML alternative. The recipient and the Reply-To are bare
    addresses (anything else is refused rather than read as a display name or a group). Raises
    ValueError for what no header can carry even on one line (an address the email package refuses):
    that mail can never be sent."""
    message = EmailMessage(policy=email.policy.SMTP)
    message["From"] = one_line(sender)
    message["To"] = Address(addr_spec=one_line(recipient))
    message["Subject"] = one_line(composed.subject)
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=_domain(sender))
    for name, value in composed.headers.items():
        message[name] = Address(addr_spec=one_line(value)) if name in ADDRESSES else one_line(value)
    message.set_content(composed.text)
    message.add_alternative(composed.html, subtype="html")
    _check_headers(message)
    return message


def _check_headers(message: EmailMessage) -> None:
    """The message as written for SMTP carries exactly the headers set, one each: a value that the
    email package would write as more than one header makes the mail one that cannot be sent."""
    head = message.as_bytes(policy=email.policy.SMTP).split(b"\r\n\r\n", 1)[0]
    written = [line.split(b":", 1)[0].lower() for line in head.split(b"\r\n") if line[:1] not in b" \t"]
    if written != [name.lower().encode() for name in message]:
        raise ValueError("a header value would be written as more than one header")


def _domain(sender: str) -> str:
    address = sender.rsplit("<", 1)[-1].rstrip(">")
    return address.rpartition("@")[2] or "localhost"
