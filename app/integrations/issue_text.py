"""What an issue filed from a feedback item says: a title from the message's first line, and a body with
the message quoted, where and in which version it was given, its type, who sent it (and whether that was
verified), links to its images and a link back to the item in the console. The same text for every
tracker: both GitHub and Linear read Markdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.db.models import FeedbackAttachment, FeedbackItem

TITLE_LENGTH = 80


@dataclass(frozen=True, slots=True)
class IssueText:
    title: str
    body: str


def issue_text(base_url: str, item: FeedbackItem, attachments: Sequence[FeedbackAttachment]) -> IssueText:
    item_url = f"{base_url}/projects/{item.project_id}/feedback/{item.id}"
    first_line = next((line.strip() for line in item.message.splitlines() if line.strip()), "Feedback")
    title = first_line if len(first_line) <= TITLE_LENGTH else first_line[: TITLE_LENGTH - 1] + "…"
    quoted = "\n".join(f"> {line}" if line else ">" for line in item.message.splitlines())
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


def _code(text: str) -> str:
    """Inline code cannot hold a backtick; one becomes a quote mark so the span stays closed."""
    return text.replace("`", "'").replace("\n", " ")
