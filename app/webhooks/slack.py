"""The Slack format: an event as the one-line text a Slack incoming webhook posts ({"text": ...}).

Visitor text is hostile: Slack reads <...> as links and mentions (<!channel>), so &, < and > are
escaped as Slack documents, and long messages are cut.
"""

from __future__ import annotations

from typing import Any

MAX_MESSAGE = 500


def slack_text(event: dict[str, Any]) -> str:
    data: dict[str, Any] = event.get("data") or {}
    kind = event.get("type")
    if kind == "feedback.created":
        where = f" on {data['path']}" if data.get("path") else ""
        return f"New feedback ({_escape(data.get('type'))}){_escape(where)}: {_quote(data.get('message'))}"
    if kind == "feedback.updated":
        changes = ", ".join(
            f"{_escape(change['field'])} {_escape(change['from'])} → {_escape(change['to'])}"
            for change in event.get("changes") or []
        )
        return f"Feedback updated ({changes}): {_quote(data.get('message'))}"
    if kind == "feedback.rewarded":
        reward = event.get("reward") or {}
        return (
            f"Thanked with a discount ({_escape(reward.get('provider'))} coupon "
            f"{_escape(reward.get('coupon'))}): {_quote(data.get('message'))}"
        )
    if kind == "contact_message.created":
        subject = f" about “{_escape(data['subject'])}”" if data.get("subject") else ""
        sender = f"{_escape(data.get('name'))} ({_escape(data.get('email'))})"
        return f"New contact message from {sender}{subject}: {_quote(data.get('message'))}"
    if kind == "contact_message.replied":
        reply = event.get("reply") or {}
        to = f"{_escape(data.get('name'))} ({_escape(data.get('email'))})"
        return f"{_escape(reply.get('author'))} replied to {to}: {_quote(reply.get('message'))}"
    if kind == "survey.response.completed":
        answers = "; ".join(
            f"{_escape(answer.get('question_id'))}: {_quote(_shown(answer.get('value')))}"
            for answer in data.get("answers") or []
        )
        survey = _escape(data.get("survey_name"))
        return f"Survey “{survey}” completed ({_escape(data.get('language'))}): {answers}"
    if kind in ("alert.opened", "alert.resolved"):
        state = "Alert" if kind == "alert.opened" else "Resolved"
        return f"{state}: {_escape(data.get('title'))}"
    if kind == "idea.created":
        return f"New idea ({_escape(data.get('status'))}): {_quote(data.get('title'))}"
    if kind == "idea.status_changed":
        return f"Idea now {_escape(data.get('status'))}: {_quote(data.get('title'))}"
    return "Test event from Hearken: this endpoint receives Hearken's events."


def _shown(value: Any) -> str:
    """An answer as text: a list of choices joined, true/false as words."""
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _quote(text: Any) -> str:
    text = str(text or "")
    cut = text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"
    return f"“{_escape(cut)}”"


def _escape(value: Any) -> str:
    return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
