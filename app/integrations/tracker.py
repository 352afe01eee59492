"""What an issue tracker is to Hearken: its API client (check a credential, file an issue), its webhook
signature check and its state mapping (a delivery to the change it brings). Everything else, storing the
integration, linking issues, acting on deliveries once and in order, is the one service for all of them
(`tracker_integrations.py`); each tracker is one module that builds a `Tracker` (`trackers.py` lists
them)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from app.config import Settings
from app.db.models import TrackerKind
from app.integrations.issue_text import IssueText


class TrackerError(Exception):
    """The tracker refused or could not be reached, in words shown to people as they are (never a
    credential); `field` is the body's field to correct (None: neither, a 502)."""

    def __init__(self, words: str, *, field: str | None = None) -> None:
        super().__init__(words)
        self.words = words
        self.field = field


@dataclass(frozen=True, slots=True)
class FiledIssue:
    key: str
    """How the tracker names the issue: "owner/name#12", "ENG-12"."""
    url: str


@dataclass(frozen=True, slots=True)
class IssueChange:
    """What a delivery says of one issue: open or closed, as of when."""

    key: str
    closed: bool
    changed_at: datetime


@dataclass(frozen=True, slots=True)
class FormField:
    """One field of the tracker's settings form in the console."""

    name: str
    """The form's field name (unique on the Integrations page) and, with the tracker's name, its id."""
    body_field: str
    label: str
    hint: str = ""
    placeholder: str = ""


Check = Callable[[Settings, Mapping[str, str], str], Awaitable[dict[str, str]]]
"""(settings, the body's fields but the credential, the credential) -> the settings to store; raises
TrackerError naming the field the tracker refused."""
File = Callable[[Settings, Mapping[str, str], str, IssueText], Awaitable[FiledIssue]]
Verify = Callable[[bytes, Mapping[str, str], str], None]
"""(raw body, headers, webhook secret): raises Unauthorized unless the tracker signed this body."""
Change = Callable[[bytes, Mapping[str, str]], IssueChange | None]
"""A verified delivery's change of an issue's state; None for anything else (a ping, another event)."""


@dataclass(frozen=True, slots=True)
class Tracker:
    kind: TrackerKind
    label: str
    """As people name it: "GitHub"; also who the feedback history says changed an item."""
    body: type[msgspec.Struct]
    """The body that saves the integration (PUT .../integrations/{tracker})."""
    credential: str
    """The body's field that is the credential: sealed, never shown."""
    delivery_header: str
    """The header that names a delivery, the same on its retries."""
    check: Check
    file: File
    verify: Verify
    change: Change
    form: tuple[FormField, ...]
    purpose: str
    """What the console says the integration does."""
    webhook_setup: str
    """Where to paste the webhook URL and secret in the tracker."""
    secret_prefix: str = ""

    def settings_of(self, body: msgspec.Struct) -> tuple[dict[str, str], str]:
        """The body's settings (shown) and its credential (sealed)."""
        values: dict[str, Any] = msgspec.structs.asdict(body)
        return {k: v for k, v in values.items() if k != self.credential}, values[self.credential]
