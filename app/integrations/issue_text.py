"""What an issue filed from a feedback item says: a title from the message's first line, and a body with
the message quoted, where and in which version it was given, its type, who sent it (and whether that was
verified), links to its images and a link back to the item in the console. The same text for every
tracker: GitHub and Linear read it as Markdown, Jira builds its document from the same parts.

Visitor text is hostile and must notify nobody: in the title and the quoted message, a word joiner (an
invisible character) is put after every `@` that starts a name, so `@name` and `@org/team` are neither
GitHub nor Linear mentions yet read the same (Jira's mentions are nodes of their own, never text). A
reference into another repository (`owner/name#12`) gets one after its `#`, so a visitor cannot put the
team's issue into the timeline of someone else's issue.
A bare `#12` is left as it is: it names an issue of the team's own repository, a link that notifies
nobody. Page, version and sender are inline code, where nothing is a mention or a reference."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.db.models import FeedbackAttachment, FeedbackItem

TITLE_LENGTH = 80
ATTACHMENTS = "Attachments"
ATTACHMENTS_NOTE = " (sign in to Hearken to see them):"
OPEN_IN_HEARKEN = "Open this feedback in Hearken"
JOINER = "\u2060"
"""WORD JOINER: invisible and not a word character, so no tracker reads a name right after it."""
MENTION = re.compile(r"@(?=[A-Za-z0-9_])")
CROSS_REFERENCE = re.compile(r"(?<=[A-Za-z0-9_.-]/)([A-Za-z0-9_.-]+)#(?=[0-9])")


@dataclass(frozen=True, slots=True)
class Fact:
    """One line of the list under the message: "**Page:** `/settings`", "**Submitted by:** anonymous"."""

    label: str
    code: str | None
    """Shown as inline code when given (visitor text that must not be read as Markdown)."""
    words: str = ""
    """Shown after the code, as they are."""


@dataclass(frozen=True, slots=True)
class IssueText:
    """The issue's parts, for a tracker that builds its own document (Jira's ADF); `body` is the
    Markdown GitHub and Linear read."""

    title: str
    message: str
    facts: tuple[Fact, ...]
    attachment_urls: tuple[str, ...]
    item_url: str

    @property
    def body(self) -> str:
        quoted = "\n".join(f"> {line}" if line else ">" for line in self.message.splitlines())
        facts = "\n".join(
            f"- **{fact.label}:** " + (f"`{_code(fact.code)}`" if fact.code else "") + fact.words
            for fact in self.facts
        )
        parts = [quoted, facts]
        if self.attachment_urls:
            links = [f"- [Image {number}]({url})" for number, url in enumerate(self.attachment_urls, start=1)]
            parts.append(f"**{ATTACHMENTS}**{ATTACHMENTS_NOTE}\n" + "\n".join(links))
        parts.append(f"[{OPEN_IN_HEARKEN}]({self.item_url})")
        return "\n\n".join(parts) + "\n"


def issue_text(base_url: str, item: FeedbackItem, attachments: Sequence[FeedbackAttachment]) -> IssueText:
    item_url = f"{base_url}/projects/{item.project_id}/feedback/{item.id}"
    message = inert(item.message)
    first_line = next((line.strip() for line in message.splitlines() if line.strip()), "Feedback")
    title = first_line if len(first_line) <= TITLE_LENGTH else first_line[: TITLE_LENGTH - 1] + "…"
    if item.submitted_by:
        verified = "verified" if item.submitted_by_verified else "not verified"
        sender = Fact("Submitted by", item.submitted_by, f" ({verified})")
    else:
        sender = Fact("Submitted by", None, "anonymous")
    facts = (
        Fact("Type", None, item.type),
        Fact("Page", item.path) if item.path else Fact("Page", None, "not given"),
        Fact("Version", item.version) if item.version else Fact("Version", None, "not given"),
        sender,
    )
    return IssueText(
        title=f"[{item.type}] {title}",
        message=message,
        facts=facts,
        attachment_urls=tuple(f"{item_url}/attachments/{attachment.id}" for attachment in attachments),
        item_url=item_url,
    )


def inert(text: str) -> str:
    """The text with its mentions and cross-repository references broken by an invisible joiner."""
    return CROSS_REFERENCE.sub(rf"\1#{JOINER}", MENTION.sub(f"@{JOINER}", text))


def _code(text: str) -> str:
    """Inline code cannot hold a backtick; one becomes a quote mark so the span stays closed."""
    return text.replace("`", "'").replace("\n", " ")
