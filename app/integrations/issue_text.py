"""What an issue filed from a feedback item says: a title from the message's first line, and a body with
the message quoted, where and in which version it was given, its type, who sent it (and whether that was
verified), links to its images and a link back to the item in the console. The same text for every
tracker: both GitHub and Linear read Markdown.

Visitor text is hostile and must notify nobody: in the title and the quoted message, a word joiner (an
invisible character) is put after every `@` that starts a name, so `@name` and `@org/team` are neither
GitHub nor Linear mentions yet read the same. A reference into another repository (`owner/name#12`) gets
one after its `#`, so a visitor cannot put the team's issue into the timeline of someone else's issue.
A bare `#12` is left as it is: it names an issue of the team's own repository, a link that notifies
nobody. Page, version and sender are inline code, where nothing is a mention or a reference."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.db.models import FeedbackAttachment, FeedbackItem

TITLE_LENGTH = 80
JOINER = "\u2060"
"""WORD JOINER: invisible and not a word character, so no tracker reads a name right after it."""
MENTION = re.compile(r"@(?=[A-Za-z0-9_])")
CROSS_REFERENCE = re.compile(r"(?<=[A-Za-z0-9_.-]/)([A-Za-z0-9_.-]+)#(?=[0-9])")


@dataclass(frozen=True, slots=True)
class IssueText:
    title: str
    body: str


def issue_text(base_url: str, item: FeedbackItem, attachments: Sequence[FeedbackAttachment]) -> IssueText:
    item_url = f"{base_url}/projects/{item.project_id}/feedback/{item.id}"
    message = inert(item.message)
    first_line = next((line.strip() for line in message.splitlines() if line.strip()), "Feedback")
    title = first_line if len(first_line) <= TITLE_LENGTH else first_line[: TITLE_LENGTH - 1] + "…"
    quoted = "\n".join(f"> {line}" if line else ">" for line in message.splitlines())
    if item.submitted_by:
        verified = "verified" if item.submitted_by_verified else "not verified"
        sender = f"`{_code(item.submitted_by)}` ({verified})"
    else:
        sender = "anonymous"
    facts = [
        f"- **Type:** {item.type}",
        f"- **Page:** `{_code(item.path)}`" if item.path else "- **Page:** not given",
        f"- **Version:** `{_code(item.version)}`" if item.version else "- **Version:** not given",
        f"- **Submitted by:** {sender}",
    ]
    parts = [quoted, "\n".join(facts)]
    if attachments:
        links = [
            f"- [Image {number}]({item_url}/attachments/{attachment.id})"
            for number, attachment in enumerate(attachments, start=1)
        ]
        parts.append("**Attachments** (sign in to Hearken to see them):\n" + "\n".join(links))
    parts.append(f"[Open this feedback in Hearken]({item_url})")
    return IssueText(title=f"[{item.type}] {title}", body="\n\n".join(parts) + "\n")


def inert(text: str) -> str:
    """The text with its mentions and cross-repository references broken by an invisible joiner."""
    return CROSS_REFERENCE.sub(rf"\1#{JOINER}", MENTION.sub(f"@{JOINER}", text))


def _code(text: str) -> str:
    """Inline code cannot hold a backtick; one becomes a quote mark so the span stays closed."""
    return text.replace("`", "'").replace("\n", " ")
