"""A mail as the code that causes it describes it (`Mail`), and as it is sent: subject, plain text and
simple HTML in the recipient's language, from the texts and the two templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import msgspec

from app.mail.languages import check_language
from app.mail.texts import FOOTER, TEXTS, UNSUBSCRIBE


@dataclass(frozen=True)
class Mail:
    recipient: str
    language: str
    kind: str
    """A key of the texts: "password_reset", ..."""
    url: str
    """Where the mail's link leads."""
    values: dict[str, str] = field(default_factory=dict)
    """What the texts' `{name}` placeholders stand for."""
    items: tuple[str, ...] = ()
    """Lines listed after the first paragraphs (a digest's projects and counts, a message quoted)."""
    unsubscribe_url: str | None = None
    """Where one click stops mail of this kind: shown in the mail and given in the RFC 8058 headers
    (`List-Unsubscribe` and `List-Unsubscribe-Post`), so mail programs offer it too."""


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
        "subject": text.subject.format(**mail.values),
        "before": [paragraph.format(**mail.values) for paragraph in text.before],
        "action": text.action.format(**mail.values),
        "after": [paragraph.format(**mail.values) for paragraph in text.after],
        "url": mail.url,
        "items": mail.items,
        "footer": FOOTER[language],
        "unsubscribe": UNSUBSCRIBE[language],
        "unsubscribe_url": mail.unsubscribe_url,
    }
    headers = {}
    if mail.unsubscribe_url:
        headers = {
            "List-Unsubscribe": f"<{mail.unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    return ComposedMail(
        subject=context["subject"],
        text=_templates().get_template("message.txt").render(context),
        html=_templates().get_template("message.html").render(context),
        headers=headers,
    )


def email_message(composed: ComposedMail, sender: str, recipient: str) -> EmailMessage:
    """The MIME message: plain text with an HTML alternative."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = recipient
    message["Subject"] = composed.subject
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=_domain(sender))
    for name, value in composed.headers.items():
        message[name] = value
    message.set_content(composed.text)
    message.add_alternative(composed.html, subtype="html")
    return message


def _domain(sender: str) -> str:
    address = sender.rsplit("<", 1)[-1].rstrip(">")
    return address.rpartition("@")[2] or "localhost"
