"""Whether a widget's form submission came from a bot: judged on the server from what the contact and
feedback widgets send, and answered exactly like a success, so that a bot learns nothing from it.

Two signs, each cheap for a person to avoid and typical of a bot: the honeypot field (`website`, hidden
from people and assistive technology) is filled, or the form was sent less than MIN_HUMAN_MS after it
was opened (`elapsed_ms`, measured by the widget): nobody reads a form and types a message that fast.
A submission without `elapsed_ms` (an API client, an older widget) is judged by the honeypot alone.
What is judged spam is stored, never dropped: a member can see it and say otherwise.
"""

from __future__ import annotations

from typing import Literal

MIN_HUMAN_MS = 2000
"""Faster than this from opening the form to sending it is a bot."""

SpamReason = Literal["honeypot", "too_fast"]


def spam_reason(honeypot: str, elapsed_ms: int | None) -> SpamReason | None:
    """Why a submission is spam, or None for one that looks like a person's."""
    if honeypot:
        return "honeypot"
    if elapsed_ms is not None and elapsed_ms < MIN_HUMAN_MS:
        return "too_fast"
    return None
